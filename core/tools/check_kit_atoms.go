package tools

import (
	"errors"
	"slices"
	"strings"

	"github.com/kessho/kessho/core/frontmatter"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/core/wikilink"
)

// The memory-kit's health scan's orphan-atoms and missing-archeo-hashes,
// in a kit vault (kitVault), with the kit's rules (its health/scan.py):
//
//   - ATOM_ORPHAN: a note of a transverse zone (20-knowledge,
//     40-principles, 50-goals, 60-people) whose `project` (or, without
//     one, `domain`) names a folder of 10-episodes/projects (domains) that
//     is not there; or, with neither, that no other note links to (by its
//     stem; embeds do not count) and that has no `project/…` or
//     `domain/…` tag. The kit compares stems in their case; Kessho, as
//     Obsidian resolves links, in any case. A zone's index.md is its hub,
//     not an atom: the kit's scan takes it for one and reports it when
//     the vault's index.md does not link it; Kessho does not.
//   - ARCHEO_HASH_MISSING: a note whose `source` starts with "archeo-"
//     and has no `content_hash`; and a repo topology of
//     99-meta/repo-topology/ with such a source and no
//     `previous_topology_hash` key.
//
// The kit's ninth category, mcp-tool-spec-drift, audits the kit's own
// source tree, not a vault: Kessho has no such tree to audit.

// kitTransverse are the kit's transverse zones: their atoms must be
// attached, and have a display.
var kitTransverse = []string{"20-knowledge", "40-principles", "50-goals", "60-people"}

// kitAtom is an atom of a transverse zone and what attaches it.
type kitAtom struct {
	path, project, domain string
	tagged                bool // a project/… or domain/… tag
}

// kitAtomOf is the note p as a kit atom (nil when it is none: not a kit
// vault, or not in a transverse zone).
func (c *checker) kitAtomOf(p string, doc *frontmatter.Doc) *kitAtom {
	zone, _, _ := strings.Cut(p, "/")
	if !c.kit || !slices.Contains(kitTransverse, zone) || p == zone+"/index.md" {
		return nil
	}
	a := &kitAtom{path: p, project: truthy(doc, "project"), domain: truthy(doc, "domain")}
	tags, _ := doc.Strings("tags")
	for _, t := range tags {
		if strings.HasPrefix(t, "project/") || strings.HasPrefix(t, "domain/") {
			a.tagged = true
		}
	}
	return a
}

// truthy is key's text when Python would read its value as true (not
// absent, null, empty or false), else "".
func truthy(doc *frontmatter.Doc, key string) string {
	v, ok := doc.String(key)
	v = strings.TrimSpace(v)
	if !ok || v == "false" || v == "False" || v == "0" {
		return ""
	}
	return v
}

// kitArcheo is, in a kit vault, the note p's missing archeo hashes.
func (c *checker) kitArcheo(p string, doc *frontmatter.Doc) []Finding {
	src, _ := doc.String("source")
	if !c.kit || !strings.HasPrefix(src, "archeo-") {
		return nil
	}
	t := checkText().Msg
	var out []Finding
	if truthy(doc, "content_hash") == "" {
		out = append(out, Finding{Code: FindArcheoHash, Path: p, Message: c.env.say(t.ArcheoHash, "content_hash", src), Fix: c.env.say(t.ArcheoFix)})
	}
	if _, has := doc.Lookup("previous_topology_hash"); strings.HasPrefix(p, "99-meta/repo-topology/") && !has {
		out = append(out, Finding{Code: FindArcheoHash, Path: p, Message: c.env.say(t.ArcheoTopology, "previous_topology_hash"), Fix: c.env.say(t.ArcheoFix)})
	}
	return out
}

// linked records, in a kit vault, the notes' links (kitOrphans): from is
// the note, targets the links it makes.
func (c *checker) linked(from string, targets []string) {
	if !c.kit {
		return
	}
	if c.incoming == nil {
		c.incoming = map[string][]string{}
	}
	for _, t := range targets {
		k := strings.ToLower(wikilink.Stem(t))
		c.incoming[k] = append(c.incoming[k], from)
	}
}

// kitOrphans reports the kit's orphan atoms (ATOM_ORPHAN).
func (c *checker) kitOrphans() error {
	t := checkText().Msg
	projects, err := c.folders("10-episodes/projects")
	if err != nil {
		return err
	}
	domains, err := c.folders("10-episodes/domains")
	if err != nil {
		return err
	}
	for _, a := range c.atoms {
		switch {
		case a.project != "":
			if !slices.Contains(projects, a.project) {
				c.add(FindOrphanAtom, a.path, 0, c.env.say(t.OrphanGone, a.project), c.env.say(t.OrphanFix), false)
			}
		case a.domain != "":
			if !slices.Contains(domains, a.domain) {
				c.add(FindOrphanAtom, a.path, 0, c.env.say(t.OrphanGone, a.domain), c.env.say(t.OrphanFix), false)
			}
		case !a.tagged && !c.linkedFromOther(a.path):
			c.add(FindOrphanAtom, a.path, 0, c.env.say(t.OrphanUnlinked), c.env.say(t.OrphanFix), false)
		}
	}
	return nil
}

// linkedFromOther reports whether a note other than p links to p's stem.
func (c *checker) linkedFromOther(p string) bool {
	for _, from := range c.incoming[strings.ToLower(wikilink.Stem(p))] {
		if from != p {
			return true
		}
	}
	return false
}

// folders is the names of dir's sub-folders, none when it is absent.
func (c *checker) folders(dir string) ([]string, error) {
	entries, err := c.env.View.List(dir)
	if errors.Is(err, vault.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e, "/"); ok {
			out = append(out, name)
		}
	}
	return out, nil
}
