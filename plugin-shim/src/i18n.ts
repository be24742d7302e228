// The plugin's own words (the tools' come from the catalogue), in English
// and French. Sentence case, as Obsidian's UI writes.

import type { Lang } from "./catalog/catalog";

// --- Search (the search modal and view: src/obsidian/search-results.ts) ---

const searchEn = {
  searchViewCommand: "Open memory search in the sidebar",
  searchViewTitle: "Memory search",
  searchViewPlaceholder: "Search memory…",
  searchViewHint: "Type words to find in your memory: a word being typed matches as a beginning, and small typos are forgiven.",
  searchNotConfident: "Nothing confident: no note covers these words well. The closest ones:",
  searchWeak: "weak match",
  /** What a search's words are called when a refusal names them. */
  searchQuery: "Search",
  searchZone: "Zone",
  searchProject: "Project",
  searchKind: "Kind",
  searchAnyZone: "All zones",
  searchAnyProject: "All projects",
  searchAnyKind: "All kinds",
  /** The core's kinds and zones (core/search/note.go, classify), as the user reads them. */
  searchLabels: {
    note: "note",
    atom: "atom",
    context: "context",
    history: "history",
    archive: "archive",
    episodes: "episodes",
    knowledge: "knowledge",
    principles: "principles",
    goals: "goals",
    inbox: "inbox",
  },
};

const searchFr: typeof searchEn = {
  searchViewCommand: "Ouvrir la recherche dans la mémoire (barre latérale)",
  searchViewTitle: "Recherche dans la mémoire",
  searchViewPlaceholder: "Chercher dans la mémoire…",
  searchViewHint: "Tapez des mots à trouver dans votre mémoire : un mot en cours de frappe correspond comme un début, et les petites fautes sont pardonnées.",
  searchNotConfident: "Rien de sûr : aucune note ne couvre bien ces mots. Les plus proches :",
  searchWeak: "correspondance faible",
  searchQuery: "Recherche",
  searchZone: "Zone",
  searchProject: "Projet",
  searchKind: "Type",
  searchAnyZone: "Toutes les zones",
  searchAnyProject: "Tous les projets",
  searchAnyKind: "Tous les types",
  searchLabels: {
    note: "note",
    atom: "atome",
    context: "contexte",
    history: "historique",
    archive: "archive",
    episodes: "épisodes",
    knowledge: "connaissances",
    principles: "principes",
    goals: "objectifs",
    inbox: "boîte de réception",
  },
};

// --- end of the search block ---

