package tools

import (
	"strings"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/relocate"
	"github.com/kessho/kessho/core/vault"
)

// relocateSpec is mem_relocate_project in the catalogue. The memory-kit's
// agents send confirm (its dry run when false, unlisted: kitAccepts).
var relocateSpec = kitAccepts(tool[relocateResult](catalogText("relocate_project.yaml"), "mem_relocate_project", "relocate slug new_root", writes|destroys|idempotent, readsContext(fault.NoRepoRoot), []catalog.Param{
	slugParam,
	{Name: "new_root", Type: catalog.String, Required: true, MaxLength: intp(1000), OneLine: true},
	{Name: "rewrite", Type: catalog.Boolean, Default: false},
}), catalog.Param{Name: "confirm", Type: catalog.Boolean})

type relocateArgs struct {
	Slug    string `json:"slug"`
	NewRoot string `json:"new_root"`
	Rewrite bool   `json:"rewrite"`
	// Confirm is the memory-kit's: false is its dry run; nil, not sent.
	Confirm *bool `json:"confirm"`
}

// relocateResult is mem_relocate_project's result: repo_path before
// (old_root, null when there was none) and after, whether it changed,
// whether the plan writes (applied), and with rewrite what the rewrite
// of the old root's paths changes (pathsRewritten).
type relocateResult struct {
	Slug    string  `json:"slug"`
	Kind    string  `json:"kind"`
	Context string  `json:"context"`
	OldRoot *string `json:"old_root"`
	NewRoot string  `json:"new_root"`
	Changed bool    `json:"changed"`
	Rewrite bool    `json:"rewrite"`
	Applied bool    `json:"applied"`
	pathsRewritten
	Common
	// ask is the question beside a plan that rewrites paths (Confirmation).
	ask string
}

// Confirmation is what a host asks the user before a rewrite of paths,
// which no undo puts back (tools.Confirmer); "" when the plan only sets
// repo_path (setting the old value back undoes it).
func (r *relocateResult) Confirmation() string { return r.ask }

// relocateText is relocate_project.yaml: mem_relocate_project's catalogue texts and messages, parsed on first use.
var relocateText = loadText[struct {
	BadRoot, NoRoot, BadOld, NotUTF8, BadFrontmatter fault.Msg
	Same, Set, SetNew, Rewrote, DryRun, Ask          fault.Msg
	DryRewrite, None                                 fault.Msg
}]("relocate_project.yaml")

// relocateProject is mem_relocate_project: set repo_path in a project's
// context.md to new_root (only that value's bytes change); with rewrite,
// the absolute paths under the old repo_path in the bodies of its
// context.md, history.md and archives become `<repo>/…` sigils
// (relocate.Root.Note, mem_archive_rewrite_paths' rule), in the same
// plan: all or nothing, each write holding the bytes it read.
//
// Choices where SPEC is silent:
//   - new_root must be absolute (and not the file system's root alone):
//     INVALID_ARGUMENT naming new_root. It is written trimmed.
//   - A new_root naming the same folder as repo_path (Windows roots fold
//     case and slashes, trailing separators do not count) changes nothing:
//     success without a plan; with rewrite, the paths are still rewritten.
//   - rewrite with no repo_path, or one that is not absolute:
//     NO_REPO_ROOT (mem_archive_rewrite_paths with old_root does it).
//   - An archived project is relocated as an active one.
//   - The memory-kit's confirm: false writes nothing and says what would
//     change (the kit's dry run); true or not sent, the plan writes.
func relocateProject(env *Env, a relocateArgs) (any, plan.Plan, error) {
	newRoot, ok := relocate.Parse(a.NewRoot)
	if !ok || strings.ContainsAny(a.NewRoot, "\r\n") {
		return nil, nil, argument("new_root", relocateText().Msg.BadRoot, a.NewRoot)
	}
	c, err := readContext(env, a.Slug)
	if err != nil {
		return nil, nil, err
	}
	res := &relocateResult{Slug: c.project.Slug, Kind: c.project.Type(), Context: c.path, NewRoot: strings.TrimSpace(a.NewRoot),
		Rewrite: a.Rewrite, pathsRewritten: pathsRewritten{Files: []rewriteFile{}}, Common: common()}
	if c.project.Archived() {
		res.Kind = vault.KindProject
	}
	var oldRoot relocate.Root
	oldOK := false
	if old, ok := c.doc.String("repo_path"); ok && strings.TrimSpace(old) != "" {
		res.OldRoot = &old
		oldRoot, oldOK = relocate.Parse(old)
	}
	res.Changed = !oldOK || !oldRoot.Same(newRoot)
	text := c.text
	var ops plan.Plan
	if a.Rewrite {
		if !oldOK {
			return nil, nil, relocateNoRoot(c, res.OldRoot)
		}
		if text, ops, err = relocateRewrite(env, c, oldRoot, res); err != nil {
			return nil, nil, err
		}
	}
	if res.Changed {
		if text, err = env.docs().Set(text, "repo_path", res.NewRoot); err != nil {
			return nil, nil, frontmatterError(c.path, err)
		}
	}
	if text != c.text {
		ops = append(plan.Plan{plan.WriteOp(c.path, c.sha, text)}, ops...)
	}
	return relocateSummary(env, a, res, ops)
}

