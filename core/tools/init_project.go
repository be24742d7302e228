package tools

import (
	"fmt"
	"strings"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/vault"
)

// initProjectSpec is mem_init_project in the catalogue.
var initProjectSpec = tool[InitResult](catalogText("init_project.yaml"), "mem_init_project", "init slug", writes|idempotent, []fault.Code{fault.SlugExists, fault.SummaryTooLong}, []catalog.Param{
	slugParam,
	{Name: "kind", Type: catalog.String, Enum: []string{"project", "domain"}, Default: "project"},
	{Name: "summary", Type: catalog.String, OneLine: true},
	{Name: "repo_path", Type: catalog.String, MaxLength: intp(1000), OneLine: true},
	{Name: "display", Type: catalog.String, MinLength: intp(1), MaxLength: intp(300), OneLine: true},
	{Name: "scope", Type: catalog.String, Enum: []string{"work", "personal"}},
})

// InitResult is mem_init_project's result.
type InitResult struct {
	Slug    string `json:"slug"`
	Kind    string `json:"kind"`
	Context string `json:"context"`
	History string `json:"history"`
	Common
}

// initText is init_project.yaml: mem_init_project's catalogue texts and messages, parsed on first use.
var initText = loadText[struct {
	OneLine, Blank, Exists, Created fault.Msg
	Kinds                           map[string]fault.Msg
}]("init_project.yaml")

type initArgs struct {
	Slug     string  `json:"slug"`
	Kind     string  `json:"kind"`
	Summary  *string `json:"summary"`
	RepoPath *string `json:"repo_path"`
	Display  *string `json:"display"`
	Scope    string  `json:"scope"`
}

// initProject is mem_init_project: check the arguments, refuse a slug
// that exists (active, archived or a domain), write context.md and
// history.md. The new context.md holds the memory-kit's universal keys
// (`project: <slug>` or `domain: <slug>`, slug, kind, zone, tags
// `<kind>/<slug>` and `zone/episodes`; docs/CONVENTIONS.md), scope when given,
// display (given, else "<slug> — context" as the memory-kit writes it, the
// form mem_historize's " [archived]" suffix extends), created, and summary
// and repo_path when given; its body is a title and the three headings a
// context usually has; history.md a title. In a kit vault (kitVault)
// both are the kit's, with its archives/.gitkeep (kitInitOps).
func initProject(env *Env, a initArgs) (any, plan.Plan, error) {
	if err := vault.CheckSlug("slug", a.Slug); err != nil {
		return nil, nil, err
	}
	var summary string
	if a.Summary != nil {
		summary = normalizeSummary(*a.Summary)
		if err := checkSummaryLength(summary); err != nil {
			return nil, nil, err
		}
	}
	if a.RepoPath != nil && strings.ContainsAny(*a.RepoPath, "\r\n") {
		return nil, nil, argument("repo_path", initText().Msg.OneLine)
	}
	if a.Display != nil && strings.TrimSpace(*a.Display) == "" {
		return nil, nil, argument("display", initText().Msg.Blank)
	}
	if err := refuseExisting(env, a.Slug); err != nil {
		return nil, nil, err
	}
	kind := vault.KindProject
	if a.Kind == "domain" {
		kind = vault.KindDomain
	}
	dir := vault.Dir(kind, a.Slug)
	kit, err := kitVault(env)
	if err != nil {
		return nil, nil, err
	}
	a2 := contextNote{Slug: a.Slug, Kind: a.Kind, Scope: a.Scope, Summary: summary, Display: a.Display, RepoPath: a.RepoPath}
	res := InitResult{Slug: a.Slug, Kind: a.Kind, Context: dir + "/context.md", History: dir + "/history.md", Common: common()}
	res.SummaryMD = env.say(initText().Msg.Created, env.say(initText().Msg.Kinds[a.Kind]), a.Slug, dir)
	// The folder must be absent too: on a disk that ignores case (macOS,
	// Windows) Carnet is carnet's folder, which Locate, exact about
	// names, does not see, and the new files would land in it silently.
	// Checking the folder, not listing its parent, keeps the call's cost
	// flat.
	p := plan.Plan{plan.CheckOp(dir, plan.Absent)}
	if kit {
		ops, err := kitInitOps(env, a2, dir)
		return res, append(p, ops...), err
	}
	ctx, err := newContextNote(env, a2)
	if err != nil {
		return nil, nil, err
	}
	return res, append(p, plan.WriteOp(res.Context, plan.Absent, ctx), plan.WriteOp(res.History, plan.Absent, fmt.Sprintf("# History — %s\n", a.Slug))), nil
}

// refuseExisting is SLUG_EXISTS when slug names a folder already, of any
// kind (one that vault.Resolve calls a SLUG_CONFLICT too). It locates the
// slug without looking for close matches: a new slug names nothing, and
// listing every project to say so would make the call grow with the vault.
func refuseExisting(env *Env, slug string) error {
	found, err := vault.Locate(env.View, slug)
	if err != nil || len(found) == 0 {
		return err
	}
	return initText().Msg.Exists.Err(fault.SlugExists, map[string]any{"slug": slug}, slug)
}
