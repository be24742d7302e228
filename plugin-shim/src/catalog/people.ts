// The forms as a person sees them: for each tool with a button, the few
// fields a person fills (the rest under "More"), their labels and help in
// the user's words (the catalogue's descriptions are written for agents
// and are not UI text), the controls a value calls for (facts as an atom
// editor, lists as chips, a summary with its counter), what the form
// starts with, and when the form shows what it will write before writing.
// A parameter this table does not name still gets its field, under
// "More", drawn from the catalogue (src/catalog/form.ts): a tool's new
// parameter never goes missing from its form.

import type { Text } from "./catalog";

/** How a parameter is drawn, in a person's form. */
export interface PersonParam {
  label: Text;
  help?: Text;
  /** Under "More", collapsed; false or absent: on the form itself. */
  more?: boolean;
  /** The control: a list as chips, facts as an atom editor, an object of free keys as rows of name and value, text with a counter. */
  control?: "chips" | "atoms" | "pairs" | "counter" | "line";
  /** counter: the most characters. */
  max?: number;
  /** The labels of a choice's values. */
  options?: Record<string, Text>;
  /** A default for the person's form, in place of the catalogue's. */
  start?: string | boolean;
  /** Sent only when another parameter holds this value (archive_subject: mode "full"). */
  only?: { param: string; value: string };
  /** slug: a new project's, never the current note's, always on the form. */
  fresh?: boolean;
  /** Read from the project's context when the form opens: its frontmatter key, or "body". */
  prefill?: "phase" | "summary" | "body";
}

/** A tool's person form. */
export interface PersonForm {
  /** One sentence above the fields: what the command does, in the user's words. */
  intro: Text;
  /** The main button, when the form writes at once. */
  button: Text;
  /** preview tells whether the form shows what it will write before writing, for these arguments. */
  preview?: (args: Record<string, unknown>) => boolean;
  params: Record<string, PersonParam>;
}

const t = (en: string, fr: string): Text => ({ en, fr });

/** slug, in every form: under "More" when the current note is in a project (the form is for it). */
const slugParam: PersonParam = {
  label: t("Project", "Projet"),
  help: t("The project's folder name under 10-episodes. Default: the project of the current note.", "Le nom du dossier du projet sous 10-episodes. Par défaut : le projet de la note ouverte."),
};

const atomKinds = {
  principle: t("Principle (a rule we keep)", "Principe (une règle que l'on garde)"),
  goal: t("Goal (set or changed)", "Objectif (fixé ou changé)"),
  knowledge: t("Knowledge (learned the hard way)", "Savoir (appris à ses dépens)"),
};

