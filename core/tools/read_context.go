package tools

import (
	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/plan"
)

// readContextSpec is mem_read_context in the catalogue.
var readContextSpec = tool[contextResult](catalogText("read_context.yaml"), "mem_read_context", "context slug", reads, readsContext(), []catalog.Param{
	slugParam,
})

// readContextArgs is readContextTool's arguments.
type readContextArgs struct {
	Slug string `json:"slug"`
}

// contextResult is mem_read_context's result.
type contextResult struct {
	Slug        string         `json:"slug"`
	Kind        string         `json:"kind"`
	Archived    bool           `json:"archived"`
	Path        string         `json:"path"`
	Frontmatter map[string]any `json:"frontmatter"`
	Body        string         `json:"body"`
	Common
}

func readContextTool(env *Env, a readContextArgs) (any, plan.Plan, error) {
	c, err := readContext(env, a.Slug)
	if err != nil {
		return nil, nil, err
	}
	res := contextResult{Slug: c.project.Slug, Kind: c.project.Type(), Archived: c.project.Archived(),
		Path: c.path, Frontmatter: fmMap(c.doc), Body: c.doc.Body(), Common: Common{Warnings: []string{}}}
	res.SummaryMD = c.doc.Body()
	return res, nil, nil
}
