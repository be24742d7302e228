package tools

import (
	"slices"
	"strings"

	"github.com/kessho/kessho/core/atom"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/fold"
	"github.com/kessho/kessho/core/note"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/relocate"
	"github.com/kessho/kessho/core/vault"
)

// What the tools that write atoms share (mem_archive's derive, mem_note):
// how an atom is rendered, where it goes, and its zone's index entry.

// newAtom is an atom a call creates: its path, name, kind and text.
type newAtom struct{ path, name, kind, text string }

// atomSpec is one atom to write: its kind (a key of atom.NoteZones), its
// final name (atom.FileName of its fact), body, aliases and the links its
// note lists under `links` (wikilinks, as given).
type atomSpec struct {
	Kind, Name, Body string
	Aliases, Links   []string
}

// renderAtom renders s as a note of its kind's zone, dated date, whose
// link back (`source`, or the kit's `context_origin`: atomKeys) is origin.
// Aliases and links are written only when given, each trimmed, blanks
// dropped.
func renderAtom(env *Env, s atomSpec, date, origin string) (newAtom, error) {
	z := atom.NoteZones[s.Kind]
	created, back, err := atomKeys(env, s.Kind)
	if err != nil {
		return newAtom{}, err
	}
	f := note.Fields{
		{Key: "kind", Node: note.Str(s.Kind)}, {Key: "zone", Node: note.Str(z.Zone)}, {Key: created, Node: note.Stamp(date)},
		{Key: back, Node: note.Str(origin)},
		{Key: "slug", Node: note.Str(fold.Slug(s.Name, 120, "atom"))}, {Key: "title", Node: note.Str(s.Name)}, {Key: "display", Node: note.Str(s.Name)},
		{Key: "tags", Node: note.List([]string{"zone/" + z.Zone, "kind/" + s.Kind})},
	}
	if al := trimmed(s.Aliases); len(al) > 0 {
		f = append(f, note.Field{Key: "aliases", Node: note.List(al)})
	}
	if ls := trimmed(s.Links); len(ls) > 0 {
		f = append(f, note.Field{Key: "links", Node: note.List(ls)})
	}
	text, err := f.Render(s.Body)
	if err != nil {
		return newAtom{}, fault.Internalf("writing atom %s: %v", s.Name, err)
	}
	return newAtom{z.Dir + "/" + s.Name + ".md", s.Name, s.Kind, text}, nil
}

// trimmed is list with each item trimmed and the blank ones dropped, in
// order, without repeats.
func trimmed(list []string) []string {
	var out []string
	for _, s := range list {
		if s = strings.TrimSpace(s); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// atomKeys are the names of a new atom's day and link back to its
// session: the memory-kit's `created_at` and `context_origin` when the
// atom's zone has an index.md (the kit makes one in every zone, Kessho
// never does; its health scan reads those keys, and its `source` means
// the fact's provenance, not a link), else SPEC's `created` and `source`,
// so the atoms of a vault Kessho started keep one form. The index is
// read in the caller's round: no read is added.
func atomKeys(env *Env, kind string) (created, origin string, err error) {
	f, err := env.View.ReadText(zoneIndex(kind))
	if err != nil || !f.Exists {
		return "created", "source", err
	}
	return "created_at", "context_origin", nil
}

// zoneIndex is the index note of the zone of atoms of kind.
func zoneIndex(kind string) string { return atom.NoteZones[kind].Dir + "/index.md" }

// zoneIndexOps adds each new atom's entry `- [[name]]` to its zone's
// index.md, when the zone has one (the memory-kit's health scan reports
// atoms missing from it), at the end of the file (after one blank line
// unless the file ends with a list item, as relocate.AppendLogLine does),
// in the file's line ending; an
// index that links the name already is left alone, and a zone without
// index.md gets none.
func zoneIndexOps(env *Env, atoms []newAtom) (plan.Plan, error) {
	type index struct {
		read vault.Content // as read
		text string        // with the entries added
	}
	var indexes []*index
	byPath := map[string]*index{} // nil: the zone has no index.md
	for _, at := range atoms {
		path := zoneIndex(at.kind)
		ix, seen := byPath[path]
		if !seen {
			f, err := env.View.ReadText(path)
			if err != nil {
				return nil, err
			}
			if f.Exists {
				ix = &index{read: f, text: f.Text}
				indexes = append(indexes, ix)
			}
			byPath[path] = ix
		}
		if ix != nil && !strings.Contains(strings.ToLower(ix.text), "[["+strings.ToLower(at.name)+"]]") {
			ix.text = relocate.AppendLogLine(ix.text, "- [["+at.name+"]]")
		}
	}
	var p plan.Plan
	for _, ix := range indexes {
		if ix.text != ix.read.Text {
			p = append(p, plan.WriteOp(ix.read.Path, ix.read.Expect, ix.text))
		}
	}
	return p, nil
}
