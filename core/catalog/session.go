package catalog

import "kessho/core/fault"

// The session tools (SPEC sections 5 and 6): archive, roll back,
// historize, create, list, read.

func init() {
	register(&Tool{
		Name:  "mem_archive",
		Title: Text{En: "Archive session", Fr: "Archiver la session"},
		Description: Text{
			En: "Records the end of a work session on a project or domain. mode=incremental (default) only updates context.md (phase, body, last-session). mode=full also writes a timestamped archive note, prepends its line to history.md, and can create curated atoms (derive) in the same all-or-nothing call. A full archive with the same subject and body as the project's newest archive, less than 24 hours after it, is a retry: it answers that archive with already_archived true and writes nothing. Call it when the user asks to archive or checkpoint a session.",
			Fr: "Enregistre la fin d'une session de travail sur un projet ou domaine. mode=incremental (défaut) ne met à jour que context.md (phase, corps, last-session). mode=full écrit aussi une note d'archive horodatée, ajoute sa ligne en tête de history.md, et peut créer des atomes (derive) dans le même appel tout-ou-rien. Une archive full de même sujet et même corps que la plus récente du projet, moins de 24 heures après elle, est un nouvel essai : il renvoie cette archive avec already_archived à true et n'écrit rien. À appeler quand l'utilisateur demande d'archiver ou de faire le point sur une session.",
		},
		Params: []Param{
			slugParam,
			{Name: "mode", Type: String, Enum: []string{"incremental", "full"}, Default: "incremental",
				Description: Text{
					En: "incremental: update context.md only. full: also write an archive note, its history.md line and atoms.",
					Fr: "incremental : ne met à jour que context.md. full : écrit aussi une note d'archive, sa ligne dans history.md et les atomes.",
				}},
			{Name: "phase", Type: String, MaxLength: intp(200), OneLine: true,
				Description: Text{
					En: "New phase of the project; written only when given.",
					Fr: "Nouvelle phase du projet ; écrite seulement si elle est donnée.",
				}},
			{Name: "context_md", Type: String,
				Description: Text{
					En: "REPLACES the whole body of context.md: pass the complete new context, never a diff or a fragment. Omit it to keep the body byte for byte (how one sets a phase or adds an archive without touching the context). Empty is refused.",
					Fr: "REMPLACE tout le corps de context.md : passez le contexte complet, jamais un diff ni un fragment. Omettez-le pour garder le corps à l'octet près (pour changer la phase ou ajouter une archive sans toucher au contexte). Vide : refusé.",
				}},
			{Name: "expect_decisions", Type: Array, Items: &Param{Type: String},
				Description: Text{
					En: "Decisions that must still be in the context after the call (compared on letters and digits, case and accents ignored); if one is missing nothing is written. Use it to guard against dropping a decision when rewriting context_md.",
					Fr: "Décisions qui doivent encore figurer dans le contexte après l'appel (comparées sur lettres et chiffres, sans casse ni accents) ; s'il en manque une, rien n'est écrit. Protège contre l'oubli d'une décision en réécrivant context_md.",
				}},
			{Name: "archive_subject", Type: String, MaxLength: intp(200), OneLine: true,
				Description: Text{
					En: "full mode, required: a short subject naming what the session did; it names the archive file and its history line.",
					Fr: "mode full, obligatoire : un sujet court qui dit ce que la session a fait ; il nomme le fichier d'archive et sa ligne d'historique.",
				}},
			{Name: "archive_body_md", Type: String,
				Description: Text{
					En: "full mode, required: the archive's Markdown body: what was done, decided, learned, and what comes next (a 'Next steps' section is picked up by the worklog).",
					Fr: "mode full, obligatoire : le corps Markdown de l'archive : ce qui a été fait, décidé, appris, et la suite (une section « Prochaines étapes » est reprise par le worklog).",
				}},
			{Name: "archive_aliases", Type: Array, Items: &Param{Type: String, OneLine: true},
				Description: Text{
					En: "full mode: the words the user actually lived and will search with later, not the fix's vocabulary (e.g. \"menu bar\" for a systray bug, \"the app is all white\" for a blank screen); they rank like a title in search.",
					Fr: "mode full : les mots que l'utilisateur a vécus et cherchera plus tard, pas le vocabulaire du correctif (par ex. « barre de menus » pour un bug de systray, « l'appli est toute blanche » pour un écran vide) ; ils comptent comme un titre dans la recherche.",
				}},
			{Name: "archive_extra_fm", Type: Object,
				Description: Text{
					En: "full mode: extra frontmatter keys for the archive; `tags` are added to the archive's own tags (no duplicates), any other key replaces the generated one.",
					Fr: "mode full : clés de frontmatter en plus pour l'archive ; les `tags` s'ajoutent à ceux de l'archive (sans doublon), toute autre clé remplace celle générée.",
				}},
			{Name: "derive", Type: Array, Items: &Param{Type: Object, Props: []Param{
				{Name: "fact", Type: String, Required: true, MinLength: intp(1), MaxLength: intp(300), OneLine: true,
					Description: Text{En: "The fact itself, as a short sentence: it names the atom's note and is how it will be found.", Fr: "Le fait lui-même, en une phrase courte : il nomme la note de l'atome et c'est par lui qu'on la retrouvera."}},
				{Name: "body", Type: String, Required: true,
					Description: Text{En: "Why it is true and what ignoring it costs.", Fr: "Pourquoi c'est vrai et ce que coûte de l'ignorer."}},
				{Name: "kind", Type: String, Required: true, Enum: []string{"principle", "goal", "knowledge"},
					Description: Text{En: "principle (constrains future work), goal (set or changed), knowledge (costly to get).", Fr: "principle (contraint le travail futur), goal (fixé ou changé), knowledge (coûteux à obtenir)."}},
			}},
				Description: Text{
					En: "full mode: the durable facts to write as curated atoms in this call — a principle that will constrain future work, a goal set or changed, knowledge that was costly to get. A fact left only in an archive takes several searches to find again; an atom, one or two. A name already used in the vault refuses the call.",
					Fr: "mode full : les faits durables à écrire comme atomes dans cet appel — un principe qui contraindra la suite, un objectif fixé ou changé, un savoir coûteux à obtenir. Un fait laissé dans une archive demande plusieurs recherches pour être retrouvé ; un atome, une ou deux. Un nom déjà pris dans le coffre fait refuser l'appel.",
				}},
			{Name: "derived_atoms", Type: Array, Items: &Param{Type: String, OneLine: true},
				Description: Text{
					En: "full mode: existing atoms this session produced or changed, as `[[name]]` or `name`.",
					Fr: "mode full : atomes existants que la session a produits ou modifiés, en `[[nom]]` ou `nom`.",
				}},
			{Name: "no_derived_because", Type: String, OneLine: true,
				Description: Text{
					En: "full mode: required when the session leaves no atom (derive and derived_atoms both empty); a short reason is enough — silence is what is refused. Not allowed with atoms.",
					Fr: "mode full : obligatoire quand la session ne laisse aucun atome (derive et derived_atoms vides) ; une raison courte suffit — c'est le silence qui est refusé. Interdit avec des atomes.",
				}},
			{Name: "source_hint", Type: String, Enum: []string{"archeo-git"},
				Description: Text{
					En: "full mode: `archeo-git` for archives reconstructed from git history; the archive's frontmatter must then hold every archeo-git key (through archive_extra_fm).",
					Fr: "mode full : `archeo-git` pour les archives reconstituées depuis l'historique git ; le frontmatter de l'archive doit alors porter toutes les clés archeo-git (via archive_extra_fm).",
				}},
		},
		Errors: append([]fault.Code{fault.ContextEmpty, fault.DecisionsLost, fault.DerivedRequired, fault.AtomExists, fault.ArcheoInvalid, fault.NoContext, fault.SlugConflict, fault.FileNotUTF8}, Shared...),
		Writes: true,
		CLI:    CLI{Command: "archive", Args: []string{"slug"}},
	})
	register(&Tool{
		Name:  "mem_rollback_archive",
		Title: Text{En: "Roll back last archive", Fr: "Annuler la dernière archive"},
		Description: Text{
			En: "Undoes the last archive of a project or domain: deletes the archive note named by the newest history.md entry and removes exactly that line. context.md is not restored; atoms the archive derived are kept and listed. Refused, nothing written, when that entry does not name the newest file of archives/ (HISTORY_MISMATCH; archives made in the same minute all count as newest) or is not the archive given in `archive` (ARCHIVE_MISMATCH).",
			Fr: "Annule la dernière archive d'un projet ou domaine : supprime la note d'archive de l'entrée la plus récente de history.md et retire exactement cette ligne. context.md n'est pas restauré ; les atomes dérivés sont gardés et listés. Refusé, sans rien écrire, quand cette entrée ne nomme pas le fichier le plus récent de archives/ (HISTORY_MISMATCH ; les archives d'une même minute comptent toutes comme les plus récentes) ou n'est pas l'archive donnée dans `archive` (ARCHIVE_MISMATCH).",
		},
		Params: []Param{
			slugParam,
			{Name: "archive", Type: String, MinLength: intp(1), MaxLength: intp(1000),
				Description: Text{
					En: "The archive you mean to remove: its file name, or the path mem_archive returned. When the newest archive is another (already rolled back, or a later one), nothing is written (ARCHIVE_MISMATCH): pass it when retrying, so a retry never removes a second archive.",
					Fr: "L'archive que vous voulez supprimer : son nom de fichier, ou le chemin renvoyé par mem_archive. Si l'archive la plus récente en est une autre (déjà annulée, ou plus récente), rien n'est écrit (ARCHIVE_MISMATCH) : passez-la en cas de nouvel essai, pour qu'il ne supprime jamais une seconde archive.",
				}},
		},
		Errors: append([]fault.Code{fault.NothingToRollBack, fault.HistoryMismatch, fault.ArchiveMismatch, fault.NoContext, fault.SlugConflict, fault.FileNotUTF8}, Shared...),
		Writes: true,
		CLI:    CLI{Command: "rollback", Args: []string{"slug"}},
	})
	register(&Tool{
		Name:  "mem_historize",
		Title: Text{En: "Historize / revive project", Fr: "Historiser / raviver le projet"},
		Description: Text{
			En: "Moves a finished project to 10-episodes/archived/ (phase: archived, the previous phase kept, archived_at, ` [archived]` in display; a display it has to create is marked display_created_on_archive), or with revive=true brings it back exactly as it was: revive removes the suffix and deletes display only when historize created it. Domains cannot be archived.",
			Fr: "Déplace un projet terminé dans 10-episodes/archived/ (phase: archived, phase précédente gardée, archived_at, ` [archived]` dans display ; un display qu'il doit créer est marqué display_created_on_archive), ou avec revive=true le ramène exactement tel qu'il était : revive retire le suffixe et ne supprime display que si historize l'a créé. Les domaines ne s'archivent pas.",
		},
		Params: []Param{
			slugParam,
			{Name: "revive", Type: Boolean, Default: false,
				Description: Text{En: "true brings an archived project back to 10-episodes/projects/.", Fr: "true ramène un projet archivé dans 10-episodes/projects/."}},
		},
		Errors: append([]fault.Code{fault.NotAProject, fault.NoContext, fault.SlugConflict, fault.FileNotUTF8}, Shared...),
		Writes: true,
		CLI:    CLI{Command: "historize", Args: []string{"slug"}},
	})
	register(&Tool{
		Name:  "mem_init_project",
		Title: Text{En: "New project", Fr: "Nouveau projet"},
		Description: Text{
			En: "Creates a project or domain: its folder with context.md and history.md. Refused when the slug exists already (active, archived or as a domain).",
			Fr: "Crée un projet ou domaine : son dossier avec context.md et history.md. Refusé si le slug existe déjà (actif, archivé ou en domaine).",
		},
		Params: []Param{
			slugParam,
			{Name: "kind", Type: String, Enum: []string{"project", "domain"}, Default: "project",
				Description: Text{En: "project (has an end, can be archived) or domain (a long-lived scope: a repo, a team).", Fr: "project (a une fin, peut être archivé) ou domain (un périmètre durable : un dépôt, une équipe)."}},
			{Name: "summary", Type: String, OneLine: true,
				Description: Text{En: "One or two sentences on what it is (at most 300 characters once line breaks are joined).", Fr: "Une ou deux phrases sur ce que c'est (300 caractères au plus, sauts de ligne joints)."}},
			{Name: "repo_path", Type: String, MaxLength: intp(1000), OneLine: true,
				Description: Text{En: "Absolute path of the project's repository; paths under it in archives become `<repo>/…`.", Fr: "Chemin absolu du dépôt du projet ; les chemins dessous deviennent `<repo>/…` dans les archives."}},
		},
		Errors: append([]fault.Code{fault.SlugExists, fault.SummaryTooLong}, Shared...),
		Writes: true,
		CLI:    CLI{Command: "init", Args: []string{"slug"}},
	})
	register(&Tool{
		Name:  "mem_list",
		Title: Text{En: "List projects", Fr: "Lister les projets"},
		Description: Text{
			En: "Lists projects and domains with their kind, phase, summary, last session and whether they are archived. Read-only.",
			Fr: "Liste les projets et domaines avec leur type, phase, résumé, dernière session et s'ils sont archivés. Lecture seule.",
		},
		Params: []Param{
			{Name: "include_archived", Type: Boolean, Default: true,
				Description: Text{En: "Include archived projects.", Fr: "Inclure les projets archivés."}},
		},
		Errors: Shared,
		CLI:    CLI{Command: "list"},
	})
	register(&Tool{
		Name:  "mem_read_context",
		Title: Text{En: "Read context", Fr: "Lire le contexte"},
		Description: Text{
			En: "Returns a project's or domain's context.md: its frontmatter as an object and its body. Read it at the start of a session. Read-only.",
			Fr: "Renvoie le context.md d'un projet ou domaine : son frontmatter en objet et son corps. À lire en début de session. Lecture seule.",
		},
		Params: []Param{slugParam},
		Errors: append([]fault.Code{fault.NoContext, fault.SlugConflict, fault.FileNotUTF8}, Shared...),
		CLI:    CLI{Command: "context", Args: []string{"slug"}},
	})
}
