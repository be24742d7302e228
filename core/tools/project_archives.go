package tools

import (
	"errors"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/frontmatter"
	"github.com/kessho/kessho/core/history"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/vault"
)

// What the tools that read a project's archives share (mem_read_archive,
// mem_read_history, mem_recall, mem_rollback_archive): reading them in
// their order (history.Archives), naming one, and reading a note's
// frontmatter without refusing a broken one.

// readsArchives returns the codes of a tool that reads a project's
// archives (withArchives) besides own and catalog.Shared: those of
// resolving the slug and reading history.md.
func readsArchives(own ...fault.Code) []fault.Code {
	return append(own, fault.SlugConflict, fault.FileNotUTF8)
}

// archives is a project's archives as projectArchives read them.
type archives struct {
	p       vault.Project
	refs    []history.Archive
	hist    vault.Content // history.md
	listing []string      // archives/
}

// projectArchives is a project's archives, newest first
// (history.Archives): mem_read_archive's index and `latest` and
// mem_recall's last archives follow this order; its first part is
// mem_read_history's. It also returns history.md as read and the listing
// of archives/ (nil when the folder is missing).
func projectArchives(env *Env, slug string) (*archives, error) {
	p, err := vault.Resolve(env.View, slug)
	if err != nil {
		return nil, err
	}
	archDir := p.Dir + "/archives"
	if err := env.View.Ask(vault.Need{Files: []string{p.History()}, Dirs: []string{archDir}}); err != nil {
		return nil, err
	}
	hist, err := env.View.ReadText(p.History())
	if err != nil {
		return nil, err
	}
	listing, err := env.View.List(archDir)
	if err != nil && !errors.Is(err, vault.ErrNotExist) {
		return nil, err
	}
	return &archives{p: p, refs: history.Archives(p, hist.Text, listing), hist: hist, listing: listing}, nil
}

// withArchives makes a read-only tool of run, which reads a project's
// archives: it decodes the arguments (A, embedding slugArg), resolves the
// project and reads its archives (projectArchives) before run.
func withArchives[A any, P slugged[A]](run func(env *Env, ar *archives, a *A) (any, error)) runFunc {
	return typed(func(env *Env, a A) (any, plan.Plan, error) {
		ar, err := projectArchives(env, P(&a).slug())
		if err != nil {
			return nil, nil, err
		}
		res, err := run(env, ar, &a)
		return res, nil, err
	})
}

// archiveName reads an `archive` argument as a file name of p's
// archives/ (history.ArchiveName), refusing a path outside them.
func archiveName(p vault.Project, s string) (string, error) {
	name, ok := history.ArchiveName(p, s)
	if !ok {
		return "", argument("archive", toolsText().Msg.Outside, p.Slug, s)
	}
	return name, nil
}

// noteDoc parses the note at p; when its frontmatter is not valid YAML, it
// returns nil and adds a warning to warnings saying where the YAML breaks.
func noteDoc(env *Env, p, text string, warnings *[]string) *frontmatter.Doc {
	doc, err := env.docs().Parse(text)
	if err != nil {
		var fe *frontmatter.Error
		if errors.As(err, &fe) {
			*warnings = append(*warnings, env.say(toolsText().Msg.BadFrontmatter, p, fe.Line, fe.Reason))
		}
		return nil
	}
	return doc
}

// fmMap returns doc's frontmatter as an object ({} when it has no key).
func fmMap(doc *frontmatter.Doc) map[string]any {
	fm := map[string]any{}
	for _, k := range doc.Keys() {
		fm[k], _ = doc.Lookup(k)
	}
	return fm
}
