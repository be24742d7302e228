// Package relocate rewrites absolute paths under a repository's root into
// portable `<repo>/…` sigils, so archives stay meaningful when the repo
// moves or another machine reads the vault. mem_archive and
// mem_archive_rewrite_paths both use Rewrite: one rule, one implementation.
// Root.Note rewrites a note's body only (never its frontmatter) and lists
// the lines it changes; AppendLogLine adds a run's line to the
// relocations log.
//
//	out, n := relocate.Rewrite("see /home/ada/src/kessho/core/x.go", "/home/ada/src/kessho")
//	// out == "see <repo>/core/x.go", n == 1
//
// # Rules
//
// A path matches only at a boundary: the root must not follow a character
// that continues a path (letter, digit, "_", "-", ".", "/", "\", "~", ":"),
// and must be followed by the end, a separator, or a character that cannot
// continue a file name ("/a/b" rewrites "/a/b/c" and "/a/b" but not
// "/a/bc" nor "/x/a/b"). Windows roots ("C:\x", "c:/x", "\\server\share")
// match case-insensitively and with either slash, and the tail of a
// matched path is written with "/". POSIX roots match exactly.
package relocate

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sigil replaces the root in rewritten paths.
const Sigil = "<repo>"

// Root is a prepared root.
type Root struct {
	raw     string // as given, trailing separators dropped
	windows bool
	fold    string // windows: lowercased, "\" → "/"
}

// Parse prepares root for matching. It returns ok=false for a root that
// is empty, relative or the file system's root itself (rewriting every
// absolute path is never meant).
func Parse(root string) (Root, bool) {
	r := strings.TrimSpace(root)
	win := isWindows(r)
	if win {
		r = strings.TrimRight(r, `/\`)
		if len(r) <= 2 { // "C:" alone
			return Root{}, false
		}
		return Root{raw: r, windows: true, fold: foldWin(r)}, true
	}
	if !strings.HasPrefix(r, "/") {
		return Root{}, false
	}
	r = strings.TrimRight(r, "/")
	if r == "" {
		return Root{}, false
	}
	return Root{raw: r}, true
}

// isWindows reports whether p is a Windows absolute path: a drive letter
// and a separator, or a UNC path.
func isWindows(p string) bool {
	if len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z') {
		return true
	}
	return strings.HasPrefix(p, `\\`)
}

// foldWin lowercases ASCII letters and turns "\" into "/", byte for byte,
// so offsets in the result are offsets in s. (Windows also folds non-ASCII
// letters; paths that differ only in the case of those do not match.)
func foldWin(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'A' && c <= 'Z':
			b[i] = c + 'a' - 'A'
		case c == '\\':
			b[i] = '/'
		}
	}
	return string(b)
}

// String returns the root as given.
func (r Root) String() string { return r.raw }

// Rewrite replaces every path under root in text by its sigil form and
// returns the new text and the number of paths rewritten. An unusable root
// (see Parse) rewrites nothing.
func Rewrite(text, root string) (string, int) {
	r, ok := Parse(root)
	if !ok {
		return text, 0
	}
	return r.rewrite(text)
}

// rewrite is the package-level Rewrite for a prepared root.
func (r Root) rewrite(text string) (string, int) {
	hay := text
	needle := r.raw
	if r.windows {
		hay = foldWin(text) // same byte length: only ASCII changes
		needle = r.fold
	}
	var b strings.Builder
	n, last := 0, 0
	for i := 0; i <= len(hay)-len(needle); {
		j := strings.Index(hay[i:], needle)
		if j < 0 {
			break
		}
		start := i + j
		end := start + len(needle)
		if !r.boundaryBefore(text, start) || !boundaryAfter(text, end) {
			i = start + 1
			continue
		}
		tailEnd := end
		if end < len(text) && (text[end] == '/' || text[end] == '\\') {
			tailEnd = scanTail(text, end)
		}
		b.WriteString(text[last:start])
		b.WriteString(Sigil)
		tail := text[end:tailEnd]
		if r.windows {
			tail = strings.ReplaceAll(tail, `\`, "/")
		}
		b.WriteString(tail)
		last = tailEnd
		n++
		i = tailEnd
		if i == start { // never loop in place
			i++
		}
	}
	if n == 0 {
		return text, 0
	}
	b.WriteString(text[last:])
	return b.String(), n
}

func (r Root) boundaryBefore(text string, start int) bool {
	if start == 0 {
		return true
	}
	// Inside a path already written as a sigil ("<repo>/x/a/b"): leave it.
	tok := start
	for tok > 0 {
		c, size := utf8.DecodeLastRuneInString(text[:tok])
		if delimits(c) {
			break
		}
		tok -= size
	}
	if strings.HasSuffix(text[:tok], Sigil) {
		return false
	}
	c, _ := utf8.DecodeLastRuneInString(text[:start])
	return !continuesPath(c)
}

// boundaryAfter: the end, a separator, or a character that cannot continue
// a file name. A "." continues one only when a name character follows it
// ("/a/b." at the end of a sentence matches; "/a/b.git" does not).
func boundaryAfter(text string, end int) bool {
	if end >= len(text) {
		return true
	}
	c, size := utf8.DecodeRuneInString(text[end:])
	switch {
	case c == '/' || c == '\\':
		return true
	case c == '.':
		if end+size >= len(text) {
			return true
		}
		next, _ := utf8.DecodeRuneInString(text[end+size:])
		return !isName(next)
	}
	return !isName(c)
}

func isName(c rune) bool {
	return unicode.IsLetter(c) || unicode.IsDigit(c) || c == '_' || c == '-' || c == '~'
}

func continuesPath(c rune) bool {
	return isName(c) || c == '.' || c == '/' || c == '\\' || c == ':'
}

// delimits reports whether c ends a path in prose and Markdown.
func delimits(c rune) bool {
	return unicode.IsSpace(c) || strings.ContainsRune("\"'`<>|()[]{},;*", c)
}

// scanTail returns the end of the path tail starting at a separator: up to
// white space or a character that delimits paths in prose and Markdown.
func scanTail(text string, i int) int {
	for i < len(text) {
		c, size := utf8.DecodeRuneInString(text[i:])
		if delimits(c) {
			break
		}
		i += size
	}
	return i
}

// Same reports whether r and o name the same folder: Windows roots
// compared as they match (case and slashes folded), POSIX roots exactly.
func (r Root) Same(o Root) bool {
	if r.windows != o.windows {
		return false
	}
	if r.windows {
		return r.fold == o.fold
	}
	return r.raw == o.raw
}
