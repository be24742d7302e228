package tools

import (
	"path"
	"slices"
	"strings"

	"github.com/kessho/kessho/core/frontmatter"
)

// What mem_check reports besides its own findings in a vault the
// memory-kit made (kitVault), as the kit's health scan does (its
// mem_health_scan; docs/reference.md, "mem_check's findings"): a note
// without the `display` the kit's conventions want, a zone folder
// without its index.md, and an empty note at the vault's root. In such a vault each finding whose meaning the
// kit's scan shares carries the kit's name of it (Finding.Kit).

// kitZones are the folders of the kit's zones.
var kitZones = []string{"00-inbox", "10-episodes", "20-knowledge", "30-procedures", "40-principles", "50-goals", "60-people", "70-cognition", "99-meta"}

// kitNames are the kit's health scan names of the findings that mean
// the same as one of mem_check's.
var kitNames = map[string]string{
	FindBrokenLink:       "dangling-wikilinks",
	FindFrontmatter:      "malformed-frontmatter",
	FindIndexMissing:     "missing-zone-index-entry",
	FindDisplayMissing:   "missing-display",
	FindZoneIndexMissing: "missing-zone-index",
	FindOrphanAtom:       "orphan-atoms",
	FindArcheoHash:       "missing-archeo-hashes",
}

// kitEmptyRoot is the kit's name of an empty note at the vault's root:
// stray-zone-md when it is named as a zone (Obsidian makes one when a
// dangling [[20-knowledge]] link is clicked), else empty-md-at-root.
func kitEmptyRoot(p string) string {
	if slices.Contains(kitZones, strings.TrimSuffix(p, ".md")) {
		return "stray-zone-md"
	}
	return "empty-md-at-root"
}

// kitNeedsDisplay reports whether the kit's conventions want `display`
// in the note p: context.md and history.md, archives, atoms of the
// transverse zones, repo topologies, the vault's index.md and each zone's.
func kitNeedsDisplay(p string) bool {
	name := path.Base(p)
	parts := strings.Split(p, "/")
	switch {
	case name == "context.md" || name == "history.md", slices.Contains(parts, "archives"):
		return true
	case slices.Contains(kitTransverse, parts[0]):
		return true
	case strings.HasPrefix(p, "99-meta/repo-topology/"), p == "index.md":
		return true
	}
	return name == "index.md" && len(parts) == 2 && slices.Contains(kitZones, parts[0])
}

// kitNoDisplay reports whether, in a kit vault, the note p whose
// frontmatter is doc has no display where the kit's conventions want one
// (DISPLAY_MISSING).
func (c *checker) kitNoDisplay(p string, doc *frontmatter.Doc) bool {
	if !c.kit || !kitNeedsDisplay(p) {
		return false
	}
	d, _ := doc.String("display")
	return strings.TrimSpace(d) == ""
}

// kitScan adds, in a kit vault, the kit's other findings (kitDisplay
// reports a missing display as each note is checked) and the kit's names.
func (c *checker) kitScan() error {
	if !c.kit {
		return nil
	}
	t := checkText().Msg
	if err := c.kitEmptyRoots(); err != nil {
		return err
	}
	if err := c.kitOrphans(); err != nil {
		return err
	}
	for _, z := range kitZones {
		i, _ := slices.BinarySearch(c.files, z+"/")
		_, has := slices.BinarySearch(c.files, z+"/index.md")
		if i < len(c.files) && strings.HasPrefix(c.files[i], z+"/") && !has {
			c.add(FindZoneIndexMissing, z+"/index.md", 0, c.env.say(t.ZoneIndexMissing, z), c.env.say(t.ZoneIndexMissingFix, z), false)
		}
	}
	for i := range c.found {
		if c.found[i].Code == FindEmptyRoot {
			c.found[i].Kit = kitEmptyRoot(c.found[i].Path)
		} else {
			c.found[i].Kit = kitNames[c.found[i].Code]
		}
	}
	return nil
}

// kitEmptyRoots reports the empty notes (blank text) at the vault's root,
// index.md aside, as the kit's scan does.
func (c *checker) kitEmptyRoots() error {
	t := checkText().Msg
	for _, p := range c.files {
		if strings.Contains(p, "/") || !strings.HasSuffix(p, ".md") || p == "index.md" {
			continue
		}
		f, err := c.env.View.Read(p)
		if err != nil {
			return err
		}
		if !f.NotUTF8 && strings.TrimSpace(f.Text) == "" {
			c.add(FindEmptyRoot, p, 0, c.env.say(t.EmptyRoot), c.env.say(t.EmptyRootFix), false)
		}
	}
	return nil
}
