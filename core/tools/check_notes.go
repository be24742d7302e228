package tools

import (
	"errors"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

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

// noteCheck is what checking one note found: its findings, and the
// link targets it names (for the kit's orphan atoms).
type noteCheck struct {
	found   []Finding
	targets []string
	atom    *kitAtom // in a kit vault, an atom of a transverse zone
	err     error
}

// notes checks every note of the vault (checkNote) at once
// (inParallelOn), each goroutine with its own Markdown parser; the
// findings are kept in the files' order, so the answer is the same on
// every engine. It returns how many notes there are.
func (c *checker) notes() (int, error) {
	var paths []string
	var texts []vault.Content
	for _, f := range c.files {
		if !strings.HasSuffix(f, ".md") {
			continue
		}
		content, err := c.env.View.Read(f)
		if err != nil {
			return 0, err
		}
		paths, texts = append(paths, f), append(texts, content)
	}
	c.lookups()
	checks := make([]noteCheck, len(paths))
	readers := make([]markdown.LinkReader, workers(len(paths)))
	for w := range readers {
		readers[w] = markdown.NewLinkReader()
	}
	inParallelOn(len(readers), len(paths), func(w, i int) { checks[i] = c.checkNote(readers[w], paths[i], texts[i]) })
	for i, nc := range checks {
		if nc.err != nil {
			return 0, nc.err
		}
		c.found = append(c.found, nc.found...)
		c.linked(paths[i], nc.targets)
		if nc.atom != nil {
			c.atoms = append(c.atoms, *nc.atom)
		}
	}
	return len(paths), nil
}

// checkNote checks one note: its encoding, whether it is a conflict
// copy, its frontmatter and its wikilinks. It reads only what is shared
// (c's lookups made before, by c.lookups), so notes are checked at once.
func (c *checker) checkNote(links markdown.LinkReader, p string, content vault.Content) (nc noteCheck) {
	t := checkText().Msg
	say := c.env.say
	add := func(code string, line int, msg, fix string) {
		nc.found = append(nc.found, Finding{Code: code, Path: p, Line: line, Message: msg, Fix: fix})
	}
	if content.NotUTF8 {
		add(FindNotUTF8, 0, say(t.NotUTF8), say(t.NotUTF8Fix))
		return nc
	}
	if stem, _, ok := strings.Cut(p, conflictMark); ok {
		orig := stem + ".md"
		add(FindConflictCopy, 0, say(t.ConflictCopy, orig), say(t.ConflictCopyFix, orig))
		return nc
	}
	text := content.Text
	if doc, err := frontmatter.Parse(text); err == nil {
		if c.kitNoDisplay(p, doc) {
			add(FindDisplayMissing, 0, say(t.DisplayMissing), say(t.DisplayMissingFix))
		}
		nc.found = append(nc.found, c.kitArcheo(p, doc)...)
		nc.atom = c.kitAtomOf(p, doc)
	} else {
		var fe *frontmatter.Error
		if !errors.As(err, &fe) {
			nc.err = err
			return nc
		}
		code, fix := FindFrontmatter, say(t.FrontmatterFix)
		if strings.Contains(fe.Reason, "already defined") {
			code, fix = FindDuplicateKey, say(t.DuplicateFix)
		}
		add(code, fe.Line, say(t.Frontmatter, fe.Reason), fix)
	}
	if !wikilink.Has(text) {
		return nc
	}
	seen := map[string]bool{}
	for _, l := range links.WikiLinks([]byte(text)) {
		if !strings.HasPrefix(l.Raw, "!") {
			nc.targets = append(nc.targets, l.Target)
		}
		k := wikilink.Key(l.Target)
		if l.Target == "" || seen[k] || c.resolves(l.Target) {
			continue
		}
		seen[k] = true
		fix := say(t.BrokenLinkNone)
		if near := c.closest(l.Target); near != "" {
			fix = say(t.BrokenLinkFix, near)
		}
		add(FindBrokenLink, lineOf(text, strings.Index(text, l.Raw)), say(t.BrokenLink, l.Target), fix)
	}
	return nc
}

// lookups makes the tables checkNote reads, before the notes are
// checked at once: the vault's paths (for links with a folder) and its
// notes' stems (a broken link's fix).
func (c *checker) lookups() {
	c.paths = make(map[string]bool, len(c.files))
	for _, f := range c.files {
		c.paths[wikilink.Key(f)] = true
	}
	c.stems = []string{}
	for _, f := range c.files {
		if strings.HasSuffix(f, ".md") && !strings.Contains(f, conflictMark) {
			c.stems = append(c.stems, wikilink.Stem(f))
		}
	}
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
	return c.paths[wikilink.Key(target)]
}

// closest is the note a broken link most likely meant, "" for none: by
// stem, or by path for a target with a folder.
func (c *checker) closest(target string) string {
	if !strings.Contains(target, "/") {
		near := vault.Closest(wikilink.Stem(target), c.stems, 1)
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

// workers is how many goroutines check n items: as many as the process
// may run at once (runtime.GOMAXPROCS: one in the wasm module, whose
// goroutines take turns), at most 8, at least 1.
func workers(n int) int { return max(1, min(runtime.GOMAXPROCS(0), n, 8)) }

// inParallel runs f(i) for each i < n on workers(n) goroutines.
func inParallel(n int, f func(i int)) {
	inParallelOn(workers(n), n, func(_, i int) { f(i) })
}

// inParallelOn runs f(w, i) for each i < n on k goroutines, w the
// goroutine's number (for what each keeps of its own); inline when k is
// 1. f must write only what belongs to i or w.
func inParallelOn(k, n int, f func(w, i int)) {
	if k <= 1 {
		for i := range n {
			f(0, i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range k {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(w, i)
			}
		}()
	}
	wg.Wait()
}
