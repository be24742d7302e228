package catalog

import "kessho/core/fault"

// The context tools: small edits of a project's context.md.

var slugParam = Param{
	Name: "slug", Type: String, Required: true,
	Description: Text{
		En: "The project or domain: its folder name under 10-episodes/projects, domains or archived (letters, digits, '.', '_', '-').",
		Fr: "Le projet ou domaine : son nom de dossier sous 10-episodes/projects, domains ou archived (lettres, chiffres, « . », « _ », « - »).",
	},
}

func init() {
	register(&Tool{
		Name:  "mem_update_phase",
		Title: Text{En: "Set phase", Fr: "Changer la phase"},
		Description: Text{
			En: "Sets the phase of an active project or domain (frontmatter key `phase` of its context.md), e.g. draft, review, blocked. Only that value's bytes change; the body and every other key stay as they are. An empty phase removes the key. An archived project is refused: revive it first.",
			Fr: "Fixe la phase d'un projet ou domaine actif (clé `phase` du frontmatter de son context.md), par ex. rédaction, relecture, bloqué. Seuls les octets de cette valeur changent ; le corps et les autres clés restent tels quels. Une phase vide retire la clé. Un projet archivé est refusé : ravivez-le d'abord.",
		},
		Params: []Param{
			slugParam,
			{Name: "phase", Type: String, Required: true, MaxLength: intp(200), OneLine: true,
				Description: Text{
					En: "The new phase, one short word or phrase (at most 200 characters); an empty string removes the phase.",
					Fr: "La nouvelle phase, un mot ou une courte expression (200 caractères au plus) ; une chaîne vide retire la phase.",
				}},
		},
		Errors: append([]fault.Code{fault.NoContext, fault.SlugConflict, fault.FileNotUTF8}, Shared...),
		Writes: true,
		CLI:    CLI{Command: "phase", Args: []string{"slug", "phase"}},
	})
	register(&Tool{
		Name:  "mem_set_summary",
		Title: Text{En: "Set summary", Fr: "Changer le résumé"},
		Description: Text{
			En: "Sets the one- or two-sentence summary of a project or domain (frontmatter key `summary` of its context.md). Write it yourself, from what the project is and where it stands: nothing can infer it. Set it after each archive or checkpoint. Line breaks become spaces; at most 300 characters after that, longer is refused (never cut). Works on active, archived projects and domains.",
			Fr: "Fixe le résumé d'une ou deux phrases d'un projet ou domaine (clé `summary` du frontmatter de son context.md). Rédigez-le vous-même, d'après ce qu'est le projet et où il en est : rien ne peut le déduire. Mettez-le à jour après chaque archive ou point d'étape. Les sauts de ligne deviennent des espaces ; 300 caractères au plus ensuite, au-delà c'est refusé (jamais tronqué). Vaut pour les projets actifs, archivés et les domaines.",
		},
		Params: []Param{
			slugParam,
			{Name: "summary", Type: String, Required: true, OneLine: true,
				Description: Text{
					En: "One or two sentences, at most 300 characters once line breaks are joined: what the project is and where it stands now.",
					Fr: "Une ou deux phrases, 300 caractères au plus une fois les sauts de ligne joints : ce qu'est le projet et où il en est.",
				}},
		},
		Errors: append([]fault.Code{fault.SummaryTooLong, fault.NoContext, fault.SlugConflict, fault.FileNotUTF8}, Shared...),
		Writes: true,
		CLI:    CLI{Command: "summary", Args: []string{"slug", "summary"}},
	})
}
