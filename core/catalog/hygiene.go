package catalog

import "kessho/core/fault"

// Context hygiene (SPEC section 9): the nightly check and trim of
// memory/SESSION_LOG.md and memory/ACTIVE_PRIORITIES.md.

func init() {
	register(&Tool{
		Name:  "mem_context_hygiene",
		Title: Text{En: "Context hygiene", Fr: "Hygiène du contexte"},
		Description: Text{
			En: "Checks or trims the two always-loaded memory files, memory/SESSION_LOG.md and memory/ACTIVE_PRIORITIES.md. action=check (default) reads them and returns the verdict line `CONTEXT_HYGIENE PASS|FAIL …` with its counts; it never writes. action=trim, when the check fails, moves session blocks older than the newest five to memory/SESSION_LOG_ARCHIVE_<today>.md and priorities explicitly marked #stale, #superseded or #archived (and an `## Archived` section) to memory/ACTIVE_PRIORITIES_ARCHIVE_<today>.md, archives first, then the sources; nothing else is ever touched. What needs a person (a malformed or out-of-order block, too many priorities, a placeholder, no review stamp) is returned as gates with their file and line; a blocking gate means nothing was written. If either file changes between the read and the write, the trim writes nothing and fails with CONTEXT_HYGIENE_RACE: run it again. Only a `CONTEXT_HYGIENE PASS` line means the files are clean.",
			Fr: "Vérifie ou élague les deux fichiers de mémoire toujours chargés, memory/SESSION_LOG.md et memory/ACTIVE_PRIORITIES.md. action=check (défaut) les lit et renvoie la ligne de verdict `CONTEXT_HYGIENE PASS|FAIL …` avec ses comptes ; rien n'est écrit. action=trim, quand la vérification échoue, déplace les blocs de session plus anciens que les cinq plus récents vers memory/SESSION_LOG_ARCHIVE_<date du jour>.md et les priorités explicitement marquées #stale, #superseded ou #archived (et une section `## Archived`) vers memory/ACTIVE_PRIORITIES_ARCHIVE_<date du jour>.md, les archives d'abord, puis les sources ; aucun autre fichier n'est jamais touché. Ce qui demande une personne (bloc mal formé ou dans le désordre, trop de priorités, texte à remplir, pas de date de revue) revient sous forme de points de contrôle avec leur fichier et leur ligne ; un point bloquant signifie que rien n'a été écrit. Si l'un des fichiers change entre la lecture et l'écriture, l'élagage n'écrit rien et échoue avec CONTEXT_HYGIENE_RACE : relancez-le. Seule une ligne `CONTEXT_HYGIENE PASS` atteste que les fichiers sont propres.",
		},
		Params: []Param{
			{Name: "action", Type: String, Enum: []string{"check", "trim"}, Default: "check",
				Description: Text{
					En: "check: read-only verdict. trim: archive what the rules allow, then report the new verdict.",
					Fr: "check : verdict en lecture seule. trim : archive ce que les règles permettent, puis donne le nouveau verdict.",
				}},
		},
		Errors:       append([]fault.Code{fault.ContextHygieneRace}, Shared...),
		Writes:       true,
		ConflictCode: fault.ContextHygieneRace,
		CLI:          CLI{Command: "hygiene", Args: []string{"action"}},
	})
}
