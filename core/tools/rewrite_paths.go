package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"kessho/core/catalog"
	"kessho/core/history"
	"strings"

	"kessho/core/fault"
	"kessho/core/frontmatter"
	"kessho/core/plan"
	"kessho/core/relocate"
	"kessho/core/vault"
)

// rewritePathsSpec is mem_archive_rewrite_paths in the catalogue.
var rewritePathsSpec = &catalog.Tool{
	Name:  "mem_archive_rewrite_paths",
	Title: catalog.Text{En: "Rewrite archive paths", Fr: "Réécrire les chemins des archives"},
	Description: catalog.Text{
		En: "Turns absolute paths under a project's repository root into portable `<repo>/…` sigils in the bodies of its archives (and of context.md and history.md), never in frontmatter; run it after a repository moved or to clean old archives. A path matches only at a boundary (`/a/b` rewrites `/a/b/c`, not `/a/bc`); Windows roots match in any case and with either slash. Without confirm=true it is a dry run that writes nothing and shows, per file, how many paths and which lines would change; with confirm=true it rewrites them in one all-or-nothing step and logs the run in 99-meta/migrations/relocations.md. Works on active and archived projects and on domains.",
		Fr: "Remplace, dans le corps des archives d'un projet (et de context.md et history.md), les chemins absolus sous la racine de son dépôt par des sigles portables `<repo>/…` ; jamais dans le frontmatter. À lancer après le déplacement d'un dépôt ou pour nettoyer d'anciennes archives. Un chemin ne correspond qu'à une frontière (`/a/b` réécrit `/a/b/c`, pas `/a/bc`) ; les racines Windows correspondent sans casse et avec l'une ou l'autre barre. Sans confirm=true c'est un essai à blanc qui n'écrit rien et montre, par fichier, combien de chemins et quelles lignes changeraient ; avec confirm=true il les réécrit en une étape tout-ou-rien et consigne l'opération dans 99-meta/migrations/relocations.md. Vaut pour les projets actifs, archivés et les domaines.",
	},
	Params: []catalog.Param{
		slugParam,
		{Name: "old_root", Type: catalog.String, MaxLength: intp(1000), OneLine: true,
			Description: catalog.Text{
				En: "The absolute root to replace (POSIX `/home/ada/src/x` or Windows `C:\\src\\x`), e.g. where the repository used to be. Omitted or empty: context.md's repo_path.",
				Fr: "La racine absolue à remplacer (POSIX `/home/ada/src/x` ou Windows `C:\\src\\x`), par ex. l'ancien emplacement du dépôt. Omise ou vide : le repo_path de context.md.",
			}},
		{Name: "include_context_history", Type: catalog.Boolean, Default: true,
			Description: catalog.Text{
				En: "Also rewrite the bodies of context.md and history.md, not only the archives.",
				Fr: "Réécrire aussi le corps de context.md et de history.md, pas seulement les archives.",
			}},
		{Name: "confirm", Type: catalog.Boolean, Default: false,
			Description: catalog.Text{
				En: "false (default): dry run, shows what would change and writes nothing. true: writes the changes and logs them. Run the dry run first and check its lines.",
				Fr: "false (défaut) : essai à blanc, montre ce qui changerait sans rien écrire. true : écrit les changements et les consigne. Faites d'abord l'essai à blanc et vérifiez ses lignes.",
			}},
	},
	Errors: append([]fault.Code{fault.NoRepoRoot, fault.SlugConflict}, catalog.Shared...),
	Writes: true,
	CLI:    catalog.CLI{Command: "rewrite-paths", Args: []string{"slug"}},
}

// RelocationsLog is the note where confirmed rewrites are logged.
const RelocationsLog = "99-meta/migrations/relocations.md"

// RewriteLine is a changed line of a file, before and after.
type RewriteLine struct {
	Line   int    `json:"line"` // 1-based, in the whole file
	Before string `json:"before"`
	After  string `json:"after"`
}

// RewriteFile is what the rewrite changes in one file.
type RewriteFile struct {
	Path  string        `json:"path"`
	Count int           `json:"count"`
	Lines []RewriteLine `json:"lines"`
}

