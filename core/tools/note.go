package tools

import (
	"fmt"
	"strings"

	"github.com/kessho/kessho/core/atom"
	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/core/wikilink"
)

// noteSpec is mem_note in the catalogue.
var noteSpec = tool[noteResult](catalogText("note.yaml"), "mem_note", "note kind fact", writes|idempotent, []fault.Code{fault.AtomExists, fault.SlugConflict}, []catalog.Param{
	{Name: "kind", Type: catalog.String, Required: true, Enum: []string{"knowledge", "principle", "goal", "person", "inbox"}},
	{Name: "fact", Type: catalog.String, Required: true, MinLength: intp(1), MaxLength: intp(300), OneLine: true},
	{Name: "body", Type: catalog.String, Required: true},
	{Name: "aliases", Type: catalog.Array, Items: &catalog.Param{Type: catalog.String, OneLine: true}},
	{Name: "links", Type: catalog.Array, Items: &catalog.Param{Type: catalog.String, OneLine: true}},
	{Name: "slug", Type: catalog.String},
})

// noteArgs is mem_note's arguments.
type noteArgs struct {
	Kind    string   `json:"kind"`
	Fact    string   `json:"fact"`
	Body    string   `json:"body"`
	Aliases []string `json:"aliases"`
	Links   []string `json:"links"`
	Slug    string   `json:"slug"`
}

// noteResult is mem_note's result.
type noteResult struct {
	Path   string  `json:"path"`
	Name   string  `json:"name"`
	Kind   string  `json:"kind"`
	Source *string `json:"source"`
	Common
}

// noteText is note.yaml: mem_note's catalogue texts and messages.
var noteText = loadText[struct {
	FactName, FactBody, Link, AtomExists, Written fault.Msg
}]("note.yaml")

// noteTool writes one atom now, outside an archive: named, zoned and rendered
// as derive's (renderAtom), linked back to the project slug names (its
// context.md) when given, its zone's index.md entry added when the zone
// has one. A name any note of the vault has is ATOM_EXISTS.
func noteTool(env *Env, a noteArgs) (any, plan.Plan, error) {
	name, err := checkNoteArgs(a)
	if err != nil {
		return nil, nil, err
	}
	origin := ""
	if a.Slug != "" {
		p, err := vault.Resolve(env.View, a.Slug)
		if err != nil {
			return nil, nil, err
		}
		origin = "[[" + strings.TrimSuffix(p.Context(), ".md") + "|" + p.Slug + "]]"
	}
	if err := env.View.Ask(vault.Need{Files: []string{zoneIndex(a.Kind)}, Trees: []vault.Tree{{Root: "."}}}); err != nil {
		return nil, nil, err
	}
	files, err := env.View.Walk(".")
	if err != nil {
		return nil, nil, err
	}
	if p, ok := wikilink.NamesOf(files).Taken(name); ok {
		return nil, nil, noteText().Msg.AtomExists.Err(fault.AtomExists, map[string]any{"atom": name, "taken_by": p}, name, p)
	}
	at, err := renderAtom(env, atomSpec{Kind: a.Kind, Name: name, Body: a.Body, Aliases: a.Aliases, Links: a.Links}, env.Now.Format("2006-01-02"), origin)
	if err != nil {
		return nil, nil, err
	}
	p := plan.Plan{plan.WriteOp(at.path, plan.Absent, at.text)}
	indexOps, err := zoneIndexOps(env, []newAtom{at})
	if err != nil {
		return nil, nil, err
	}
	res := noteResult{Path: at.path, Name: name, Kind: a.Kind, Source: optional(origin), Common: common()}
	res.SummaryMD = env.say(noteText().Msg.Written, name, at.path)
	return res, append(p, indexOps...), nil
}

// checkNoteArgs refuses a fact that leaves no file name, a blank body or
// a link that is no wikilink; it returns the atom's name.
func checkNoteArgs(a noteArgs) (string, error) {
	name := atom.FileName(a.Fact)
	if name == "" {
		return "", argument("fact", noteText().Msg.FactName)
	}
	if strings.TrimSpace(a.Body) == "" {
		return "", argument("body", noteText().Msg.FactBody)
	}
	for i, l := range a.Links {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "[[") || !strings.HasSuffix(l, "]]") || atom.Name(l) == "" {
			return "", argument(fmt.Sprintf("links[%d]", i), noteText().Msg.Link, l)
		}
	}
	return name, nil
}
