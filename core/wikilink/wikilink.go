// Package wikilink resolves `[[name]]` links the way Obsidian does: a link
// names a note by its file name (without folder, without ".md", any case)
// or by its vault path.
package wikilink

import (
	"path"
	"strings"

	"github.com/kessho/kessho/core/markdown"
)

// Names is every note of the vault as a wikilink can name it.
type Names struct {
	stems map[string]string // lowercased stem → path
	paths map[string]string // lowercased path without ".md" → path
}

// Stem is a file's name as a wikilink names it: without folder, and
// without ".md" for notes.
func Stem(p string) string { return strings.TrimSuffix(path.Base(p), ".md") }

// NamesOf indexes files (vault paths).
func NamesOf(files []string) Names {
	n := Names{stems: make(map[string]string, len(files)), paths: make(map[string]string, len(files))}
	for _, f := range files {
		n.stems[strings.ToLower(Stem(f))] = f
	}
	for _, p := range n.stems {
		n.paths[strings.ToLower(strings.TrimSuffix(p, ".md"))] = p
	}
	return n
}

// Taken returns the path of the note whose stem is name (any case).
func (n Names) Taken(name string) (string, bool) {
	p, ok := n.stems[strings.ToLower(name)]
	return p, ok
}

// resolves reports whether a link target names a note: by its stem when
// it holds no "/", or by its path.
func (n Names) resolves(target string) bool {
	if _, ok := n.stems[strings.ToLower(Stem(target))]; ok && !strings.Contains(target, "/") {
		return true
	}
	_, ok := n.paths[Key(target)]
	return ok
}

// Note returns the path of the note a link target names, as resolves
// reads it: by its stem when it holds no "/", or by its path.
func (n Names) Note(target string) (string, bool) {
	if !strings.Contains(target, "/") {
		return n.Taken(Stem(target))
	}
	p, ok := n.paths[Key(target)]
	return p, ok
}

// Key is a link target as links compare: lowercased, without ".md".
func Key(target string) string { return strings.ToLower(strings.TrimSuffix(target, ".md")) }

// Has reports whether s may hold a wikilink.
func Has(s string) bool { return strings.Contains(s, "[[") }

// Targets returns the targets of every wikilink of texts, in order.
func Targets(texts []string) []string {
	var out []string
	for _, t := range texts {
		for _, l := range markdown.WikiLinks([]byte(t)) {
			out = append(out, l.Target)
		}
	}
	return out
}

// Unresolved returns the targets that name no note of names and that
// creating (nil: none) does not claim, each once, in order.
func Unresolved(targets []string, names Names, creating func(string) bool) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range targets {
		k := Key(t)
		if names.resolves(t) || seen[k] || creating != nil && creating(t) {
			continue
		}
		seen[k] = true
		out = append(out, t)
	}
	return out
}

// Any reports whether text holds a wikilink, outside code, whose target
// match accepts.
func Any(text string, match func(target string) bool) bool {
	if !Has(text) {
		return false
	}
	for _, l := range markdown.WikiLinks([]byte(text)) {
		if match(l.Target) {
			return true
		}
	}
	return false
}