const en = {
  ribbon: "Kessho",
  run: "Run",
  running: "Running…",
  cancel: "Cancel",
  required: "Required.",
  settingsLang: "Language",
  settingsLangDesc: "Language of messages and forms. Automatic follows Obsidian's language.",
  langAuto: "Automatic",
  settingsTZ: "Vault time zone",
  settingsTZDesc: "IANA time zone used for dates and archive names, e.g. Europe/Paris. Empty: this device's zone",
  badZone: "not a time zone this device knows",
  badZoneCore: "not a time zone Kessho's core knows",
  zoneMeant: "(did you mean {z}?)",
  settingsDeadline: "Time limit of a call",
  settingsDeadlineDesc: "Seconds a call (all of its steps) may take before Kessho stops it (nothing is written), from 1 to 600. Default: 10.",
  badDeadline: "not a number of seconds from 1 to 600",
  settingsRehearse: "Warm up after start",
  settingsRehearseDesc:
    "When Obsidian is idle after start, make a few hundred calls on a project held in memory (never in your vault), two or three seconds of work, so that your first calls are as quick as later ones. Off by default on phones and tablets.",
  overdue: "Kessho stopped its core: this call took longer than {s} s, the time limit in Kessho's settings. Nothing was written. Try again, or raise the limit.",
  overdueStored: "Its search index is stored with {n} of {m} notes: the next call goes on from there.",
  engineFailed: "Kessho failed: ",
  noTools: "Kessho: no action available in this version of the core.",
  searchCommand: "Search memory",
  searchPlaceholder: "Words to find in your memory",
  searchEmpty: "No note matches.",
  navigate: "to navigate",
  openAtLine: "to open the note at this line",
  dismiss: "to close",
  noSuchNote: "Kessho: no note at ",
  recallCommand: "Recall this project",
  recallPick: "Which project or domain to recall?",
  noProjects: "Kessho: no project or domain in this vault yet.",
  recallTitle: "Recall",
  recalling: "Recalling…",
  recallAgain: "Recall again",
  archived: "archived",
  openNote: "Open this note",
  // --- Forms (issue 31: forms for people; src/obsidian/tool-modal.ts) ---
  more: "More",
  preview: "Show what it will write",
  previewing: "Looking…",
  previewTitle: "What it will write",
  previewNothing: "Nothing to write: the vault already reads so.",
  write: "Write",
  writing: "Writing…",
  back: "Back",
  willCreate: "Creates",
  willModify: "Changes",
  willDelete: "Deletes",
  willMove: "Moves",
  moreLines: "… and {n} more lines",
  addFact: "Add a fact",
  removeFact: "Remove this fact",
  factFact: "Fact",
  factFactDesc: "One short sentence; it names the note.",
  factKind: "Kind",
  factBody: "Why it holds",
  factBodyDesc: "Why it is true, and what ignoring it costs.",
  factAliases: "Other words for it",
  factAliasesDesc: "Words you would search for this fact with. Press Enter after each.",
  addProperty: "Add a property",
  removeProperty: "Remove this property",
  propertyName: "Name",
  propertyValue: "Value",
  chipPlaceholder: "Type, then Enter",
  chipRemove: "Remove",
  counter: "{n} / {max} characters",
  tooLong: "{field}: {n} characters, at most {max}. Shorten it.",
  // --- end of forms ---
  // --- Settings that cannot break calls (issue 31) ---
  settingRefused: "⚠ {v}: {why}; not saved.",
  settingBroken: "⚠ {v}: {why}; every call fails until it is corrected.",
  badSettingZone: "Kessho's setting “Vault time zone” holds “{v}”, which the core does not know as a time zone: correct it in Settings → Kessho (empty: this device's zone).",
  // --- end of settings ---
  noWasm:
    "Kessho cannot run on this device: WebAssembly is turned off (iOS Lockdown Mode does this). Exclude Obsidian from Lockdown Mode, or use Kessho on another device.",
  ...searchEn,
};