// RewriteResult is mem_archive_rewrite_paths's result.
type RewriteResult struct {
	Slug     string `json:"slug"`
	Kind     string `json:"kind"`
	Archived bool   `json:"archived"`
	OldRoot  string `json:"old_root"`
	// RootFrom says where the root came from: old_root or repo_path.
	RootFrom       string        `json:"root_from"`
	Confirm        bool          `json:"confirm"`
	Applied        bool          `json:"applied"`
	FilesScanned   int           `json:"files_scanned"`
	FilesChanged   int           `json:"files_changed"`
	PathsRewritten int           `json:"paths_rewritten"`
	Files          []RewriteFile `json:"files"`
	Log            *string       `json:"log"`
	LogLine        *string       `json:"log_line"`
	Common
}

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
func rewritePaths(env *Env, raw json.RawMessage) (any, plan.Plan, error) {
	var a struct {
		Slug                  string  `json:"slug"`
		OldRoot               *string `json:"old_root"`
		IncludeContextHistory bool    `json:"include_context_history"`
		Confirm               bool    `json:"confirm"`
	}
	if err := decode(raw, &a); err != nil {
		return nil, nil, err
	}
	if err := vault.CheckSlug("slug", a.Slug); err != nil {
		return nil, nil, err
	}
	var root relocate.Root
	given := a.OldRoot != nil && strings.TrimSpace(*a.OldRoot) != ""
	if given {
		r, ok := relocate.Parse(*a.OldRoot)
		if !ok || strings.ContainsAny(*a.OldRoot, "\r\n") {
			return nil, nil, fault.Argument("old_root",
				fmt.Sprintf("%q is not an absolute path below the file system's root (e.g. /home/ada/src/app or C:\\src\\app)", *a.OldRoot),
				fmt.Sprintf("%q n'est pas un chemin absolu sous la racine du système de fichiers (par ex. /home/ada/src/app ou C:\\src\\app)", *a.OldRoot))
		}
		root = r
	}
	v := env.View
	p, err := vault.Resolve(v, a.Slug)
	if err != nil {
		return nil, nil, err
	}
	reads := []string{p.History()}
	if a.Confirm {
		reads = append(reads, RelocationsLog)
	}
	if err := v.Ask(vault.Need{Files: reads, Dirs: []string{p.Dir + "/archives"}}); err != nil {
		return nil, nil, err
	}
	res := &RewriteResult{Slug: p.Slug, Kind: p.Type(), Archived: p.Archived(), Confirm: a.Confirm,
		Files: []RewriteFile{}, Common: Common{Warnings: []string{}}}
	if res.Archived {
		res.Kind = vault.KindProject
	}

	// The root: old_root, else context.md's repo_path.
	ctx, err := v.Read(p.Context())
	if err != nil {
		return nil, nil, err
	}
	if given {
		res.RootFrom = "old_root"
	} else {
		res.RootFrom = "repo_path"
		if !ctx.Exists || ctx.NotUTF8 {
			return nil, nil, noRepoRoot(env, p, "")
		}
		doc, err := frontmatter.Parse(ctx.Text)
		if err != nil {
			return nil, nil, frontmatterError(p.Context(), err)
		}
		rp, _ := doc.String("repo_path")
		if strings.TrimSpace(rp) == "" {
			return nil, nil, noRepoRoot(env, p, "")
		}
		r, ok := relocate.Parse(rp)
		if !ok || strings.ContainsAny(rp, "\r\n") {
			return nil, nil, noRepoRoot(env, p, rp)
		}
		root = r
	}
	res.OldRoot = root.String()

	// The files, read in one round.
	var files []string
	if a.IncludeContextHistory {
		if ctx.Exists {
			files = append(files, p.Context())
		}
		if hist, err := v.Read(p.History()); err != nil || hist.Exists {
			files = append(files, p.History())
		}
	}
	entries, err := v.List(p.Dir + "/archives")
	if err != nil && !errors.Is(err, vault.ErrNotExist) {
		return nil, nil, err
	}
	for _, e := range entries {
		if !strings.HasSuffix(e, "/") && strings.HasSuffix(strings.ToLower(e), ".md") {
			files = append(files, p.Dir+"/archives/"+e)
		}
	}
	if err := v.Ask(vault.Need{Files: files}); err != nil {
		return nil, nil, err
	}

	var ops plan.Plan
	for _, f := range files {
		c, err := v.Read(f)
		if err != nil {
			return nil, nil, err
		}
		text, sha := c.Text, c.Expect
		if c.NotUTF8 {
			res.Warnings = append(res.Warnings, env.T(f+" is not UTF-8 text: left as it is", f+" n'est pas du texte UTF-8 : laissé tel quel"))
			continue
		}
		doc, err := frontmatter.Parse(text)
		if err != nil {
			line := 1
			var fe *frontmatter.Error
			if errors.As(err, &fe) {
				line = fe.Line
			}
			res.Warnings = append(res.Warnings, env.T(
				fmt.Sprintf("%s line %d: the frontmatter is not valid YAML, so the body's start is unknown: left as it is; fix it and run again", f, line),
				fmt.Sprintf("%s ligne %d : le frontmatter n'est pas du YAML valide, le début du corps est donc inconnu : laissé tel quel ; corrigez-le et relancez", f, line)))
			continue
		}
		res.FilesScanned++
		off := doc.BodyOffset()
		body, n := root.Rewrite(text[off:])
		if n == 0 {
			continue
		}
		res.Files = append(res.Files, RewriteFile{Path: f, Count: n, Lines: changedLines(text[off:], body, strings.Count(text[:off], "\n"))})
		res.FilesChanged++
		res.PathsRewritten += n
		ops = append(ops, plan.WriteOp(f, sha, text[:off]+body))
	}

	rootMD := "`" + res.OldRoot + "`"
	switch {
	case res.PathsRewritten == 0:
		res.SummaryMD = env.T(
			fmt.Sprintf("Nothing to rewrite in **%s**: no path under %s in the bodies of %d file(s); nothing written.", p.Slug, rootMD, res.FilesScanned),
			fmt.Sprintf("Rien à réécrire dans **%s** : aucun chemin sous %s dans le corps de %d fichier(s) ; rien n'a été écrit.", p.Slug, rootMD, res.FilesScanned))
		return res, nil, nil
	case !a.Confirm:
		res.SummaryMD = env.T(
			fmt.Sprintf("Dry run on **%s**: %d path(s) under %s in %d file(s) would become `<repo>/…`; nothing written. Check the lines, then call again with confirm=true.", p.Slug, res.PathsRewritten, rootMD, res.FilesChanged),
			fmt.Sprintf("Essai à blanc sur **%s** : %d chemin(s) sous %s dans %d fichier(s) deviendraient `<repo>/…` ; rien n'a été écrit. Vérifiez les lignes, puis rappelez avec confirm=true.", p.Slug, res.PathsRewritten, rootMD, res.FilesChanged))
		return res, nil, nil
	}

	// The log line, appended to relocations.md.
	line := env.T(
		fmt.Sprintf("- %s — %s: %s → `%s`, %d file(s), %d path(s) rewritten", env.Now.Format("2006-01-02 15:04"), p.Slug, rootMD, relocate.Sigil, res.FilesChanged, res.PathsRewritten),
		fmt.Sprintf("- %s — %s : %s → `%s`, %d fichier(s), %d chemin(s) réécrit(s)", env.Now.Format("2006-01-02 15:04"), p.Slug, rootMD, relocate.Sigil, res.FilesChanged, res.PathsRewritten))
	logFile, err := v.ReadText(RelocationsLog)
	logText, logSHA := logFile.Text, logFile.Expect
	switch {
	case err == nil && !logFile.Exists:
		logText = env.T("# Path relocations\n\nOne line per confirmed run of mem_archive_rewrite_paths.\n\n",
			"# Relocalisations de chemins\n\nUne ligne par exécution confirmée de mem_archive_rewrite_paths.\n\n")
	case err != nil:
		return nil, nil, err
	}
	ops = append(ops, plan.WriteOp(RelocationsLog, logSHA, appendLogLine(logText, line)))
	log := RelocationsLog
	res.Applied, res.Log, res.LogLine = true, &log, &line
	res.SummaryMD = env.T(
		fmt.Sprintf("Rewrote %d path(s) under %s in %d file(s) of **%s** as `<repo>/…`; logged in %s.", res.PathsRewritten, rootMD, res.FilesChanged, p.Slug, RelocationsLog),
		fmt.Sprintf("%d chemin(s) sous %s réécrit(s) en `<repo>/…` dans %d fichier(s) de **%s** ; consigné dans %s.", res.PathsRewritten, rootMD, res.FilesChanged, p.Slug, RelocationsLog))
	return res, ops, nil
}

