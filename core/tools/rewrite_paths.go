package tools

import (
	"strings"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/relocate"
	"github.com/kessho/kessho/core/vault"
)

// rewritePathsSpec is mem_archive_rewrite_paths in the catalogue.
var rewritePathsSpec = tool[rewriteResult](catalogText("rewrite_paths.yaml"), "mem_archive_rewrite_paths", "rewrite-paths slug", writes|destroys|idempotent, []fault.Code{fault.NoRepoRoot, fault.SlugConflict, fault.Declined}, []catalog.Param{
	slugParam,
	{Name: "old_root", Type: catalog.String, MaxLength: intp(1000), OneLine: true},
	{Name: "include_context_history", Type: catalog.Boolean, Default: true},
	{Name: "confirm", Type: catalog.Boolean, Default: false},
})

// RelocationsLog is the note where confirmed rewrites are logged.
const RelocationsLog = "99-meta/migrations/relocations.md"

// rewriteResult is mem_archive_rewrite_paths's result.
type rewriteResult struct {
	Slug     string `json:"slug"`
	Kind     string `json:"kind"`
	Archived bool   `json:"archived"`
	OldRoot  string `json:"old_root"`
	// RootFrom says where the root came from: old_root or repo_path.
	RootFrom string `json:"root_from"`
	Confirm  bool   `json:"confirm"`
	Applied  bool   `json:"applied"`
	pathsRewritten
	Log     *string `json:"log"`
	LogLine *string `json:"log_line"`
	Common
	// ask is the question beside the plan (Confirmation).
	ask string
}

// Confirmation is what a host asks the user before the rewrite writes
// (tools.Confirmer): how many paths, under which root, in how many files.
func (r *rewriteResult) Confirmation() string { return r.ask }

// rewritePaths is mem_archive_rewrite_paths: every absolute path under
// the root in the bodies of a folder's archives (and of context.md and
// history.md) becomes a `<repo>/…` sigil, with relocate.Rewrite, the rule
// mem_archive applies to new texts.
//
// Choices where SPEC is silent:
//   - An empty or blank old_root counts as not given. A root that is not
//     absolute (or is "/" or "C:\" alone) is refused: as old_root with
//     INVALID_ARGUMENT, as repo_path with NO_REPO_ROOT.
//   - The archives are the `.md` files directly in archives/. A file whose
//     frontmatter does not parse, or that is not UTF-8, is left as it is
//     with a warning (the body's start is unknown; the others still go);
//     so is context.md when it cannot be read, if old_root is given.
//   - Files are listed context.md, history.md, then archives by name.
//   - The log line (in the caller's language) gives the time, the slug, the
//     old root, and how many files and paths were rewritten; a new
//     relocations.md gets a title and one sentence first.
//   - Nothing to rewrite: success without a plan, whether or not confirm is
//     set, and nothing is logged.
func rewritePaths(env *Env, a rewriteArgs) (any, plan.Plan, error) {
	given, err := checkRewriteArgs(&a)
	if err != nil {
		return nil, nil, err
	}
	p, err := vault.Resolve(env.View, a.Slug)
	if err != nil {
		return nil, nil, err
	}
	reads := []string{p.History()}
	if a.Confirm {
		reads = append(reads, RelocationsLog)
	}
	if err := env.View.Ask(vault.Need{Files: reads, Dirs: []string{p.Dir + "/archives"}}); err != nil {
		return nil, nil, err
	}
	res := &rewriteResult{Slug: p.Slug, Kind: p.Type(), Archived: p.Archived(), Confirm: a.Confirm,
		pathsRewritten: pathsRewritten{Files: []rewriteFile{}}, Common: common()}
	if res.Archived {
		res.Kind = vault.KindProject
	}
	ctx, err := env.View.Read(p.Context())
	if err != nil {
		return nil, nil, err
	}
	root, err := rewriteRoot(env, p, ctx, given, res)
	if err != nil {
		return nil, nil, err
	}
	files, err := rewriteFiles(env, p, ctx, a.IncludeContextHistory)
	if err != nil {
		return nil, nil, err
	}
	ops, err := rewriteEach(env, root, files, &res.pathsRewritten, &res.Warnings, rewriteText().Msg.NotUTF8, rewriteText().Msg.BadFrontmatter)
	if err != nil {
		return nil, nil, err
	}
	rootMD := "`" + res.OldRoot + "`"
	switch {
	case res.PathsRewritten == 0:
		res.SummaryMD = env.say(rewriteText().Msg.Nothing, p.Slug, rootMD, res.FilesScanned)
		return res, nil, nil
	case !a.Confirm:
		res.SummaryMD = env.say(rewriteText().Msg.DryRun, p.Slug, res.PathsRewritten, rootMD, res.FilesChanged)
		return res, nil, nil
	}
	logOp, err := relocationLogOp(env, res, rootMD)
	if err != nil {
		return nil, nil, err
	}
	res.SummaryMD = env.say(rewriteText().Msg.Done, res.PathsRewritten, rootMD, res.FilesChanged, p.Slug, RelocationsLog)
	res.ask = env.say(rewriteText().Msg.Ask, res.PathsRewritten, res.OldRoot, res.FilesChanged, p.Slug)
	return res, append(ops, logOp), nil
}

