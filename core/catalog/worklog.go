package catalog

import "kessho/core/fault"

// The week's worklog and the rewrite of archive paths (SPEC section 5).

func init() {
	register(&Tool{
		Name:  "mem_worklog",
		Title: Text{En: "Weekly worklog", Fr: "Journal de la semaine"},
		Description: Text{
			En: "Builds the worklog of one ISO week (Monday to Sunday) in two calls. First phase=collect (the default; read-only, writes nothing): it returns every archived session of the week across active and archived projects and domains (project, archive, time, subject, an excerpt, its next steps) and the hours of each worked day split among that day's projects in proportion to their sessions, in quarter hours. From that, write three texts yourself — brief_md, digest_md, detailed_md — then call again with phase=persist, the same week_of and amplitude_hours, and the texts: it writes 10-episodes/domains/worklogs/archives/<YYYY>-W<WW>-worklog.md (replacing that week's note if it exists) with a pie chart of hours by project, and adds its history line once.",
			Fr: "Construit le journal d'une semaine ISO (du lundi au dimanche) en deux appels. D'abord phase=collect (par défaut ; lecture seule, rien n'est écrit) : il renvoie chaque session archivée de la semaine dans les projets actifs, archivés et les domaines (projet, archive, heure, sujet, un extrait, ses prochaines étapes) et les heures de chaque jour travaillé réparties entre les projets du jour au prorata de leurs sessions, au quart d'heure. À partir de là, rédigez vous-même trois textes — brief_md, digest_md, detailed_md — puis rappelez avec phase=persist, les mêmes week_of et amplitude_hours, et les textes : il écrit 10-episodes/domains/worklogs/archives/<AAAA>-W<SS>-worklog.md (en remplaçant la note de cette semaine si elle existe) avec un camembert des heures par projet, et ajoute sa ligne d'historique une seule fois.",
		},
		Params: []Param{
			{Name: "phase", Type: String, Enum: []string{"collect", "persist"}, Default: "collect",
				Description: Text{
					En: "collect first (read-only: returns the week's sessions and hours, writes nothing); write the three texts from what it returns; then persist (writes the worklog note with those texts).",
					Fr: "collect d'abord (lecture seule : renvoie les sessions et les heures de la semaine, n'écrit rien) ; rédigez les trois textes d'après ce qu'il renvoie ; puis persist (écrit la note du journal avec ces textes).",
				}},
			{Name: "week_of", Type: String,
				Description: Text{
					En: "Any day of the wanted week, YYYY-MM-DD (e.g. last Friday for last week's worklog); empty or omitted: today, in the vault's time zone.",
					Fr: "N'importe quel jour de la semaine voulue, AAAA-MM-JJ (par ex. vendredi dernier pour le journal de la semaine passée) ; vide ou omis : aujourd'hui, dans le fuseau du coffre.",
				}},
			{Name: "amplitude_hours", Type: Number, Default: 7, Minimum: floatp(0.25), Maximum: floatp(24),
				Description: Text{
					En: "Hours worked on each worked day, in quarter hours (7, 7.5, 7.75…), at most 24; each worked day's hours sum exactly to it.",
					Fr: "Heures travaillées chaque jour travaillé, au quart d'heure (7, 7.5, 7.75…), 24 au plus ; les heures de chaque jour travaillé y somment exactement.",
				}},
			{Name: "include_weekend", Type: Boolean, Default: false,
				Description: Text{
					En: "Count Saturday and Sunday as worked days. Without it, weekend sessions are listed with 0 h.",
					Fr: "Compter samedi et dimanche comme jours travaillés. Sans cela, les sessions du week-end sont listées avec 0 h.",
				}},
			{Name: "brief_md", Type: String,
				Description: Text{
					En: "persist only, required: a few lines for a manager — what the week delivered. Written by you from the collect result.",
					Fr: "persist seulement, obligatoire : quelques lignes pour un responsable — ce que la semaine a livré. Rédigé par vous d'après le résultat de collect.",
				}},
			{Name: "detailed_md", Type: String,
				Description: Text{
					En: "persist only, required: the day-by-day account, session by session, with the next steps that remain.",
					Fr: "persist seulement, obligatoire : le compte rendu jour par jour, session par session, avec les prochaines étapes qui restent.",
				}},
			{Name: "digest_md", Type: String,
				Description: Text{
					En: "persist only, required: one paragraph or a short list per project — what moved, what was decided, what is blocked.",
					Fr: "persist seulement, obligatoire : un paragraphe ou une courte liste par projet — ce qui a avancé, ce qui a été décidé, ce qui bloque.",
				}},
		},
		Errors: append([]fault.Code{fault.SlugConflict, fault.FileNotUTF8}, Shared...),
		Writes: true,
		CLI:    CLI{Command: "worklog"},
	})
	register(&Tool{
		Name:  "mem_archive_rewrite_paths",
		Title: Text{En: "Rewrite archive paths", Fr: "Réécrire les chemins des archives"},
		Description: Text{
			En: "Turns absolute paths under a project's repository root into portable `<repo>/…` sigils in the bodies of its archives (and of context.md and history.md), never in frontmatter; run it after a repository moved or to clean old archives. A path matches only at a boundary (`/a/b` rewrites `/a/b/c`, not `/a/bc`); Windows roots match in any case and with either slash. Without confirm=true it is a dry run that writes nothing and shows, per file, how many paths and which lines would change; with confirm=true it rewrites them in one all-or-nothing step and logs the run in 99-meta/migrations/relocations.md. Works on active and archived projects and on domains.",
			Fr: "Remplace, dans le corps des archives d'un projet (et de context.md et history.md), les chemins absolus sous la racine de son dépôt par des sigles portables `<repo>/…` ; jamais dans le frontmatter. À lancer après le déplacement d'un dépôt ou pour nettoyer d'anciennes archives. Un chemin ne correspond qu'à une frontière (`/a/b` réécrit `/a/b/c`, pas `/a/bc`) ; les racines Windows correspondent sans casse et avec l'une ou l'autre barre. Sans confirm=true c'est un essai à blanc qui n'écrit rien et montre, par fichier, combien de chemins et quelles lignes changeraient ; avec confirm=true il les réécrit en une étape tout-ou-rien et consigne l'opération dans 99-meta/migrations/relocations.md. Vaut pour les projets actifs, archivés et les domaines.",
		},
		Params: []Param{
			slugParam,
			{Name: "old_root", Type: String, MaxLength: intp(1000), OneLine: true,
				Description: Text{
					En: "The absolute root to replace (POSIX `/home/ada/src/x` or Windows `C:\\src\\x`), e.g. where the repository used to be. Omitted or empty: context.md's repo_path.",
					Fr: "La racine absolue à remplacer (POSIX `/home/ada/src/x` ou Windows `C:\\src\\x`), par ex. l'ancien emplacement du dépôt. Omise ou vide : le repo_path de context.md.",
				}},
			{Name: "include_context_history", Type: Boolean, Default: true,
				Description: Text{
					En: "Also rewrite the bodies of context.md and history.md, not only the archives.",
					Fr: "Réécrire aussi le corps de context.md et de history.md, pas seulement les archives.",
				}},
			{Name: "confirm", Type: Boolean, Default: false,
				Description: Text{
					En: "false (default): dry run, shows what would change and writes nothing. true: writes the changes and logs them. Run the dry run first and check its lines.",
					Fr: "false (défaut) : essai à blanc, montre ce qui changerait sans rien écrire. true : écrit les changements et les consigne. Faites d'abord l'essai à blanc et vérifiez ses lignes.",
				}},
		},
		Errors: append([]fault.Code{fault.NoRepoRoot, fault.SlugConflict}, Shared...),
		Writes: true,
		CLI:    CLI{Command: "rewrite-paths", Args: []string{"slug"}},
	})
}
