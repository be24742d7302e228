package tools

import (
	"errors"

	"kessho/core/catalog"
	"kessho/core/fault"
	"kessho/core/frontmatter"
	"kessho/core/vault"
)

// What the tools on one project share: its slug parameter, and reading
// its context.md for an edit.

// slugParam is the slug parameter of every tool that works on one
// project or domain.
var slugParam = catalog.Param{
	Name: "slug", Type: catalog.String, Required: true,
	Description: catalog.Text{
		En: "The project or domain: its folder name under 10-episodes/projects, domains or archived (letters, digits, '.', '_', '-').",
		Fr: "Le projet ou domaine : son nom de dossier sous 10-episodes/projects, domains ou archived (lettres, chiffres, « . », « _ », « - »).",
	},
}

// contextFile is a project's context.md as read for an edit.
type contextFile struct {
	project vault.Project
	path    string
	text    string
	sha     string
	doc     *frontmatter.Doc
}

// contextMsg holds the messages of reading a project's context.md.
var contextMsg = struct{ noContext, archived, frontmatter fault.Msg }{
	noContext: fault.Msg{
		En: "%s has no context.md (%s); create it, or use mem_init_project for a new project",
		Fr: "%s n'a pas de context.md (%s) ; créez-le, ou utilisez mem_init_project pour un nouveau projet"},
	archived: fault.Msg{
		En: "project %s is archived (%s); revive it first with mem_historize revive=true",
		Fr: "le projet %s est archivé (%s) ; ravivez-le d'abord avec mem_historize revive=true"},
	frontmatter: fault.Msg{
		En: "%s line %d: the frontmatter is not a valid YAML mapping (%s); fix it by hand, nothing was written",
		Fr: "%s ligne %d : le frontmatter n'est pas un mapping YAML valide (%s) ; corrigez-le à la main, rien n'a été écrit"},
}

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
		return nil, contextMsg.noContext.Err(fault.NoContext, map[string]any{"slug": slug, "path": path}, slug, path)
	}
	text, err := c.Textual()
	if err != nil {
		return nil, err
	}
	doc, err := frontmatter.Parse(text)
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
	return contextMsg.frontmatter.Err(fault.FrontmatterInvalid, map[string]any{"path": path, "line": fe.Line, "reason": fe.Reason},
		path, fe.Line, fe.Reason)
}

// refuseArchived is PROJECT_ARCHIVED for a project in 10-episodes/archived.
func refuseArchived(p vault.Project) error {
	if p.Kind != vault.KindArchived {
		return nil
	}
	return contextMsg.archived.Err(fault.ProjectArchived, map[string]any{"slug": p.Slug, "path": p.Dir}, p.Slug, p.Dir)
}
