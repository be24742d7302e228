package tools

import (
	"unicode/utf8"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
)

// setSummarySpec is mem_set_summary in the catalogue.
var setSummarySpec = tool[summaryResult](catalogText("set_summary.yaml"), "mem_set_summary", "summary slug summary", writes|destroys|idempotent, readsContext(fault.SummaryTooLong), []catalog.Param{
	slugParam,
	{Name: "summary", Type: catalog.String, Required: true, OneLine: true},
})

// setSummaryArgs is setSummary's arguments.
type setSummaryArgs struct {
	Slug    string `json:"slug"`
	Summary string `json:"summary"`
}

// summaryResult is mem_set_summary's result.
type summaryResult struct {
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

// summaryText is set_summary.yaml: mem_set_summary's catalogue texts and messages, parsed on first use.
var summaryText = loadText[struct {
	Empty, Already, Unchanged, Set fault.Msg
}]("set_summary.yaml")

// setSummary sets `summary` in context.md, on any project or domain.
func setSummary(env *Env, args setSummaryArgs) (any, plan.Plan, error) {
	summary := normalizeSummary(args.Summary)
	if summary == "" {
		return nil, nil, argument("summary", summaryText().Msg.Empty)
	}
	if err := checkSummaryLength(summary); err != nil {
		return nil, nil, err
	}
	c, err := readContext(env, args.Slug)
	if err != nil {
		return nil, nil, err
	}
	res := summaryResult{Slug: c.project.Slug, Kind: c.project.Type(), Archived: c.project.Archived(), Path: c.path, Summary: summary,
		Length: utf8.RuneCountInString(summary), Common: common()}
	if prev, ok := c.doc.String("summary"); ok {
		res.PreviousSummary = &prev
	}
	text, err := env.docs().Set(c.text, "summary", summary)
	if err != nil {
		return nil, nil, frontmatterError(c.path, err)
	}
	if text == c.text {
		res.Warnings = append(res.Warnings, env.say(summaryText().Msg.Already))
		res.SummaryMD = env.say(summaryText().Msg.Unchanged, res.Slug)
		return res, nil, nil
	}
	res.Changed = true
	res.SummaryMD = env.say(summaryText().Msg.Set, res.Slug, res.Length)
	return res, plan.Plan{plan.WriteOp(c.path, c.sha, text)}, nil
}
