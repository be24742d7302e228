package tools

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"kessho/core/catalog"
	"kessho/core/fault"
	"kessho/core/frontmatter"
	"kessho/core/plan"
)

// setSummarySpec is mem_set_summary in the catalogue.
var setSummarySpec = &catalog.Tool{
	Name:  "mem_set_summary",
	Title: catalog.Text{En: "Set summary", Fr: "Changer le résumé"},
	Description: catalog.Text{
		En: "Sets the one- or two-sentence summary of a project or domain (frontmatter key `summary` of its context.md). Write it yourself, from what the project is and where it stands: nothing can infer it. Set it after each archive or checkpoint. Line breaks become spaces; at most 300 characters after that, longer is refused (never cut). Works on active, archived projects and domains.",
		Fr: "Fixe le résumé d'une ou deux phrases d'un projet ou domaine (clé `summary` du frontmatter de son context.md). Rédigez-le vous-même, d'après ce qu'est le projet et où il en est : rien ne peut le déduire. Mettez-le à jour après chaque archive ou point d'étape. Les sauts de ligne deviennent des espaces ; 300 caractères au plus ensuite, au-delà c'est refusé (jamais tronqué). Vaut pour les projets actifs, archivés et les domaines.",
	},
	Params: []catalog.Param{
		slugParam,
		{Name: "summary", Type: catalog.String, Required: true, OneLine: true,
			Description: catalog.Text{
				En: "One or two sentences, at most 300 characters once line breaks are joined: what the project is and where it stands now.",
				Fr: "Une ou deux phrases, 300 caractères au plus une fois les sauts de ligne joints : ce qu'est le projet et où il en est.",
			}},
	},
	Errors: append([]fault.Code{fault.SummaryTooLong, fault.NoContext, fault.SlugConflict, fault.FileNotUTF8}, catalog.Shared...),
	Writes: true,
	CLI:    catalog.CLI{Command: "summary", Args: []string{"slug", "summary"}},
}

// SummaryResult is mem_set_summary's result.
type SummaryResult struct {
	Slug            string  `json:"slug"`
	Kind            string  `json:"kind"`
	Archived        bool    `json:"archived"`
	Path            string  `json:"path"`
	Summary         string  `json:"summary"`
	Length          int     `json:"length"`
	PreviousSummary *string `json:"previous_summary"`
	Changed         bool    `json:"changed"`
	Common
}

// MaxSummary is the longest summary, in characters (runes).
const MaxSummary = 300

// NormalizeSummary joins lines: each run of line breaks (CR, LF, CRLF,
// U+2028, U+2029) with the blanks around it becomes one space, and the ends
// are trimmed of white space.
func NormalizeSummary(s string) string {
	isBreak := func(r rune) bool { return r == '\r' || r == '\n' || r == '\u2028' || r == '\u2029' }
	isBlank := func(r rune) bool { return unicode.IsSpace(r) && !isBreak(r) }
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		if !isBreak(rs[i]) {
			b.WriteRune(rs[i])
			continue
		}
		// Drop the blanks already written before the break.
		out := strings.TrimRightFunc(b.String(), isBlank)
		b.Reset()
		b.WriteString(out)
		for i+1 < len(rs) && (isBreak(rs[i+1]) || isBlank(rs[i+1])) {
			i++
		}
		b.WriteByte(' ')
	}
	return strings.TrimFunc(b.String(), unicode.IsSpace)
}

// checkSummaryLength refuses a normalised summary over MaxSummary
// characters with SUMMARY_TOO_LONG; it is never cut.
func checkSummaryLength(summary string) error {
	n := utf8.RuneCountInString(summary)
	if n <= MaxSummary {
		return nil
	}
	return summaryMsg.tooLong.Err(fault.SummaryTooLong, map[string]any{"parameter": "summary", "length": n, "max": MaxSummary}, n, MaxSummary)
}

// summaryMsg is mem_set_summary's messages (and init_project's summary
// checks).
var summaryMsg = struct{ empty, tooLong, already, unchanged, set fault.Msg }{
	empty: fault.Msg{En: "is empty: write one or two sentences on what the project is and where it stands",
		Fr: "est vide : écrivez une ou deux phrases sur ce qu'est le projet et où il en est"},
	tooLong: fault.Msg{En: "summary is %d characters long, at most %d allowed: shorten it to one or two sentences (it is never cut for you)",
		Fr: "le résumé compte %d caractères, %d au plus : raccourcissez-le à une ou deux phrases (il n'est jamais tronqué pour vous)"},
	already:   fault.Msg{En: "the summary was already this text; nothing written", Fr: "le résumé était déjà ce texte ; rien n'a été écrit"},
	unchanged: fault.Msg{En: "Summary of **%s** unchanged.", Fr: "Résumé de **%s** inchangé."},
	set:       fault.Msg{En: "Summary of **%s** set (%d characters).", Fr: "Résumé de **%s** mis à jour (%d caractères)."},
}

// setSummary sets `summary` in context.md, on any project or domain.
func setSummary(env *Env, raw json.RawMessage) (any, plan.Plan, error) {
	var args struct {
		Slug    string `json:"slug"`
		Summary string `json:"summary"`
	}
	if err := decode(raw, &args); err != nil {
		return nil, nil, err
	}
	summary := NormalizeSummary(args.Summary)
	if summary == "" {
		return nil, nil, fault.Argument("summary", summaryMsg.empty.En, summaryMsg.empty.Fr)
	}
	if err := checkSummaryLength(summary); err != nil {
		return nil, nil, err
	}
	c, err := readContext(env, args.Slug)
	if err != nil {
		return nil, nil, err
	}
	res := SummaryResult{Slug: c.project.Slug, Kind: c.project.Type(), Archived: c.project.Archived(), Path: c.path, Summary: summary,
		Length: utf8.RuneCountInString(summary), Common: common()}
	if prev, ok := c.doc.String("summary"); ok {
		res.PreviousSummary = &prev
	}
	text, err := frontmatter.Set(c.text, "summary", summary)
	if err != nil {
		return nil, nil, frontmatterError(c.path, err)
	}
	if text == c.text {
		res.Warnings = append(res.Warnings, env.Say(summaryMsg.already))
		res.SummaryMD = env.Say(summaryMsg.unchanged, res.Slug)
		return res, nil, nil
	}
	res.Changed = true
	res.SummaryMD = env.Say(summaryMsg.set, res.Slug, res.Length)
	return res, plan.Plan{plan.WriteOp(c.path, c.sha, text)}, nil
}
