package search

import (
	"path"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/kessho/kessho/core/frontmatter"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/core/wikilink"
)

// Fields of a note, in the order of Note.Fields and of fieldName. The
// designations (every field but the body) name the note; each of their
// phrases is kept apart (an alias is never fused with the next).
const (
	FieldTitle   = iota // the file's name without ".md"
	FieldDisplay        // frontmatter display
	FieldSubject        // frontmatter subject
	FieldAliases        // frontmatter aliases, each a phrase
	FieldSummary        // frontmatter summary
	FieldBody           // the body (the whole text when the frontmatter is not valid)
	NumFields
)

// fieldName holds the fields' names, as mem_search reports them in matched.
var fieldName = [NumFields]string{"title", "display", "subject", "aliases", "summary", "body"}

// Meta is what the index keeps of a note besides its terms: where it is,
// what it is, its display name and date, and Key, the version of the
// note it was made from (the host's "size:mtime", or "sha256:<hex>").
type Meta struct {
	// Archived comes first: a query's default filter reads it of every
	// document found, in the cache line of its lens (doc).
	Archived bool // under 10-episodes/archived
	Path     string
	Key      string
	Title    string
	Kind     string // archive, context, history, atom or note
	Zone     string // episodes, knowledge, principles, goals, or another top folder's name without its number
	Slug     string // the project or domain, for a file under 10-episodes
	Date     string // YYYY-MM-DD, or ""
	// BodyLine is the number of lines before the body (those of a valid
	// frontmatter; 0 when it has none), so that mem_search picks a hit's
	// best line without parsing its YAML again.
	BodyLine int
	// Cut reports that the note is longer than MaxNoteBytes: only its
	// head (Head) is indexed, and read again for its best line.
	Cut bool
}

// MaxNoteBytes is the most of a note the index reads: its first 4 MiB
// (Head). A longer note (an exported log, a dump) is found by its title
// and what its head holds, and mem_search and mem_recall warn that it
// was cut; it never makes the request, nor the instance's memory, hold
// the whole file. 4 MiB is a batch's worth (DefaultBatch) and a hundred
// times the longest note a person writes: see RATIONALE.md, "Why is a
// note indexed on its first 4 MiB?".
const MaxNoteBytes = vault.MaxHeadBytes

// Head returns text cut to at most MaxNoteBytes bytes, at the end of its
// last whole UTF-8 character, and whether it was cut: what the index
// keeps of a longer text the core read whole, the same head a host
// answers for a "heads" need (vault.Head).
func Head(text string) (string, bool) {
	if len(text) <= MaxNoteBytes {
		return text, false
	}
	return text[:HeadLen([]byte(text[:MaxNoteBytes]))], true
}

// HeadLen returns how many bytes a head keeps of b, the first
// MaxNoteBytes bytes of a longer file: all of them, less the start of a
// character the cut falls inside (a lead byte whose continuation bytes
// were not read, as utf8.FullRune tells it). A host answering a "heads"
// need reads b and no more. Any piece of a stream cut so ends where its
// whole characters end (the Go host checks a file's UTF-8 by chunks so).
func HeadLen(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}

// Note is one note read for the index: its Meta, each field's phrases
// and, for a note of LinkDirs, its outgoing links.
type Note struct {
	Meta
	Fields [NumFields][]string
	// Links are the targets of the note's wikilinks, anywhere in its text
	// (frontmatter included, code left out), as wikilink.Key compares them,
	// each once, sorted: mem_recall finds with them the principles and
	// goals that link to a project without reading them.
	Links []string
}

// LinkDirs are the folders whose notes' links the index keeps: those
// mem_recall lists when they link to a project (principles and goals).
// Other notes' links have no reader, and would cost a Markdown parse each.
var LinkDirs = []string{"40-principles", "50-goals"}

