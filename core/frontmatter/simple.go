package frontmatter

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// simple turns simpleMapping on; tests turn it off to compare.
var simple = true

// fastPath is simpleMapping when simple is on.
func fastPath(content string) (*yaml.Node, bool) {
	if !simple {
		return nil, false
	}
	return simpleMapping(content)
}

// simpleMapping reads the frontmatter most notes have, one `key: value`
// line per key and nothing else, into the nodes yaml.v3 would build for it,
// without yaml.v3: its parser and the decode that checks a mapping cost
// most of a call in the wasm engine (a worklog reads a frontmatter per
// session). It accepts only text whose meaning it is sure of, and says no
// (ok false) to anything else, which yaml.v3 then reads:
//
//   - every line is empty or `key: value`, the key at the start of the
//     line, of ASCII letters, digits, "_" and "-" (not starting with "-"),
//     followed by ": " and the value, each key once;
//   - a value is a plain scalar (starting with a letter, a digit or one of
//     "_./(" or any character beyond ASCII, with no ": ", no ending ":",
//     and trailing spaces, which YAML drops), or a single- or double-quoted
//     one with no quote or backslash inside, and nothing after it but
//     spaces;
//   - no "#" (a comment), no tab, no "\r", no control character, no
//     character YAML reads as a line break or refuses, no empty value,
//     no "<<" (neither a key byte nor a first character a plain value
//     may have), no key longer than YAML's 1024-character limit.
//
// The nodes are yaml.v3's to the field (kind, tag, style, value, line,
// column), which TestSimpleMappingIsYAMLs checks against yaml.v3 itself.
func simpleMapping(content string) (*yaml.Node, bool) { return simpleKept(content, nil) }

// simpleKept is simpleMapping, whose root holds only the keys of keep
// when keep is not nil: the other lines are read and checked alike, so
// that it says no to the same texts, but make no node (ReadFields).
func simpleKept(content string, keep []string) (*yaml.Node, bool) {
	lines := strings.Split(content, "\n")
	// The nodes come from one slab (the wasm engine pays dearly for each
	// allocation); a mapping holds a pair a line at most, but list items
	// take a node a line too: a full slab starts another.
	size, pairs := slabSize(lines), 2*len(lines)
	if keep != nil {
		size, pairs = 8, 2*len(keep) // the few kept (ParseNote: two to four)
	}
	root := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: make([]*yaml.Node, 0, pairs)}
	slab := make([]yaml.Node, 0, size)
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	seen := make([]string, 0, len(lines)) // the keys read, kept or not
	for i := 0; i < len(lines); i++ {
		l, line := lines[i], i+1
		if strings.TrimLeft(l, " ") == "" {
			if l != "" {
				return nil, false // spaces alone: fine in YAML, rare here
			}
			continue
		}
		key, v, n, kept, ok := keptValue(&slab, lines[i:], line, keep)
		if !ok {
			return nil, false
		}
		i += n
		if slices.Contains(seen, key) {
			return nil, false // keys are few: no map to see them
		}
		seen = append(seen, key)
		if !kept {
			continue
		}
		if len(root.Content) == 0 {
			root.Line, root.Column = line, 1
		}
		k := newNode(&slab, yaml.Node{Kind: yaml.ScalarNode, Value: key, Line: line, Column: 1})
		k.Tag = plainTag(k)
		root.Content = append(root.Content, k, v)
	}
	if len(seen) == 0 {
		return nil, false
	}
	return root, true
}

// keptValue reads the key at the start of lines (line its number) and
// its value: a scalar on its line, or `key:` alone and a block list of
// scalars (tags, aliases) on the n lines after. A key not in keep (nil:
// every key) makes no node (v nil, kept false): its list is checked in
// the slab's room, which the next nodes take again.
func keptValue(slab *[]yaml.Node, lines []string, line int, keep []string) (key string, v *yaml.Node, n int, kept, ok bool) {
	l := lines[0]
	key, value, col, ok := simpleLine(l)
	if ok {
		if keep != nil && !slices.Contains(keep, key) {
			return key, nil, 0, false, true
		}
		return key, scalarNode(slab, value, l[col-1], line, col), 0, true, true
	}
	if key, ok = listKey(l); !ok {
		return "", nil, 0, false, false
	}
	kept = keep == nil || slices.Contains(keep, key)
	into := slab
	if !kept {
		scratch := *slab
		into = &scratch
	}
	if v, n = simpleList(into, lines[1:], line+1); v == nil {
		return "", nil, 0, false, false
	}
	if !kept {
		v = nil
	}
	return key, v, n, kept, true
}

// slabSize is how many nodes simpleMapping builds for lines when it
// reads them all: two for a line of a key (the key and its value, or
// its list), one for a list item.
func slabSize(lines []string) int {
	n := 0
	for _, l := range lines {
		switch t := strings.TrimLeft(l, " "); {
		case t == "":
		case t[0] == '-':
			n++
		default:
			n += 2
		}
	}
	return n
}

// newNode returns a copy of n in the slab, or in a new one when it is full
// (nodes already given keep their place).
func newNode(slab *[]yaml.Node, n yaml.Node) *yaml.Node {
	if len(*slab) == cap(*slab) {
		*slab = make([]yaml.Node, 0, 16)
	}
	*slab = append(*slab, n)
	return &(*slab)[len(*slab)-1]
}

// scalarNode is the node yaml.v3 builds for a scalar value that simpleLine
// read, first its first byte (a quote gives its style).
func scalarNode(slab *[]yaml.Node, value string, first byte, line, col int) *yaml.Node {
	v := newNode(slab, yaml.Node{Kind: yaml.ScalarNode, Value: value, Line: line, Column: col})
	switch first {
	case '"':
		v.Style, v.Tag = yaml.DoubleQuotedStyle, "!!str"
	case '\'':
		v.Style, v.Tag = yaml.SingleQuotedStyle, "!!str"
	default:
		v.Tag = plainTag(v)
	}
	return v
}

