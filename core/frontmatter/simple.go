package frontmatter

import (
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// simple turns simpleMapping on; tests turn it off to compare.
var simple = true

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
//     no "<<", no key longer than YAML's 1024-character limit.
//
// The nodes are yaml.v3's to the field (kind, tag, style, value, line,
// column), which TestSimpleMappingIsYAMLs checks against yaml.v3 itself.
func simpleMapping(content string) (*yaml.Node, bool) {
	root := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	seen := map[string]bool{}
	line := 0
	for rest := content; rest != ""; {
		line++
		l, after, found := strings.Cut(rest, "\n")
		rest = after
		if !found && l == "" {
			break
		}
		if strings.TrimLeft(l, " ") == "" {
			if l != "" {
				return nil, false // spaces alone: fine in YAML, rare here
			}
			continue
		}
		key, value, col, ok := simpleLine(l)
		if !ok || seen[key] {
			return nil, false
		}
		seen[key] = true
		if len(root.Content) == 0 {
			root.Line, root.Column = line, 1
		}
		k := &yaml.Node{Kind: yaml.ScalarNode, Value: key, Line: line, Column: 1}
		k.Tag = k.ShortTag()
		v := &yaml.Node{Kind: yaml.ScalarNode, Value: value, Line: line, Column: col}
		switch l[col-1] {
		case '"':
			v.Style, v.Tag = yaml.DoubleQuotedStyle, "!!str"
		case '\'':
			v.Style, v.Tag = yaml.SingleQuotedStyle, "!!str"
		default:
			v.Tag = v.ShortTag()
		}
		root.Content = append(root.Content, k, v)
	}
	if len(root.Content) == 0 {
		return nil, false
	}
	return root, true
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
	key = l[:i]
	j := i + 2
	for j < len(l) && l[j] == ' ' {
		j++
	}
	raw := strings.TrimRight(l[j:], " ")
	if raw == "" || key == "<<" {
		return "", "", 0, false
	}
	// Everything before the value is ASCII: its column is its offset.
	col = j + 1
	switch q := raw[0]; q {
	case '"', '\'':
		if len(raw) < 2 || raw[len(raw)-1] != q || strings.ContainsAny(raw[1:len(raw)-1], `"'\`) {
			return "", "", 0, false
		}
		return key, raw[1 : len(raw)-1], col, true
	}
	c := raw[0]
	if !(isKeyByte(c) && c != '-' || c == '.' || c == '/' || c == '(' || c >= utf8.RuneSelf) {
		return "", "", 0, false
	}
	if strings.Contains(raw, ": ") || strings.HasSuffix(raw, ":") || raw == "<<" {
		return "", "", 0, false
	}
	return key, raw, col, true
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
