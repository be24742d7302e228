package tools

import (
	"encoding/json"
	"fmt"
	"strings"

	"kessho/core/catalog"
	"kessho/core/fault"
	"kessho/core/note"
	"kessho/core/plan"
	"kessho/core/vault"
)

// initProjectSpec is mem_init_project in the catalogue.
var initProjectSpec = &catalog.Tool{
	Name:  "mem_init_project",
	Title: catalog.Text{En: "New project", Fr: "Nouveau projet"},
	Description: catalog.Text{
		En: "Creates a project or domain: its folder with context.md and history.md. Refused when the slug exists already (active, archived or as a domain).",
		Fr: "Crée un projet ou domaine : son dossier avec context.md et history.md. Refusé si le slug existe déjà (actif, archivé ou en domaine).",
	},
	Params: []catalog.Param{
		slugParam,
		{Name: "kind", Type: catalog.String, Enum: []string{"project", "domain"}, Default: "project",
			Description: catalog.Text{En: "project (has an end, can be archived) or domain (a long-lived scope: a repo, a team).", Fr: "project (a une fin, peut être archivé) ou domain (un périmètre durable : un dépôt, une équipe)."}},
		{Name: "summary", Type: catalog.String, OneLine: true,
			Description: catalog.Text{En: "One or two sentences on what it is (at most 300 characters once line breaks are joined).", Fr: "Une ou deux phrases sur ce que c'est (300 caractères au plus, sauts de ligne joints)."}},
		{Name: "repo_path", Type: catalog.String, MaxLength: intp(1000), OneLine: true,
			Description: catalog.Text{En: "Absolute path of the project's repository; paths under it in archives become `<repo>/…`.", Fr: "Chemin absolu du dépôt du projet ; les chemins dessous deviennent `<repo>/…` dans les archives."}},
	},
	Errors: append([]fault.Code{fault.SlugExists, fault.SummaryTooLong}, catalog.Shared...),
	Writes: true,
	CLI:    catalog.CLI{Command: "init", Args: []string{"slug"}},
}

// InitResult is mem_init_project's result.
type InitResult struct {
	Slug    string `json:"slug"`
	Kind    string `json:"kind"`
	Context string `json:"context"`
	History string `json:"history"`
	Common
}

// initMsg is mem_init_project's messages.
var initMsg = struct {
	oneLine, exists, created fault.Msg
	kinds                    map[string]fault.Msg
}{
	oneLine: fault.Msg{En: "must be one line", Fr: "doit tenir sur une ligne"},
	exists: fault.Msg{En: "%s exists already; pick another slug, or revive it with mem_historize if it is archived",
		Fr: "%s existe déjà ; choisissez un autre slug, ou ravivez-le avec mem_historize s'il est archivé"},
	created: fault.Msg{En: "Created %s **%s** in %s.", Fr: "%s **%s** créé dans %s."},
	kinds:   map[string]fault.Msg{"project": {En: "project", Fr: "Projet"}, "domain": {En: "domain", Fr: "Domaine"}},
}

type initArgs struct {
	Slug     string  `json:"slug"`
	Kind     string  `json:"kind"`
	Summary  *string `json:"summary"`
	RepoPath *string `json:"repo_path"`
}

// initProject is mem_init_project: check the arguments, refuse a slug
// that exists (active, archived or a domain), write context.md and
// history.md. The new context.md holds kind, created, and summary and
// repo_path when given; its body is a title and the three headings a
// context usually has; history.md a title.
func initProject(env *Env, raw json.RawMessage) (any, plan.Plan, error) {
	var a initArgs
	if err := decode(raw, &a); err != nil {
		return nil, nil, err
	}
	if err := vault.CheckSlug("slug", a.Slug); err != nil {
		return nil, nil, err
	}
	var summary string
	if a.Summary != nil {
		summary = NormalizeSummary(*a.Summary)
		if err := checkSummaryLength(summary); err != nil {
			return nil, nil, err
		}
	}
	if a.RepoPath != nil && strings.ContainsAny(*a.RepoPath, "\r\n") {
		return nil, nil, argument("repo_path", initMsg.oneLine)
	}
	if err := refuseExisting(env, a.Slug); err != nil {
		return nil, nil, err
	}
	kind := vault.KindProject
	if a.Kind == "domain" {
		kind = vault.KindDomain
	}
	dir := vault.Dir(kind, a.Slug)
	ctx, err := newContextNote(env, &a, summary)
	if err != nil {
		return nil, nil, err
	}
	res := InitResult{Slug: a.Slug, Kind: a.Kind, Context: dir + "/context.md", History: dir + "/history.md", Common: common()}
	res.SummaryMD = env.Say(initMsg.created, env.Say(initMsg.kinds[a.Kind]), a.Slug, dir)
	return res, plan.Plan{
		plan.WriteOp(res.Context, plan.Absent, ctx),
		plan.WriteOp(res.History, plan.Absent, fmt.Sprintf("# History — %s\n", a.Slug)),
	}, nil
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
	return initMsg.exists.Err(fault.SlugExists, map[string]any{"slug": slug}, slug)
}

// newContextNote renders the new context.md.
func newContextNote(env *Env, a *initArgs, summary string) (string, error) {
	f := note.Fields{{Key: "slug", Node: note.Str(a.Slug)}, {Key: "kind", Node: note.Str(a.Kind)}, {Key: "created", Node: note.Stamp(env.Now.Format("2006-01-02"))}}
	if summary != "" {
		f = append(f, note.Field{Key: "summary", Node: note.Str(summary)})
	}
	if a.RepoPath != nil && strings.TrimSpace(*a.RepoPath) != "" {
		f = append(f, note.Field{Key: "repo_path", Node: note.Str(strings.TrimSpace(*a.RepoPath))})
	}
	ctx, err := f.Render(fmt.Sprintf("# %s\n\n## Where we are\n\n## Decisions\n\n## Next\n", a.Slug))
	if err != nil {
		return "", fault.Internalf("writing context.md: %v", err)
	}
	return ctx, nil
}
