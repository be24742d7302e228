// Package note renders the notes Kessho creates: an ordered frontmatter
// (Fields, encoded with yaml.v3, 2-space indent, block lists, so new notes
// look like the ones people write) and a body. Existing notes are never
// re-encoded: edits go through package frontmatter.
package note

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Field is one key of a note that Kessho creates, in order.
type Field struct {
	Key  string
	Node *yaml.Node
}

// Fields is an ordered frontmatter for a new note. It is encoded with
// yaml.v3 (2-space indent, block lists), so that new notes look like the
// ones people write; existing notes are never re-encoded (see frontmatter).
type Fields []Field

// Str is a string scalar, plain where YAML reads it back as the same
// string (yaml.v3 decides) and double-quoted otherwise, as SPEC section 2
// writes new scalars.
func Str(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if out, err := yaml.Marshal(n); err != nil || len(out) == 0 || strings.ContainsRune(`'"|>`, rune(out[0])) {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// Quoted is a double-quoted string scalar: `time: "10:15"` stays a string
// for every YAML reader (YAML 1.1 reads 10:15 as a number).
func Quoted(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Style: yaml.DoubleQuotedStyle}
}

// Stamp is a plain date or date-time (`2026-11-30`,
// `2026-11-30T10:15:00+01:00`), which Obsidian shows as a date property.
func Stamp(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!timestamp", Value: s}
}

// List is a block list of strings.
func List(items []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for _, it := range items {
		n.Content = append(n.Content, Str(it))
	}
	return n
}

// Value encodes any JSON value (from archive_extra_fm) as a YAML node.
func Value(v any) (*yaml.Node, error) {
	n := &yaml.Node{}
	if err := n.Encode(v); err != nil {
		return nil, err
	}
	return n, nil
}

// Index returns the position of key, or -1.
func (f Fields) Index(key string) int {
	for i, x := range f {
		if x.Key == key {
			return i
		}
	}
	return -1
}

// Set replaces key's value in place, or appends it.
func (f *Fields) Set(key string, n *yaml.Node) {
	if i := f.Index(key); i >= 0 {
		(*f)[i].Node = n
		return
	}
	*f = append(*f, Field{key, n})
}

// Render renders a new note: frontmatter, then body (ending with a newline).
func (f Fields) Render(body string) (string, error) {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, x := range f {
		m.Content = append(m.Content, Str(x.Key), x.Node)
	}
	var b bytes.Buffer
	b.WriteString("---\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(m); err != nil {
		return "", err
	}
	enc.Close()
	b.WriteString("---\n")
	b.WriteString(body)
	if body != "" && !strings.HasSuffix(body, "\n") {
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// RenderFlush renders a new note as Render does, but with the frontmatter's
// lists of single-line scalars flush with their key ("tags:\n- a"), as
// the memory-kit's writer (PyYAML's safe_dump) writes them, where yaml.v3
// indents them by two ("tags:\n  - a"; v3.0.1 has no option for it). The
// items are found by their yaml.v3 positions in Render's own output, and
// the result is decoded again and must hold the same tree: a list it
// cannot move so is left as Render wrote it.
func (f Fields) RenderFlush(body string) (string, error) {
	text, err := f.Render(body)
	if err != nil {
		return "", err
	}
	fm, rest, _ := strings.Cut(strings.TrimPrefix(text, "---\n"), "\n---\n")
	var doc yaml.Node
	if yaml.Unmarshal([]byte(fm), &doc) != nil || len(doc.Content) != 1 {
		return text, nil
	}
	lines := strings.SplitAfter(fm+"\n", "\n")
	for _, v := range doc.Content[0].Content {
		if v.Kind != yaml.SequenceNode || v.Style&yaml.FlowStyle != 0 {
			continue
		}
		for _, it := range v.Content {
			l := it.Line - 1
			if it.Kind != yaml.ScalarNode || it.Column != 5 || l >= len(lines) || !strings.HasPrefix(lines[l], "  - ") {
				return text, nil // not one line an item, as Render writes them
			}
			lines[l] = lines[l][2:]
		}
	}
	flush := strings.TrimSuffix(strings.Join(lines, ""), "\n")
	var a, b yaml.Node
	if yaml.Unmarshal([]byte(flush), &b) != nil || yaml.Unmarshal([]byte(fm), &a) != nil || !sameTree(&a, &b) {
		return text, nil
	}
	return "---\n" + flush + "\n---\n" + rest, nil
}

// sameTree reports whether two decoded YAML trees hold the same kinds,
// tags and values in the same order (positions aside).
func sameTree(a, b *yaml.Node) bool {
	if a.Kind != b.Kind || a.ShortTag() != b.ShortTag() || a.Value != b.Value || len(a.Content) != len(b.Content) {
		return false
	}
	for i := range a.Content {
		if !sameTree(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

// OrderedObject decodes a JSON object keeping its keys' order.
func OrderedObject(raw json.RawMessage) ([]string, map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, fmt.Errorf("not an object")
	}
	var keys []string
	vals := map[string]any{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k := tok.(string)
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		if _, dup := vals[k]; !dup {
			keys = append(keys, k)
		}
		vals[k] = numbers(v)
	}
	if _, err := dec.Token(); err != nil && err != io.EOF {
		return nil, nil, err
	}
	return keys, vals, nil
}

// numbers turns json.Number into int64 or float64 so YAML writes them as
// numbers.
func numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = numbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = numbers(x[k])
		}
	}
	return v
}

// Number is a YAML number scalar (7, 7.5).
func Number(h float64) *yaml.Node {
	tag := "!!float"
	if h == float64(int64(h)) {
		tag = "!!int"
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: strconv.FormatFloat(h, 'f', -1, 64)}
}