// plainTag is n.ShortTag() for a plain scalar n, without yaml.v3's
// resolve (a deferred check, a map lookup, and for a date three failed
// time.Parse before the one that reads it: a tenth of a worklog's time on
// the wasm engine) in the two cases most values fall in: a first byte that
// starts no other type is a string, and a date written YYYY-MM-DD is a
// timestamp when time.Parse reads it. Any other value goes to ShortTag.
func plainTag(n *yaml.Node) string {
	v := n.Value
	if v != "" && !strings.ContainsRune("+-.0123456789yYnNtTfFoO~", rune(v[0])) {
		return "!!str" // resolve's table gives such a byte no hint
	}
	if len(v) == 10 && v[4] == '-' && v[7] == '-' && allDigits(v[:4]) && allDigits(v[5:7]) && allDigits(v[8:]) {
		if _, err := time.Parse("2006-01-02", v); err == nil {
			return "!!timestamp"
		}
	}
	return n.ShortTag()
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// listKey reads a line that is a key and its colon alone, as before a
// block list.
func listKey(l string) (string, bool) {
	key, ok := strings.CutSuffix(l, ":")
	if !ok || key == "" || key[0] == '-' || len(key) > 1000 {
		return "", false
	}
	for i := 0; i < len(key); i++ {
		if !isKeyByte(key[i]) {
			return "", false
		}
	}
	return key, true
}

// simpleList reads the block list that follows a `key:` line: items
// `- value` at one indentation (none or some spaces), each value as
// simpleLine takes it, up to the first line that is no item. It returns
// the sequence node yaml.v3 builds and how many lines it took, or nil when
// there is no item or an item it is not sure of.
func simpleList(slab *[]yaml.Node, lines []string, line int) (*yaml.Node, int) {
	if len(lines) == 0 {
		return nil, 0
	}
	indent := len(lines[0]) - len(strings.TrimLeft(lines[0], " "))
	seq := newNode(slab, yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: line, Column: indent + 1})
	dash := lines[0][:indent] + "- " // the item's prefix: lines[0]'s indent spaces, "- "
	n := 0
	for ; n < len(lines); n++ {
		l := lines[n]
		item, ok := strings.CutPrefix(l, dash)
		if !ok {
			if strings.HasPrefix(strings.TrimLeft(l, " "), "-") {
				return nil, 0 // an item at another indentation, or `-` alone
			}
			break
		}
		// The item read as the value of a `key: ` line (simpleValue),
		// its column shifted by the item's offset.
		if !printableLine(item) {
			return nil, 0
		}
		value, off, ok := simpleValue(item)
		if !ok {
			return nil, 0
		}
		col := indent + 2 + off + 1
		seq.Content = append(seq.Content, scalarNode(slab, value, l[col-1], line+n, col))
	}
	if n == 0 || indent > 0 && n < len(lines) && strings.HasPrefix(lines[n], " ") {
		// No item; or, under an indented list, an indented line that is no
		// item (a continuation YAML would fold into the last one).
		return nil, 0
	}
	return seq, n
}

// simpleLine splits one `key: value` line for simpleMapping: the key, the
// value as YAML reads it, and the value's 1-based column in characters.
func simpleLine(l string) (key, value string, col int, ok bool) {
	if !printableLine(l) {
		return "", "", 0, false
	}
	i := 0
	for i < len(l) && (isKeyByte(l[i])) {
		i++
	}
	if i == 0 || l[0] == '-' || i > 1000 || !strings.HasPrefix(l[i:], ": ") {
		return "", "", 0, false
	}
	value, off, ok := simpleValue(l[i+2:])
	if !ok {
		return "", "", 0, false
	}
	// Everything before the value is ASCII: its column is its offset.
	return l[:i], value, i + 2 + off + 1, true
}

// simpleValue reads what follows a key's ": " (or a list item's "- ")
// as simpleLine takes it: the value as YAML reads it and its offset in
// s (the spaces before it skipped).
func simpleValue(s string) (value string, off int, ok bool) {
	for off < len(s) && s[off] == ' ' {
		off++
	}
	raw := strings.TrimRight(s[off:], " ")
	if raw == "" {
		return "", 0, false
	}
	switch q := raw[0]; q {
	case '"', '\'':
		if len(raw) < 2 || raw[len(raw)-1] != q || strings.ContainsAny(raw[1:len(raw)-1], `"'\`) {
			return "", 0, false
		}
		return raw[1 : len(raw)-1], off, true
	}
	c := raw[0]
	if !(isKeyByte(c) && c != '-' || c == '.' || c == '/' || c == '(' || c >= utf8.RuneSelf) {
		return "", 0, false
	}
	if strings.Contains(raw, ": ") || strings.HasSuffix(raw, ":") {
		return "", 0, false
	}
	return raw, off, true
}

func isKeyByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-'
}

// printableLine reports whether l is valid UTF-8 made of characters YAML
// takes inside a line with no second thought: no "#", no tab or other
// control character, no DEL, no C1 control (NEL is a YAML line break), no
// BOM, no U+2028/U+2029 (line breaks too), no non-character.
func printableLine(l string) bool {
	for _, r := range l {
		switch {
		case r == '#' || r < 0x20 || r == 0x7f:
			return false
		case r < utf8.RuneSelf:
		case r == utf8.RuneError, r < 0xa0, r == 0x2028, r == 0x2029, r == 0xfeff, r == 0xfffe, r == 0xffff:
			// RuneError here is either invalid UTF-8 or a literal U+FFFD:
			// both are left to yaml.v3.
			return false
		}
	}
	return true
}