export const people: Record<string, PersonForm> = {
  mem_init_project: {
    intro: t("Start a project (it ends) or a domain (it lasts): its folder, its context and its history.", "Commencer un projet (il se termine) ou un domaine (il dure) : son dossier, son contexte et son historique."),
    button: t("Create", "Créer"),
    params: {
      slug: {
        label: t("Name", "Nom"),
        help: t("Its folder's name: lowercase letters, digits and dashes, e.g. kessho-docs.", "Le nom de son dossier : minuscules, chiffres et tirets, par ex. kessho-docs."),
        fresh: true,
      },
      kind: { label: t("Kind", "Genre"), options: { project: t("Project (it ends)", "Projet (il se termine)"), domain: t("Domain (it lasts)", "Domaine (il dure)") } },
      summary: { label: t("Summary", "Résumé"), help: t("What it is, in a sentence or two.", "Ce que c'est, en une ou deux phrases."), control: "counter", max: 300 },
      display: { label: t("Display name", "Nom affiché"), more: true },
      repo_path: { label: t("Repository folder", "Dossier du dépôt"), help: t("Its absolute path on this computer, if it has one.", "Son chemin absolu sur cet ordinateur, s'il en a un."), more: true },
      scope: { label: t("Scope", "Portée"), more: true, options: { work: t("Work", "Travail"), personal: t("Personal", "Personnel") } },
    },
  },
  mem_archive: {
    intro: t(
      "Write down this session: an archive note, its line in the project's history, the facts worth keeping, and the project's context as it stands now.",
      "Consigner cette séance : une note d'archive, sa ligne dans l'historique du projet, les faits à garder, et le contexte du projet tel qu'il est maintenant.",
    ),
    button: t("Archive", "Archiver"),
    // What an archive writes (several notes, the context replaced) is shown before it is written.
    preview: () => true,
    params: {
      slug: slugParam,
      archive_subject: {
        label: t("Subject", "Sujet"),
        help: t("A few words naming the session; they title the archive.", "Quelques mots qui nomment la séance ; ils donnent son titre à l'archive."),
        only: { param: "mode", value: "full" },
      },
      archive_body_md: {
        label: t("What happened", "Ce qui s'est passé"),
        help: t("What was done, decided and learned, and the next steps.", "Ce qui a été fait, décidé, appris, et les prochaines étapes."),
        only: { param: "mode", value: "full" },
      },
      context_md: {
        label: t("What stays", "Ce qui reste"),
        help: t("The project's context as it should read from now on. It replaces the current one; left as it is, it is kept.", "Le contexte du projet tel qu'il doit se lire désormais. Il remplace l'actuel ; laissé tel quel, il est gardé."),
        prefill: "body",
      },
      derive: {
        label: t("Facts to keep", "Faits à garder"),
        help: t("Each becomes a note of its own that searches find: a sentence, what kind of fact, why it holds.", "Chacun devient une note à part que la recherche retrouve : une phrase, le genre de fait, pourquoi il tient."),
        control: "atoms",
        options: atomKinds,
        only: { param: "mode", value: "full" },
      },
      no_derived_because: {
        label: t("No fact to keep, because", "Aucun fait à garder, parce que"),
        control: "line",
        help: t("When you add no fact, say why in a few words.", "Si vous n'ajoutez aucun fait, dites pourquoi en quelques mots."),
        only: { param: "mode", value: "full" },
      },
      archive_aliases: {
        label: t("Other words for it", "Autres mots pour la retrouver"),
        help: t("Words you would search for this session with. Press Enter after each.", "Les mots avec lesquels vous chercheriez cette séance. Entrée après chacun."),
        control: "chips",
        only: { param: "mode", value: "full" },
      },
      mode: {
        label: t("What to write", "Ce qu'il faut écrire"),
        more: true,
        start: "full",
        options: {
          full: t("An archive note and the context", "Une note d'archive et le contexte"),
          incremental: t("The context only (no archive note)", "Le contexte seulement (pas de note d'archive)"),
        },
      },
      phase: { label: t("New phase", "Nouvelle phase"), help: t("Leave empty to keep the phase.", "Vide : la phase ne change pas."), more: true },
      expect_decisions: {
        label: t("Decisions the context must keep", "Décisions que le contexte doit garder"),
        help: t("If the new context drops one of them, nothing is written. Press Enter after each.", "Si le nouveau contexte en perd une, rien n'est écrit. Entrée après chacune."),
        control: "chips",
        more: true,
      },
      derived_atoms: {
        label: t("Existing facts it changed", "Faits existants qu'elle a changés"),
        help: t("Names of fact notes this session made or changed by hand. Press Enter after each.", "Noms des notes de faits que cette séance a créées ou changées à la main. Entrée après chacun."),
        control: "chips",
        more: true,
        only: { param: "mode", value: "full" },
      },
      archive_extra_fm: {
        label: t("Extra properties", "Propriétés en plus"),
        help: t(
          "Properties added to the archive note: a name and its value per row, the value as text. A tags row adds a tag; another name replaces the property.",
          "Propriétés ajoutées à la note d'archive : un nom et sa valeur par ligne, la valeur en texte. Une ligne tags ajoute un tag ; un autre nom remplace la propriété.",
        ),
        control: "pairs",
        more: true,
        only: { param: "mode", value: "full" },
      },
      source_hint: {
        label: t("Rebuilt from git", "Reconstruite depuis git"),
        help: t("Only for archives rebuilt from a repository's history.", "Seulement pour les archives reconstruites depuis l'historique d'un dépôt."),
        more: true,
        options: { "archeo-git": t("Yes, from git's history", "Oui, depuis l'historique git") },
        only: { param: "mode", value: "full" },
      },
    },
  },
  mem_update_phase: {
    intro: t("Say where the project stands: drafting, in review, blocked…", "Dire où en est le projet : rédaction, relecture, bloqué…"),
    button: t("Set phase", "Changer la phase"),
    params: {
      slug: slugParam,
      phase: { label: t("Phase", "Phase"), help: t("A word or two. Empty removes the phase.", "Un ou deux mots. Vide : la phase est retirée."), prefill: "phase" },
    },
  },
  mem_set_summary: {
    intro: t("The project in one or two sentences, as lists and briefings show it.", "Le projet en une ou deux phrases, comme les listes et les rappels le montrent."),
    button: t("Save summary", "Enregistrer le résumé"),
    params: {
      slug: slugParam,
      summary: { label: t("Summary", "Résumé"), control: "counter", max: 300, prefill: "summary" },
    },
  },
  mem_note: {
    intro: t("Keep one fact now, as a note of its own that searches find.", "Garder un fait tout de suite, dans une note à part que la recherche retrouve."),
    button: t("Note it", "Noter"),
    params: {
      fact: { label: t("Fact", "Fait"), help: t("One short sentence; it names the note.", "Une phrase courte ; elle nomme la note.") },
      kind: {
        label: t("Kind", "Genre"),
        options: {
          ...atomKinds,
          person: t("Person", "Personne"),
          inbox: t("To sort later", "À trier plus tard"),
        },
      },
      body: { label: t("Why it holds", "Pourquoi il tient"), help: t("Why it is true, and what ignoring it costs.", "Pourquoi c'est vrai, et ce que coûte de l'ignorer.") },
      aliases: { label: t("Other words for it", "Autres mots pour le retrouver"), control: "chips", more: true, help: t("Press Enter after each.", "Entrée après chacun.") },
      links: { label: t("Related notes", "Notes liées"), control: "chips", more: true, help: t("Note names to link to. Press Enter after each.", "Noms de notes à lier. Entrée après chacun.") },
      slug: { ...slugParam, help: t("The project the fact comes from, if any.", "Le projet d'où vient le fait, s'il y en a un.") },
    },
  },
  mem_historize: {
    intro: t("Put a finished project away (it moves to 10-episodes/archived), or bring one back.", "Ranger un projet terminé (il va dans 10-episodes/archived), ou en ramener un."),
    button: t("Historize", "Historiser"),
    preview: () => true,
    params: {
      slug: slugParam,
      revive: { label: t("Bring it back", "Le ramener"), help: t("On: the project comes back from the archived ones.", "Activé : le projet revient des projets rangés.") },
    },
  },
  mem_rollback_archive: {
    intro: t("Undo the project's last archive: its note and its history line are deleted.", "Défaire la dernière archive du projet : sa note et sa ligne d'historique sont supprimées."),
    button: t("Roll back", "Annuler l'archive"),
    preview: () => true,
    params: {
      slug: slugParam,
      restore_context: {
        label: t("Restore the context too", "Rétablir aussi le contexte"),
        help: t("Put the context back as it was before that archive, and drop its facts left unchanged.", "Remettre le contexte comme avant cette archive, et retirer ses faits restés tels quels."),
      },
      archive: {
        label: t("Archive to roll back", "Archive à annuler"),
        help: t("Its file name. Default: the newest.", "Son nom de fichier. Par défaut : la plus récente."),
        more: true,
      },
    },
  },
  mem_context_hygiene: {
    intro: t("Check memory/SESSION_LOG.md and ACTIVE_PRIORITIES.md, and trim what the rules allow.", "Vérifier memory/SESSION_LOG.md et ACTIVE_PRIORITIES.md, et élaguer ce que les règles permettent."),
    button: t("Check", "Vérifier"),
    preview: (a) => a["action"] === "trim",
    params: {
      action: {
        label: t("What to do", "Que faire"),
        options: { check: t("Check only (writes nothing)", "Vérifier seulement (rien n'est écrit)"), trim: t("Trim what can be trimmed", "Élaguer ce qui peut l'être") },
      },
    },
  },
  mem_worklog: {
    intro: t("Gather the week's sessions and hours by day and project.", "Rassembler les séances et les heures de la semaine, par jour et par projet."),
    button: t("Gather", "Rassembler"),
    preview: (a) => a["phase"] === "persist",
    params: {
      week_of: { label: t("Week of", "Semaine du"), control: "line", help: t("Any day of the week, as YYYY-MM-DD. Default: this week.", "N'importe quel jour de la semaine, en AAAA-MM-JJ. Par défaut : cette semaine.") },
      phase: {
        label: t("Step", "Étape"),
        more: true,
        options: { collect: t("Gather (writes nothing)", "Rassembler (rien n'est écrit)"), persist: t("Write the worklog note", "Écrire la note de la semaine") },
      },
      amplitude_hours: { label: t("Hours in a working day", "Heures d'une journée de travail"), more: true },
      include_weekend: { label: t("Include the weekend", "Compter le week-end"), more: true },
      brief_md: { label: t("In brief", "En bref"), help: t("For the note: a few lines for a manager.", "Pour la note : quelques lignes pour un responsable."), more: true },
      digest_md: { label: t("By project", "Par projet"), help: t("For the note: what moved, was decided, is blocked.", "Pour la note : ce qui a avancé, été décidé, est bloqué."), more: true },
      detailed_md: { label: t("Day by day", "Jour par jour"), help: t("For the note: each day, with the next steps.", "Pour la note : chaque jour, avec les prochaines étapes."), more: true },
    },
  },
  mem_check: {
    intro: t("Look for broken links, gaps in histories, bad properties and conflict copies.", "Chercher les liens cassés, les trous d'historique, les propriétés invalides et les copies de conflit."),
    button: t("Check", "Vérifier"),
    preview: (a) => a["repair"] === true,
    params: {
      repair: { label: t("Repair history lines", "Réparer les lignes d'historique"), help: t("Off: only report.", "Désactivé : seulement signaler.") },
    },
  },
  mem_relocate_project: {
    intro: t("The project's repository moved: record its new folder.", "Le dépôt du projet a bougé : noter son nouveau dossier."),
    button: t("Move", "Déplacer"),
    preview: (a) => a["rewrite"] === true,
    params: {
      slug: slugParam,
      new_root: { label: t("New folder", "Nouveau dossier"), help: t("Its absolute path, e.g. /home/ada/src/app.", "Son chemin absolu, par ex. /home/ada/src/app."), control: "line" },
      rewrite: {
        label: t("Rewrite the old paths", "Réécrire les anciens chemins"),
        help: t("On: paths under the old folder in the context, the history and the archives become <repo>/….", "Activé : les chemins sous l'ancien dossier dans le contexte, l'historique et les archives deviennent <repo>/…."),
      },
    },
  },
};