// relocateNoRoot is NO_REPO_ROOT for a rewrite with no old root: no
// repo_path in the context, or one that is not absolute (old).
func relocateNoRoot(c *contextFile, old *string) error {
	if old != nil {
		return relocateText().Msg.BadOld.Err(fault.NoRepoRoot, map[string]any{"slug": c.project.Slug, "repo_path": *old}, *old, c.path)
	}
	return relocateText().Msg.NoRoot.Err(fault.NoRepoRoot, map[string]any{"slug": c.project.Slug}, c.project.Slug, c.path)
}

// relocateRewrite rewrites the paths under old in the bodies of the
// folder's files: context.md's new text (its write is the caller's, with
// repo_path set), and a write for each other file that changes.
func relocateRewrite(env *Env, c *contextFile, old relocate.Root, res *relocateResult) (string, plan.Plan, error) {
	p := c.project
	if err := env.View.Ask(vault.Need{Files: []string{p.History()}, Dirs: []string{p.Dir + "/archives"}}); err != nil {
		return "", nil, err
	}
	files, err := rewriteFiles(env, p, vault.Content{}, true)
	if err != nil {
		return "", nil, err
	}
	t := relocateText().Msg
	text, n, lines, _ := old.Note(env.docs(), c.text)
	res.FilesScanned++
	if n > 0 {
		res.Files = append(res.Files, rewriteFile{Path: c.path, Count: n, Lines: lines})
		res.FilesChanged++
		res.PathsRewritten += n
	}
	ops, err := rewriteEach(env, old, files, &res.pathsRewritten, &res.Warnings, t.NotUTF8, t.BadFrontmatter)
	return text, ops, err
}

// relocateSummary says what the call does, and drops the plan for the
// memory-kit's dry run (confirm: false).
func relocateSummary(env *Env, a relocateArgs, res *relocateResult, ops plan.Plan) (any, plan.Plan, error) {
	t := relocateText().Msg
	old := env.say(t.None)
	if res.OldRoot != nil {
		old = "`" + *res.OldRoot + "`"
	}
	switch {
	case len(ops) == 0:
		res.SummaryMD = env.say(t.Same, res.Slug, res.NewRoot)
		return res, nil, nil
	case a.Confirm != nil && !*a.Confirm:
		paths := ""
		if res.PathsRewritten > 0 {
			paths = env.say(t.DryRewrite, res.PathsRewritten, res.FilesChanged)
		}
		res.SummaryMD = env.say(t.DryRun, res.Slug, old, res.NewRoot, paths)
		return res, nil, nil
	}
	res.Applied = true
	res.SummaryMD = env.say(t.Set, res.Slug, old, res.NewRoot)
	if res.OldRoot == nil {
		res.SummaryMD = env.say(t.SetNew, res.Slug, res.NewRoot)
	}
	if !res.Changed {
		res.SummaryMD = env.say(t.Same, res.Slug, res.NewRoot)
	}
	if res.PathsRewritten > 0 {
		res.SummaryMD += env.say(t.Rewrote, res.PathsRewritten, res.FilesChanged)
		res.ask = env.say(t.Ask, res.PathsRewritten, res.FilesChanged, res.Slug, res.NewRoot)
	}
	return res, ops, nil
}
