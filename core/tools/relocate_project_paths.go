package tools

import (
	"errors"
	"strings"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/relocate"
	"github.com/kessho/kessho/core/vault"
)

// What rewriting a folder's absolute paths as `<repo>/…` sigils shares
// between mem_archive_rewrite_paths and mem_relocate_project's rewrite:
// which files, and what the rewrite changes in each.

// rewriteFile is what the rewrite changes in one file.
type rewriteFile struct {
	Path  string          `json:"path"`
	Count int             `json:"count"`
	Lines []relocate.Line `json:"lines"`
}

// pathsRewritten is what a rewrite did, in its answer: how many files it
// read and changed, how many paths, and the lines of each file.
type pathsRewritten struct {
	FilesScanned   int           `json:"files_scanned"`
	FilesChanged   int           `json:"files_changed"`
	PathsRewritten int           `json:"paths_rewritten"`
	Files          []rewriteFile `json:"files"`
}

// rewriteFiles lists, and asks for in one round, the files to rewrite:
// context.md and history.md when include is set and they exist, then the
// `.md` files directly in archives/, by name.
func rewriteFiles(env *Env, p vault.Project, ctx vault.Content, include bool) ([]string, error) {
	var files []string
	if include {
		if ctx.Exists {
			files = append(files, p.Context())
		}
		if hist, err := env.View.Read(p.History()); err != nil || hist.Exists {
			files = append(files, p.History())
		}
	}
	entries, err := env.View.List(p.Dir + "/archives")
	if err != nil && !errors.Is(err, vault.ErrNotExist) {
		return nil, err
	}
	for _, e := range entries {
		if !strings.HasSuffix(e, "/") && strings.HasSuffix(strings.ToLower(e), ".md") {
			files = append(files, p.Dir+"/archives/"+e)
		}
	}
	return files, env.View.Ask(vault.Need{Files: files})
}

// rewriteEach rewrites the bodies of files under root, counting in res,
// and returns a write for each file that changes. A file that is not
// UTF-8 (notUTF8, with its path), or whose frontmatter does not parse
// (badFM, with its path and line), is left with a warning.
func rewriteEach(env *Env, root relocate.Root, files []string, res *pathsRewritten, warnings *[]string, notUTF8, badFM fault.Msg) (plan.Plan, error) {
	var ops plan.Plan
	for _, f := range files {
		c, err := env.View.Read(f)
		if err != nil {
			return nil, err
		}
		if c.NotUTF8 {
			*warnings = append(*warnings, env.say(notUTF8, f))
			continue
		}
		text, n, lines, bad := root.Note(env.docs(), c.Text)
		if bad > 0 {
			*warnings = append(*warnings, env.say(badFM, f, bad))
			continue
		}
		res.FilesScanned++
		if n == 0 {
			continue
		}
		res.Files = append(res.Files, rewriteFile{Path: f, Count: n, Lines: lines})
		res.FilesChanged++
		res.PathsRewritten += n
		ops = append(ops, plan.WriteOp(f, c.Expect, text))
	}
	return ops, nil
}