func noRepoRoot(env *Env, p vault.Project, bad string) error {
	if bad != "" {
		return fault.New(fault.NoRepoRoot, map[string]any{"slug": p.Slug, "repo_path": bad},
			fmt.Sprintf("repo_path %q in %s is not an absolute path; pass old_root, or fix repo_path", bad, p.Context()),
			fmt.Sprintf("repo_path %q dans %s n'est pas un chemin absolu ; passez old_root, ou corrigez repo_path", bad, p.Context()))
	}
	return fault.New(fault.NoRepoRoot, map[string]any{"slug": p.Slug},
		fmt.Sprintf("no root to rewrite for %s: pass old_root (the absolute path to replace), or set repo_path in %s", p.Slug, p.Context()),
		fmt.Sprintf("aucune racine à réécrire pour %s : passez old_root (le chemin absolu à remplacer), ou renseignez repo_path dans %s", p.Slug, p.Context()))
}

// changedLines pairs the lines of before and after (a rewrite never adds
// or removes a line break) and returns those that differ, numbered from
// first+1.
func changedLines(before, after string, first int) []RewriteLine {
	b, a := strings.Split(before, "\n"), strings.Split(after, "\n")
	out := []RewriteLine{}
	if len(a) != len(b) {
		return out
	}
	for i := range b {
		if b[i] != a[i] {
			out = append(out, RewriteLine{Line: first + i + 1, Before: strings.TrimSuffix(b[i], "\r"), After: strings.TrimSuffix(a[i], "\r")})
		}
	}
	return out
}

// appendLogLine adds line at the end of text, in its line ending, after a
// blank line unless the text already ends with a list item.
func appendLogLine(text, line string) string {
	nl := history.Newline(text)
	if text != "" && !strings.HasSuffix(text, "\n") && !strings.HasSuffix(text, "\r") {
		text += nl
	}
	trimmed := strings.TrimRight(text, "\r\n")
	lastLine := trimmed[strings.LastIndexAny(trimmed, "\r\n")+1:]
	if trimmed != "" && !strings.HasSuffix(text, nl+nl) && !strings.HasPrefix(strings.TrimLeft(lastLine, " "), "- ") {
		text += nl
	}
	return text + line + nl
}
