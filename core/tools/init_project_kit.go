package tools

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/note"
	"github.com/kessho/kessho/core/plan"
)

// A new project in a vault the memory-kit made (kitVault), as the kit's
// mem_init_project writes it (docs/CONVENTIONS.md, "mem_init_project in a
// kit vault"): its keys and their order, its bodies, and an empty
// archives/.gitkeep.

// kitDisplay is the name the kit's files show: display as given, else
// the slug with its dashes as spaces and its first letter upper case
// (`web-shop` → `Web shop`).
func kitDisplay(a contextNote) string {
	if a.Display != nil {
		return strings.TrimSuffix(strings.TrimSpace(*a.Display), " — context")
	}
	s := strings.ReplaceAll(a.Slug, "-", " ")
	return strings.ToUpper(s[:1]) + s[1:]
}

// kitScope is the scope the kit writes: the one given, else work (the
// kit's default).
func kitScope(a contextNote) string {
	if a.Scope != "" {
		return a.Scope
	}
	return "work"
}

// singleQuoted is a string scalar in single quotes, as the kit's YAML
// writer quotes a date string and the empty string.
func singleQuoted(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Style: yaml.SingleQuotedStyle}
}

// kitContextNote is the new context.md in a kit vault: the kit's keys in
// its order (project or domain, tags with kind/<kind> and scope/<scope>,
// zone, kind, slug, scope, collective, phase initial, last-session today
// as a date, display "<display> — context", repo_path and
// workspace_member when a repo_path is given), Kessho's summary when
// given, and the kit's "Active context" body.
func kitContextNote(env *Env, a contextNote) (string, error) {
	display, scope := kitDisplay(a), kitScope(a)
	f := note.Fields{{Key: a.Kind, Node: note.Str(a.Slug)},
		{Key: "tags", Node: note.List([]string{a.Kind + "/" + a.Slug, "zone/episodes", "kind/" + a.Kind, "scope/" + scope})},
		{Key: "zone", Node: note.Str("episodes")}, {Key: "kind", Node: note.Str(a.Kind)}, {Key: "slug", Node: note.Str(a.Slug)},
		{Key: "scope", Node: note.Str(scope)}, {Key: "collective", Node: &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "false"}},
		{Key: "phase", Node: note.Str("initial")}, {Key: "last-session", Node: singleQuoted(env.Now.Format("2006-01-02"))},
		{Key: "display", Node: note.Str(display + " — context")}}
	if a.RepoPath != nil && strings.TrimSpace(*a.RepoPath) != "" {
		f = append(f, note.Field{Key: "repo_path", Node: note.Str(strings.TrimSpace(*a.RepoPath))},
			note.Field{Key: "workspace_member", Node: singleQuoted("")})
	}
	if a.Summary != "" {
		f = append(f, note.Field{Key: "summary", Node: note.Str(a.Summary)})
	}
	text, err := f.RenderFlush("\n> Snapshot mutable du projet. Voir aussi : [historique](history.md) · [archives/](archives/)\n\n" +
		"# " + display + " — Active context\n\n## Current state\n- Phase : initial\n- Validated : (none yet)\n- In progress : (none yet)\n\n" +
		"## Cumulative decisions\n_(none yet — will accumulate as the project evolves)_\n\n## Next steps\n_(none yet)_\n\n" +
		"## Active assets (URLs)\n_(none yet)_\n")
	if err != nil {
		return "", fault.Internalf("writing context.md: %v", err)
	}
	return text, nil
}

// kitHistory is the new history.md in a kit vault: the kit's frontmatter
// (project or domain, tags, zone, kind, slug, display "<display> —
// history"), its intro line, its title "<display> — Historique des
// sessions" and its placeholder line, which the first archive's line
// replaces (history.Insert).
func kitHistory(a contextNote) (string, error) {
	display := kitDisplay(a)
	f := note.Fields{{Key: a.Kind, Node: note.Str(a.Slug)},
		{Key: "tags", Node: note.List([]string{a.Kind + "/" + a.Slug, "zone/episodes", "kind/" + a.Kind})},
		{Key: "zone", Node: note.Str("episodes")}, {Key: "kind", Node: note.Str(a.Kind)}, {Key: "slug", Node: note.Str(a.Slug)},
		{Key: "display", Node: note.Str(display + " — history")}}
	text, err := f.RenderFlush("\n> Fil chronologique des sessions du projet. Voir aussi : [contexte](context.md)\n\n" +
		"# " + display + " — Historique des sessions\n\n_(no sessions yet — mem_archive will prepend new entries here)_\n")
	if err != nil {
		return "", fault.Internalf("writing history.md: %v", err)
	}
	return text, nil
}

// kitInitOps are the writes of a new project in a kit vault besides the
// folder's check: context.md, history.md and archives/.gitkeep (empty,
// plan.GitKeep).
func kitInitOps(env *Env, a contextNote, dir string) (plan.Plan, error) {
	ctx, err := kitContextNote(env, a)
	if err != nil {
		return nil, err
	}
	hist, err := kitHistory(a)
	if err != nil {
		return nil, err
	}
	return plan.Plan{plan.WriteOp(dir+"/context.md", plan.Absent, ctx), plan.WriteOp(dir+"/history.md", plan.Absent, hist),
		plan.WriteOp(dir+"/archives/"+plan.GitKeep, plan.Absent, "")}, nil
}
