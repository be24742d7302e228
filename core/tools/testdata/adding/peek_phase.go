package tools

import (
	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
)

// This file and peek_phase.yaml are a throwaway tool that TestAddingATool
// adds, in a copy of the repository, by the package doc's recipe alone.

// peekPhaseSpec is mem_peek_phase in the catalogue.
var peekPhaseSpec = tool[peekResult](catalogText("peek_phase.yaml"), "mem_peek_phase", "peek slug", reads, readsContext(), []catalog.Param{
	slugParam,
})

// peekPhaseArgs is peekPhase's arguments.
type peekPhaseArgs struct {
	Slug string `json:"slug"`
}

// peekResult is mem_peek_phase's result.
type peekResult struct {
	Slug  string  `json:"slug"`
	Phase *string `json:"phase"`
	Common
}

// peekText is peek_phase.yaml's messages, parsed on first use.
var peekText = loadText[struct {
	Phase, NoPhase fault.Msg
}]("peek_phase.yaml")

// peekPhase returns the phase of a project's context.md.
func peekPhase(env *Env, args peekPhaseArgs) (any, plan.Plan, error) {
	c, err := readContext(env, args.Slug)
	if err != nil {
		return nil, nil, err
	}
	res := peekResult{Slug: c.project.Slug, Common: common()}
	if phase, ok := c.doc.String("phase"); ok {
		res.Phase = &phase
		res.SummaryMD = env.say(peekText().Msg.Phase, res.Slug, phase)
	} else {
		res.SummaryMD = env.say(peekText().Msg.NoPhase, res.Slug)
	}
	return res, nil, nil
}
