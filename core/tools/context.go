package tools

import (
	"errors"
	"fmt"
	"strings"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/frontmatter"
	"github.com/kessho/kessho/core/i18n"
	"github.com/kessho/kessho/core/note"
	"github.com/kessho/kessho/core/vault"
)

// What the tools on one project share: its slug parameter, reading its
// context.md for an edit, what a call changed of it, and a new one.

// slugParam is the slug parameter of every tool that works on one
// project or domain.
var slugParam = catalog.Param{
	Name: "slug", Type: catalog.String, Required: true,
}

// readsContext returns the codes of a tool that reads a project's
// context.md (readContext) besides own: NO_CONTEXT, SLUG_CONFLICT,
// FILE_NOT_UTF8.
func readsContext(own ...fault.Code) []fault.Code {
	return append(own, fault.NoContext, fault.SlugConflict, fault.FileNotUTF8)
}

// contextFile is a project's context.md as read for an edit.
type contextFile struct {
	project vault.Project
	path    string
	text    string
	sha     string
	doc     *frontmatter.Doc
}

// toolsText is the messages of tools.yaml (what several tools say):
// those of reading a project's context.md (readContext), of naming an
// archive (archiveName), of a frontmatter that is not YAML (noteDoc) and
// of a summary too long (checkSummaryLength), and what mem_search and
// mem_recall say of the search index (indexWarnings).
var toolsText = loadText[struct {
	NoContext, Archived, Frontmatter, Outside, BadFrontmatter, TooLong fault.Msg
	Unkept, CutOne, CutMany, More                                      fault.Msg
}]("tools.yaml")

// sharedParams is the catalogue texts of tools.yaml: the description of
// the parameters several tools share (slug).
var sharedParams = i18n.Load[struct{ Params map[string]catalog.Text }](textFiles, "tools.yaml", 1)

// readContext resolves slug and reads its context.md: UNKNOWN_SLUG,
// INVALID_SLUG, SLUG_CONFLICT, NO_CONTEXT, FILE_NOT_UTF8,
// FRONTMATTER_INVALID.
func readContext(env *Env, slug string) (*contextFile, error) {
	p, err := vault.Resolve(env.View, slug)
	if err != nil {
		return nil, err
	}
	path := p.Context()
	c, err := env.View.Read(path)
	if err != nil {
		return nil, err
	}
	if !c.Exists {
		return nil, toolsText().Msg.NoContext.Err(fault.NoContext, map[string]any{"slug": slug, "path": path}, slug, path)
	}
	text, err := c.Textual()
	if err != nil {
		return nil, err
	}
	doc, err := env.docs().Parse(text)
	if err != nil {
		return nil, frontmatterError(path, err)
	}
	return &contextFile{project: p, path: path, text: text, sha: c.Expect, doc: doc}, nil
}

// frontmatterError turns a frontmatter refusal into FRONTMATTER_INVALID
// naming the file and the line.
func frontmatterError(path string, err error) error {
	var fe *frontmatter.Error
	if !errors.As(err, &fe) {
		return fault.Internalf("editing %s: %v", path, err)
	}
	return toolsText().Msg.Frontmatter.Err(fault.FrontmatterInvalid, map[string]any{"path": path, "line": fe.Line, "reason": fe.Reason},
		path, fe.Line, fe.Reason)
}

// refuseArchived is PROJECT_ARCHIVED for a project in 10-episodes/archived.
func refuseArchived(p vault.Project) error {
	if p.Kind != vault.KindArchived {
		return nil
	}
	return toolsText().Msg.Archived.Err(fault.ProjectArchived, map[string]any{"slug": p.Slug, "path": p.Dir}, p.Slug, p.Dir)
}

// change is a frontmatter value before and after a call (nil: absent).
type change struct {
	From *string `json:"from"`
	To   *string `json:"to"`
}

// contextChanges says what a call did to context.md.
type contextChanges struct {
	Path         string  `json:"path"`
	BodyReplaced bool    `json:"body_replaced"`
	Phase        *change `json:"phase,omitempty"`
	LastSession  change  `json:"last_session"`
}

// contextNote is what a new context.md says of its project
// (newContextNote): mem_init_project's arguments, or, for a project
// folder mem_archive finds without one, its slug and kind alone.
type contextNote struct {
	Slug, Kind, Scope, Summary string
	Display, RepoPath          *string
}

// newContextNote renders the new context.md (mem_init_project's; see
// initProject for its keys).
func newContextNote(env *Env, a contextNote) (string, error) {
	f := note.Fields{{Key: a.Kind, Node: note.Str(a.Slug)}, {Key: "slug", Node: note.Str(a.Slug)}, {Key: "kind", Node: note.Str(a.Kind)},
		{Key: "zone", Node: note.Str("episodes")}, {Key: "tags", Node: note.List([]string{a.Kind + "/" + a.Slug, "zone/episodes"})}}
	if a.Scope != "" {
		f = append(f, note.Field{Key: "scope", Node: note.Str(a.Scope)})
	}
	display := a.Slug + " — context"
	if a.Display != nil {
		display = strings.TrimSpace(*a.Display)
	}
	f = append(f, note.Field{Key: "display", Node: note.Str(display)}, note.Field{Key: "created", Node: note.Stamp(env.Now.Format("2006-01-02"))})
	if a.Summary != "" {
		f = append(f, note.Field{Key: "summary", Node: note.Str(a.Summary)})
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

// contextFields reads the frontmatter of p's context.md for a listing of
// folders (mem_list, the vault-wide briefing): doc, or the problem to
// show in its entry instead (noContext when the file is absent, the
// parse error when it is not a frontmatter); err only for a need.
func contextFields(env *Env, p vault.Project, noContext fault.Msg) (doc *frontmatter.Doc, problem *string, err error) {
	c, err := env.View.ReadText(p.Context())
	switch {
	case errors.Is(err, vault.ErrNeed):
		return nil, nil, err
	case err == nil && !c.Exists:
		msg := env.say(noContext)
		return nil, &msg, nil
	case err == nil:
		doc, err = env.docs().Parse(c.Text)
	}
	if err != nil {
		msg := err.Error()
		return nil, &msg, nil
	}
	return doc, nil, nil
}