const fr: typeof en = {
  ribbon: "Kessho",
  run: "Lancer",
  running: "En cours…",
  cancel: "Annuler",
  required: "Obligatoire.",
  settingsLang: "Langue",
  settingsLangDesc: "Langue des messages et des formulaires. Automatique suit la langue d'Obsidian.",
  langAuto: "Automatique",
  settingsTZ: "Fuseau horaire du coffre",
  settingsTZDesc: "Fuseau IANA des dates et des noms d'archives, par ex. Europe/Paris. Vide : le fuseau de cet appareil",
  badZone: "fuseau inconnu de cet appareil",
  badZoneCore: "fuseau inconnu du cœur de Kessho",
  zoneMeant: "(vouliez-vous dire {z} ?)",
  settingsDeadline: "Durée maximale d'un appel",
  settingsDeadlineDesc: "Secondes qu'un appel (toutes ses étapes) peut prendre avant que Kessho ne l'arrête (rien n'est écrit), de 1 à 600. Par défaut : 10.",
  badDeadline: "pas un nombre de secondes de 1 à 600",
  settingsRehearse: "Préchauffer après le démarrage",
  settingsRehearseDesc:
    "Quand Obsidian est inactif après le démarrage, faire quelques centaines d'appels sur un projet gardé en mémoire (jamais dans votre coffre), deux ou trois secondes de travail, pour que vos premiers appels soient aussi rapides que les suivants. Désactivé par défaut sur téléphone et tablette.",
  overdue: "Kessho a arrêté son cœur : cet appel a duré plus de {s} s, la limite fixée dans les réglages de Kessho. Rien n'a été écrit. Réessayez, ou relevez la limite.",
  overdueStored: "Son index de recherche est enregistré avec {n} notes sur {m} : le prochain appel reprend de là.",
  engineFailed: "Échec de Kessho : ",
  noTools: "Kessho : aucune action disponible dans cette version du cœur.",
  searchCommand: "Chercher dans la mémoire",
  searchPlaceholder: "Mots à chercher dans la mémoire",
  searchEmpty: "Aucune note ne correspond.",
  navigate: "pour naviguer",
  openAtLine: "pour ouvrir la note à cette ligne",
  dismiss: "pour fermer",
  noSuchNote: "Kessho : aucune note à ",
  // One word for one thing: the core's briefing is headed « Remémoration » (core/tools/recall.yaml), so is the view.
  recallCommand: "Remémorer ce projet",
  recallPick: "Quel projet ou domaine remémorer ?",
  noProjects: "Kessho : aucun projet ni domaine dans ce coffre pour l'instant.",
  recallTitle: "Remémoration",
  recalling: "Remémoration en cours…",
  recallAgain: "Remémorer à nouveau",
  archived: "archivé",
  openNote: "Ouvrir cette note",
  // --- Forms (issue 31: forms for people; src/obsidian/tool-modal.ts) ---
  more: "Plus",
  preview: "Voir ce qui sera écrit",
  previewing: "Examen…",
  previewTitle: "Ce qui sera écrit",
  previewNothing: "Rien à écrire : le coffre le dit déjà.",
  write: "Écrire",
  writing: "Écriture…",
  back: "Retour",
  willCreate: "Crée",
  willModify: "Modifie",
  willDelete: "Supprime",
  willMove: "Déplace",
  moreLines: "… et {n} lignes de plus",
  addFact: "Ajouter un fait",
  removeFact: "Retirer ce fait",
  factFact: "Fait",
  factFactDesc: "Une phrase courte ; elle nomme la note.",
  factKind: "Genre",
  factBody: "Pourquoi il tient",
  factBodyDesc: "Pourquoi c'est vrai, et ce que coûte de l'ignorer.",
  factAliases: "Autres mots pour le retrouver",
  factAliasesDesc: "Les mots avec lesquels vous chercheriez ce fait. Entrée après chacun.",
  addProperty: "Ajouter une propriété",
  removeProperty: "Retirer cette propriété",
  propertyName: "Nom",
  propertyValue: "Valeur",
  chipPlaceholder: "Tapez, puis Entrée",
  chipRemove: "Retirer",
  counter: "{n} / {max} caractères",
  tooLong: "{field} : {n} caractères, {max} au plus. Raccourcissez.",
  // --- end of forms ---
  // --- Settings that cannot break calls (issue 31) ---
  settingRefused: "⚠ {v} : {why} ; non enregistré.",
  settingBroken: "⚠ {v} : {why} ; chaque appel échoue tant qu'il n'est pas corrigé.",
  badSettingZone: "Le réglage « Fuseau horaire du coffre » de Kessho contient « {v} », que le cœur ne connaît pas comme fuseau : corrigez-le dans Paramètres → Kessho (vide : le fuseau de cet appareil).",
  // --- end of settings ---
  noWasm:
    "Kessho ne peut pas fonctionner sur cet appareil : WebAssembly y est désactivé (le mode Isolement d'iOS le fait). Excluez Obsidian du mode Isolement, ou utilisez Kessho sur un autre appareil.",
  ...searchFr,
};

export type Words = typeof en;

/** words returns the plugin's words in lang. */
export function words(lang: Lang): Words {
  return lang === "fr" ? fr : en;
}

// The words of long work (src/obsidian/status.ts, and a cancelled call's refusal), kept apart.
const workEn = {
  indexing: "Kessho: search index {n} of {m} notes",
  reading: "Kessho: {n} files read",
  stopHint: "Click to stop: the call stops at its next batch, nothing written.",
  stopping: "Kessho: stopping…",
  cancelled: "Stopped at your request after {n} files read. Nothing was written.",
};
const workFr: typeof workEn = {
  indexing: "Kessho : index de recherche, {n} notes sur {m}",
  reading: "Kessho : {n} fichiers lus",
  stopHint: "Cliquez pour arrêter : l'appel s'arrête à son prochain lot, sans rien écrire.",
  stopping: "Kessho : arrêt en cours…",
  cancelled: "Arrêté à votre demande après {n} fichiers lus. Rien n'a été écrit.",
};

export type WorkWords = typeof workEn;

/** workWords returns the words of long work in lang. */
export function workWords(lang: Lang): WorkWords {
  return lang === "fr" ? workFr : workEn;
}