// links returns the link keys of text (Note.Links).
func links(text string) []string {
	if !wikilink.Has(text) {
		return nil
	}
	var out []string
	for _, t := range wikilink.Targets([]string{text}) {
		out = append(out, wikilink.Key(t))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// keepsLinks reports whether the index keeps the links of the note at p.
func keepsLinks(p string) bool {
	for _, d := range LinkDirs {
		if strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// IsNote reports whether the vault-relative path p is a note the index
// holds: a Markdown file outside every dot-folder.
func IsNote(p string) bool {
	// A segment starting with "." starts p or follows a "/".
	return strings.HasSuffix(p, ".md") && !strings.HasPrefix(p, ".") && !strings.Contains(p, "/.")
}

// noteKeys are the frontmatter's keys ParseNote reads
// (frontmatter.ReadFields).
var noteKeys = []string{"display", "subject", "summary", "aliases", "alias", "date", "last-session", "created"}

// ParseNote reads a note for the index. text is nil for a file that is not
// UTF-8: it is found by its title alone. A note without frontmatter, or
// whose frontmatter is not valid YAML, is indexed by its title and its
// whole text as the body: never an error. The index keeps p and key:
// they are cloned, since they may be pieces of a whole listing's bytes
// (wire.Carry.Notes), which the index would otherwise keep alive.
func ParseNote(p, key string, text *string) Note {
	p = strings.Clone(p)
	n := Note{Meta: classify(p)}
	n.Key = strings.Clone(key)
	base := strings.TrimSuffix(path.Base(p), ".md")
	n.Title = base
	n.Fields[FieldTitle] = []string{base}
	if text == nil {
		n.Date = firstDate(base)
		return n
	}
	if keepsLinks(p) {
		n.Links = links(*text)
	}
	doc, err := frontmatter.ReadFields(*text, noteKeys...)
	if err != nil {
		n.Fields[FieldBody] = []string{*text}
		n.Date = firstDate(base)
		return n
	}
	str := func(k string) string {
		s, _ := doc.String(k)
		return strings.TrimSpace(s)
	}
	one := func(f int, k string) {
		if s := str(k); s != "" {
			n.Fields[f] = []string{s}
		}
	}
	one(FieldDisplay, "display")
	one(FieldSubject, "subject")
	one(FieldSummary, "summary")
	if d := str("display"); d != "" {
		n.Title = strings.Clone(d) // kept by the index: not a piece of the note's text, which it would keep whole
	}
	for _, k := range []string{"aliases", "alias"} {
		if as, ok := doc.Strings(k); ok {
			for _, a := range as {
				if a = strings.TrimSpace(a); a != "" {
					n.Fields[FieldAliases] = append(n.Fields[FieldAliases], a)
				}
			}
		}
	}
	n.Fields[FieldBody] = []string{doc.Body()}
	n.BodyLine = strings.Count((*text)[:doc.BodyOffset()], "\n")
	n.Date = firstDate(str("date"), base, str("last-session"), str("created"))
	return n
}

// firstDate returns the first of candidates that starts with a valid
// YYYY-MM-DD date, as that date.
func firstDate(candidates ...string) string {
	for _, c := range candidates {
		if len(c) >= 10 && dateShaped(c[:10]) {
			if _, err := time.Parse("2006-01-02", c[:10]); err == nil {
				return strings.Clone(c[:10]) // as Title
			}
		}
	}
	return ""
}

// dateShaped reports whether s is written NNNN-NN-NN: only then is it
// worth time.Parse, whose refusal allocates (most candidates are names).
func dateShaped(s string) bool {
	for i := range len(s) {
		if i == 4 || i == 7 {
			if s[i] != '-' {
				return false
			}
		} else if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// classify tells a note's kind, zone, slug and archived state from its
// path (SPEC section 1).
func classify(p string) Meta {
	m := Meta{Path: p, Kind: "note"}
	parts := strings.Split(p, "/")
	if len(parts) == 1 {
		return m
	}
	top := parts[0]
	switch top {
	case vault.Episodes:
		m.Zone = "episodes"
	case "20-knowledge", "40-principles", "50-goals":
		m.Zone, m.Kind = top[3:], "atom"
	default:
		m.Zone = strings.TrimLeft(top, "0123456789")
		m.Zone = strings.TrimPrefix(m.Zone, "-")
	}
	if top != vault.Episodes || len(parts) < 4 {
		return m
	}
	switch parts[1] {
	case "projects", "domains", "archived":
	default:
		return m
	}
	m.Slug, m.Archived = parts[2], parts[1] == "archived"
	switch {
	case len(parts) == 4 && parts[3] == "context.md":
		m.Kind = "context"
	case len(parts) == 4 && parts[3] == "history.md":
		m.Kind = "history"
	case len(parts) == 5 && parts[3] == "archives":
		m.Kind = "archive"
	}
	return m
}
