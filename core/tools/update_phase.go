package tools

import (
	"strings"
	"unicode"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
)

// updatePhaseSpec is mem_update_phase in the catalogue.
var updatePhaseSpec = tool[phaseResult](catalogText("update_phase.yaml"), "mem_update_phase", "phase slug phase", writes|destroys|idempotent, readsContext(), []catalog.Param{
	slugParam,
	{Name: "phase", Type: catalog.String, Required: true, MaxLength: intp(200), OneLine: true},
})

// updatePhaseArgs is updatePhase's arguments.
type updatePhaseArgs struct {
	Slug  string `json:"slug"`
	Phase string `json:"phase"`
}

// phaseResult is mem_update_phase's result.
type phaseResult struct {
	Slug          string  `json:"slug"`
	Kind          string  `json:"kind"`
	Path          string  `json:"path"`
	Phase         string  `json:"phase"`
	PreviousPhase *string `json:"previous_phase"`
	Changed       bool    `json:"changed"`
	Common
}

// phaseText is update_phase.yaml: mem_update_phase's catalogue texts and messages, parsed on first use.
var phaseText = loadText[struct {
	OneLine                            fault.Msg
	None, Absent                       fault.Msg
	Already, Unchanged, Removed, SetTo fault.Msg
}]("update_phase.yaml")

// updatePhase sets or removes `phase` in context.md.
//
// The phase is trimmed of surrounding blanks and must be one line (a phase
// is a word or a short phrase; a line break in it is surely a mistake).
// Setting the value it already has writes nothing and says so.
func updatePhase(env *Env, args updatePhaseArgs) (any, plan.Plan, error) {
	phase := strings.TrimFunc(args.Phase, unicode.IsSpace)
	if strings.ContainsAny(phase, "\r\n\u2028\u2029") {
		return nil, nil, argument("phase", phaseText().Msg.OneLine)
	}
	c, err := readContext(env, args.Slug)
	if err != nil {
		return nil, nil, err
	}
	if err := refuseArchived(c.project); err != nil {
		return nil, nil, err
	}
	res := phaseResult{Slug: c.project.Slug, Kind: c.project.Type(), Path: c.path, Phase: phase, Common: common()}
	if prev, ok := c.doc.String("phase"); ok {
		res.PreviousPhase = &prev
	}
	var text string
	if phase == "" {
		text, err = env.docs().Remove(c.text, "phase")
	} else {
		text, err = env.docs().Set(c.text, "phase", phase)
	}
	if err != nil {
		return nil, nil, frontmatterError(c.path, err)
	}
	was := "none"
	if res.PreviousPhase != nil {
		was = *res.PreviousPhase
	}
	none := env.say(phaseText().Msg.None)
	switch {
	case text == c.text:
		res.Warnings = append(res.Warnings, env.say(phaseText().Msg.Already, quoteOr(phase, env.say(phaseText().Msg.Absent))))
		res.SummaryMD = env.say(phaseText().Msg.Unchanged, res.Slug, quoteOr(phase, none))
		return res, nil, nil
	case phase == "":
		res.SummaryMD = env.say(phaseText().Msg.Removed, res.Slug, was)
	default:
		res.SummaryMD = env.say(phaseText().Msg.SetTo, res.Slug, phase, quoteOr(was, none))
	}
	res.Changed = true
	return res, plan.Plan{plan.WriteOp(c.path, c.sha, text)}, nil
}

// quoteOr writes s as code, or none when s is empty or "none".
func quoteOr(s, none string) string {
	if s == "" || s == "none" {
		return none
	}
	return "`" + s + "`"
}
