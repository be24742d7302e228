package tools

import (
	"errors"
	"slices"
	"strings"

	"github.com/kessho/kessho/core/atom"
	"github.com/kessho/kessho/core/frontmatter"
	"github.com/kessho/kessho/core/markdown"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/core/wikilink"
)

// conflictMark is in the name of the copy a host leaves when it could not
// finish an interrupted change (core/hostlogic CopyName:
// `<stem>.kessho-conflict-<UTC stamp>[-n].md`).
const conflictMark = ".kessho-conflict-"

// note checks one note: its encoding, whether it is a conflict copy, its
// frontmatter and its wikilinks.
func (c *checker) note(p string) error {
	t := checkText().Msg
	say := c.env.say
	content, err := c.env.View.Read(p)
	if err != nil {
		return err
	}
	if content.NotUTF8 {
		c.add(FindNotUTF8, p, 0, say(t.NotUTF8), say(t.NotUTF8Fix), false)
		return nil
	}
	if stem, _, ok := strings.Cut(p, conflictMark); ok {
		orig := stem + ".md"
		c.add(FindConflictCopy, p, 0, say(t.ConflictCopy, orig), say(t.ConflictCopyFix, orig), false)
		return nil
	}
	text := content.Text
	if doc, err := c.env.docs().Parse(text); err == nil {
		c.kitDisplay(p, doc)
	} else {
		var fe *frontmatter.Error
		if !errors.As(err, &fe) {
			return err
		}
		code, fix := FindFrontmatter, say(t.FrontmatterFix)
		if strings.Contains(fe.Reason, "already defined") {
			code, fix = FindDuplicateKey, say(t.DuplicateFix)
		}
		c.add(code, p, fe.Line, say(t.Frontmatter, fe.Reason), fix, false)
	}
	if !wikilink.Has(text) {
		return nil
	}
	seen := map[string]bool{}
	for _, l := range markdown.WikiLinks([]byte(text)) {
		k := wikilink.Key(l.Target)
		if l.Target == "" || seen[k] || c.resolves(l.Target) {
			continue
		}
		seen[k] = true
		fix := say(t.BrokenLinkNone)
		if near := c.closest(l.Target); near != "" {
			fix = say(t.BrokenLinkFix, near)
		}
		c.add(FindBrokenLink, p, lineOf(text, strings.Index(text, l.Raw)), say(t.BrokenLink, l.Target), fix, false)
	}
	return nil
}

// resolves reports whether a link target names a file: by its stem, or,
// for a target with a folder, by its vault path (any case, ".md"
// optional). wikilink.Names keeps one path a stem, the one its stem
// resolves to: a path link to another context.md needs the whole set.
func (c *checker) resolves(target string) bool {
	if _, ok := c.names.Note(target); ok {
		return true
	}
	if !strings.Contains(target, "/") {
		return false
	}
	if c.paths == nil {
		c.paths = make(map[string]bool, len(c.files))
		for _, f := range c.files {
			c.paths[wikilink.Key(f)] = true
		}
	}
	return c.paths[wikilink.Key(target)]
}

// closest is the note a broken link most likely meant, "" for none: by
// stem, or by path for a target with a folder.
func (c *checker) closest(target string) string {
	if !strings.Contains(target, "/") {
		near := vault.Closest(wikilink.Stem(target), c.noteStems(), 1)
		if len(near) == 0 {
			return ""
		}
		return near[0]
	}
	// Each note's path cut to as many folders as the target has, so that
	// "kessho-docs/contxt" meets ".../kessho-docs/context"; the fix names
	// the whole path.
	segs := strings.Count(target, "/") + 1
	full := map[string]string{}
	var tails []string
	for _, f := range c.files {
		p, ok := strings.CutSuffix(f, ".md")
		if !ok || strings.Contains(f, conflictMark) {
			continue
		}
		parts := strings.Split(p, "/")
		tail := strings.Join(parts[max(0, len(parts)-segs):], "/")
		if _, taken := full[tail]; !taken {
			full[tail] = p
			tails = append(tails, tail)
		}
	}
	if near := vault.Closest(strings.TrimSuffix(target, ".md"), tails, 1); len(near) > 0 {
		return full[near[0]]
	}
	return ""
}

// noteStems is the stems of the vault's notes, the names a broken link's
// fix may suggest, made on the first broken link.
func (c *checker) noteStems() []string {
	if c.stems == nil {
		c.stems = []string{}
		for _, f := range c.files {
			if strings.HasSuffix(f, ".md") && !strings.Contains(f, conflictMark) {
				c.stems = append(c.stems, wikilink.Stem(f))
			}
		}
	}
	return c.stems
}

// lineOf is the 1-based line of byte offset at in text (0 when at < 0).
func lineOf(text string, at int) int {
	if at < 0 {
		return 0
	}
	return strings.Count(text[:at], "\n") + 1
}

// kitIndexes reports, in each atom zone that has an index.md (a vault the
// memory-kit made: it keeps one in every zone and its health scan reports
// the atoms missing from it), every atom of the zone its index.md does not
// link.
func (c *checker) kitIndexes() error {
	t := checkText().Msg
	var zones []string
	for _, z := range atom.Zones {
		zones = append(zones, z.Dir)
	}
	slices.Sort(zones)
	for _, dir := range zones {
		index := dir + "/index.md"
		if _, ok := slices.BinarySearch(c.files, index); !ok {
			continue
		}
		f, err := c.env.View.Read(index)
		if err != nil || f.NotUTF8 {
			return err
		}
		listed := map[string]bool{}
		for _, l := range markdown.WikiLinks([]byte(f.Text)) {
			listed[strings.ToLower(wikilink.Stem(l.Target))] = true
		}
		i, _ := slices.BinarySearch(c.files, dir+"/")
		for ; i < len(c.files) && strings.HasPrefix(c.files[i], dir+"/"); i++ {
			p := c.files[i]
			stem := wikilink.Stem(p)
			if p == index || !strings.HasSuffix(p, ".md") || strings.Contains(p, conflictMark) || listed[strings.ToLower(stem)] {
				continue
			}
			c.add(FindIndexMissing, p, 0, c.env.say(t.IndexMissing, index), c.env.say(t.IndexMissingFix, stem, index), false)
		}
	}
	return nil
}