type rewriteArgs struct {
	Slug                  string  `json:"slug"`
	OldRoot               *string `json:"old_root"`
	IncludeContextHistory bool    `json:"include_context_history"`
	Confirm               bool    `json:"confirm"`
}

// rewriteText is rewrite_paths.yaml: mem_archive_rewrite_paths' catalogue texts and messages, parsed on first use.
var rewriteText = loadText[struct {
	BadRoot, NoRoot, BadRepoPath            fault.Msg
	NotUTF8, BadFrontmatter                 fault.Msg
	Nothing, DryRun, Done, LogLine, LogHead fault.Msg
	Ask                                     fault.Msg
}]("rewrite_paths.yaml")

// checkRewriteArgs refuses a bad slug or old_root, and returns old_root
// when it is given ("" when not: an empty or blank one is not).
func checkRewriteArgs(a *rewriteArgs) (string, error) {
	if err := vault.CheckSlug("slug", a.Slug); err != nil {
		return "", err
	}
	if a.OldRoot == nil || strings.TrimSpace(*a.OldRoot) == "" {
		return "", nil
	}
	if _, ok := relocate.Parse(*a.OldRoot); !ok || strings.ContainsAny(*a.OldRoot, "\r\n") {
		return "", argument("old_root", rewriteText().Msg.BadRoot, *a.OldRoot)
	}
	return *a.OldRoot, nil
}

// rewriteRoot is the root to rewrite: old_root when given, else
// context.md's repo_path (NO_REPO_ROOT when there is none, or it is not
// absolute). It sets res.OldRoot and res.RootFrom.
func rewriteRoot(env *Env, p vault.Project, ctx vault.Content, given string, res *rewriteResult) (relocate.Root, error) {
	res.RootFrom = "old_root"
	raw := given
	if given == "" {
		res.RootFrom = "repo_path"
		if !ctx.Exists || ctx.NotUTF8 {
			return relocate.Root{}, noRepoRoot(p, "")
		}
		doc, err := env.docs().Parse(ctx.Text)
		if err != nil {
			return relocate.Root{}, frontmatterError(p.Context(), err)
		}
		if raw, _ = doc.String("repo_path"); strings.TrimSpace(raw) == "" {
			return relocate.Root{}, noRepoRoot(p, "")
		}
	}
	r, ok := relocate.Parse(raw)
	if !ok || strings.ContainsAny(raw, "\r\n") {
		return relocate.Root{}, noRepoRoot(p, raw)
	}
	res.OldRoot = r.String()
	return r, nil
}

// noRepoRoot is NO_REPO_ROOT: no repo_path in p's context.md, or bad, a
// path that is not absolute.
func noRepoRoot(p vault.Project, bad string) error {
	if bad != "" {
		return rewriteText().Msg.BadRepoPath.Err(fault.NoRepoRoot, map[string]any{"slug": p.Slug, "repo_path": bad}, bad, p.Context())
	}
	return rewriteText().Msg.NoRoot.Err(fault.NoRepoRoot, map[string]any{"slug": p.Slug}, p.Slug, p.Context())
}

// relocationLogOp appends the run's line to relocations.md (created with
// a title and one sentence), and sets res's log.
func relocationLogOp(env *Env, res *rewriteResult, rootMD string) (plan.Op, error) {
	line := env.say(rewriteText().Msg.LogLine, env.Now.Format("2006-01-02 15:04"), res.Slug, rootMD, relocate.Sigil, res.FilesChanged, res.PathsRewritten)
	logFile, err := env.View.ReadText(RelocationsLog)
	if err != nil {
		return plan.Op{}, err
	}
	if !logFile.Exists {
		logFile.Text = env.say(rewriteText().Msg.LogHead)
	}
	log := RelocationsLog
	res.Applied, res.Log, res.LogLine = true, &log, &line
	return plan.WriteOp(RelocationsLog, logFile.Expect, relocate.AppendLogLine(logFile.Text, line)), nil
}
