package frontmatter

import (
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The fuzz targets check SPEC section 2's property against an oracle of
// their own, which shares no code with the package: for any file and any
// edit that succeeds, the result parses, its keys are the original's (plus
// or minus the edited one, in order), every other key reads back unchanged,
// the edited key reads back as exactly what was set, the body and BOM are
// byte-identical, and no line outside the edited key's lines (or the
// insertion point of a new key) changed. The oracle (view) splits the lines
// and finds the delimiters by hand, decodes the YAML with yaml.v3 alone,
// and compares lines; only Parse (an edit of a file it refuses must fail,
// and the result must parse) and the edits themselves are the package's.
//
// Seeds live in testdata/fuzz/FuzzSet and testdata/fuzz/FuzzRemove, so a
// plain `go test` runs them.

// edit is one fuzzed operation: kind picks Set with a string, a []string, a
// bool, an int, a float64, nil or a map.
type edit struct {
	kind  byte
	key   string
	value any
}

func makeEdit(key, value string, kind byte) edit {
	e := edit{kind: kind % 7, key: key}
	split := func() []string {
		if value == "" {
			return []string{}
		}
		return strings.Split(value, ",")
	}
	switch e.kind {
	case 0:
		e.value = value
	case 1:
		e.value = split()
	case 2:
		e.value = len(value)%2 == 0
	case 3:
		n, err := strconv.Atoi(value)
		if err != nil {
			n = len(value) - 3
		}
		e.value = n
	case 4:
		f, err := strconv.ParseFloat(value, 64)
		if err != nil {
			f = float64(len(value)) / 4
		}
		e.value = f
	case 5:
		e.value = nil
	case 6:
		e.value = map[string]any{"k": value, "list": []any{value, 1}}
	}
	return e
}

func (e edit) apply(text string) (string, error) { return Set(text, e.key, e.value) }

// want is what the edited key must read back as, worked out from the edit
// alone.
func (e edit) want() any {
	switch v := e.value.(type) {
	case []string:
		return strs(v)
	case map[string]any:
		b, _ := yaml.Marshal(v)
		var back any
		_ = yaml.Unmarshal(b, &back)
		return back
	}
	return e.value
}

func strs(list []string) []any {
	out := []any{}
	for _, s := range list {
		out = append(out, s)
	}
	return out
}

func FuzzSet(f *testing.F) {
	f.Fuzz(checkEdit)
}

// checkEdit is FuzzSet's property for one edit.
func checkEdit(t *testing.T, text, key, value string, kind byte) {
	t.Helper()
	// Invalid UTF-8 in a key or value is refused up front; fuzz the rest.
	key, value = strings.ToValidUTF8(key, "?"), strings.ToValidUTF8(value, "?")
	e := makeEdit(key, value, kind)
	_, perr := Parse(text)
	out, err := e.apply(text)
	if perr != nil {
		if err == nil {
			t.Fatalf("edit of invalid frontmatter (%v) succeeded", perr)
		}
		return
	}
	if err != nil {
		return // a refusal writes nothing; the property is about successes
	}
	before := readView(t, text)
	after := checkCommon(t, text, out, before)
	keys := before.keys
	if _, ok := before.line[e.key]; !ok {
		keys = append(slices.Clip(keys), e.key)
	}
	checkKeys(t, before, after, keys, e.key)
	if got, want := after.values[e.key], e.want(); !equalValues(got, want) {
		t.Fatalf("%q reads back %#v, want %#v\nbefore %q\nafter  %q", e.key, got, want, text, out)
	}
	lo, hi := before.span(e.key)
	checkLocal(t, before, after, lo, hi)
}

func FuzzRemove(f *testing.F) {
	f.Fuzz(checkRemove)
}

// checkRemove is FuzzRemove's property for one key.
func checkRemove(t *testing.T, text, key string) {
	t.Helper()
	_, perr := Parse(text)
	out, err := Remove(text, key)
	if perr != nil {
		if err == nil {
			t.Fatalf("remove from invalid frontmatter (%v) succeeded", perr)
		}
		return
	}
	if err != nil {
		return
	}
	before := readView(t, text)
	if _, ok := before.line[key]; !ok {
		if out != text {
			t.Fatalf("remove of an absent key changed the text")
		}
		return
	}
	after := checkCommon(t, text, out, before)
	keys := slices.DeleteFunc(slices.Clone(before.keys), func(k string) bool { return k == key })
	checkKeys(t, before, after, keys, key)
	if _, ok := after.line[key]; ok {
		t.Fatalf("%q still there after Remove", key)
	}
	lo, hi := before.span(key)
	checkLocal(t, before, after, lo, hi)
}

// view is a note as the oracle reads it, without the package: its lines,
// the delimiters, and the frontmatter's top-level keys decoded by yaml.v3.
type view struct {
	text   string
	bom    bool
	lines  []string // after the BOM, each with its line ending
	open   int      // index of the opening "---" line; -1 without frontmatter
	close  int      // index of the closing "---" or "..." line
	keys   []string // in order
	values map[string]any
	nodes  map[string]*yaml.Node // each key's value
	line   map[string]int        // index of each key's first line
	indent map[string]int        // each key's column, from 0
	starts []int                 // the first line of every top-level entry
}

// readView reads text, which Parse accepted; it fails the test when it
// cannot (the oracle and the package disagree on what a note is).
func readView(t *testing.T, text string) *view {
	t.Helper()
	v := &view{text: text, open: -1, values: map[string]any{}, nodes: map[string]*yaml.Node{}, line: map[string]int{}, indent: map[string]int{}}
	rest, bomFound := strings.CutPrefix(text, "\ufeff")
	v.bom = bomFound
	v.lines = splitLines(rest)
	delim := func(i int, closing bool) bool {
		l := strings.TrimRight(strings.TrimRight(v.lines[i], "\r\n"), " \t")
		return l == "---" || closing && l == "..."
	}
	if len(v.lines) == 0 || !delim(0, false) || !strings.ContainsAny(v.lines[0], "\r\n") {
		return v
	}
	v.open, v.close = 0, -1
	for i := 1; i < len(v.lines) && v.close < 0; i++ {
		if delim(i, true) {
			v.close = i
		}
	}
	if v.close < 0 {
		t.Fatalf("oracle: no closing delimiter in %q, which Parse accepted", text)
	}
	var content strings.Builder
	for _, l := range v.lines[1:v.close] {
		content.WriteString(strings.TrimRight(l, "\r\n") + "\n")
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(content.String()), &doc); err != nil {
		t.Fatalf("oracle: yaml.v3 refuses the frontmatter of %q, which Parse accepted: %v", text, err)
	}
	if len(doc.Content) == 0 {
		return v
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		t.Fatalf("oracle: the frontmatter of %q is not a mapping, yet Parse accepted it", text)
	}
	fileLine := yamlLines(content.String())
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, val := root.Content[i], root.Content[i+1]
		first := 1 + fileLine[k.Line-1]
		v.starts = append(v.starts, first)
		if k.Kind == yaml.AliasNode {
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode {
			continue // a list or mapping as a key has no name
		}
		var decoded any
		if err := val.Decode(&decoded); err != nil {
			t.Fatalf("oracle: decoding %q of %q: %v", k.Value, text, err)
		}
		v.keys = append(v.keys, k.Value)
		v.values[k.Value] = decoded
		v.nodes[k.Value] = val
		v.line[k.Value] = first
		v.indent[k.Value] = root.Content[i].Column - 1
	}
	return v
}

// splitLines cuts s after each "\n", "\r\n" or lone "\r".
func splitLines(s string) []string {
	var lines []string
	for len(s) > 0 {
		i := strings.IndexAny(s, "\r\n")
		switch {
		case i < 0:
			i = len(s)
		case strings.HasPrefix(s[i:], "\r\n"):
			i += 2
		default:
			i++
		}
		lines = append(lines, s[:i])
		s = s[i:]
	}
	return lines
}

// yamlLines maps each line yaml.v3 counts in content (from 0) to the line
// of content it starts on: YAML also breaks lines at U+0085, U+2028 and
// U+2029, which are no line breaks in a note.
func yamlLines(content string) []int {
	starts := []int{0}
	line := 0
	for _, r := range content {
		switch r {
		case '\n':
			line++
			starts = append(starts, line)
		case '\u0085', '\u2028', '\u2029':
			starts = append(starts, line)
		}
	}
	return starts
}

// body is the note after its frontmatter.
func (v *view) body() string {
	if v.open < 0 {
		return strings.Join(v.lines, "")
	}
	return strings.Join(v.lines[v.close+1:], "")
}

// span is the lines [lo, hi) an edit of key may change: the key's first
// line up to the next key or the closing delimiter, less the comments at
// the key's indentation or less that end it (they are not its value); for
// a new key, none, at the closing delimiter (or at the top of a note
// without frontmatter).
func (v *view) span(key string) (lo, hi int) {
	lo, ok := v.line[key]
	if !ok {
		if v.open < 0 {
			return 0, 0
		}
		return v.close, v.close
	}
	hi = v.close
	for _, l := range v.starts {
		if l > lo && l < hi {
			hi = l
		}
	}
	for hi > lo+1 {
		l := v.lines[hi-1]
		trimmed := strings.TrimLeft(l, " \t")
		if !strings.HasPrefix(trimmed, "#") || len(l)-len(trimmed) > v.indent[key] {
			break
		}
		hi--
	}
	return lo, hi
}

func checkCommon(t *testing.T, text, out string, before *view) *view {
	t.Helper()
	if _, err := Parse(out); err != nil {
		t.Fatalf("result does not parse: %v\nbefore %q\nafter  %q", err, text, out)
	}
	after := readView(t, out)
	if after.body() != before.body() {
		t.Fatalf("body changed:\nbefore %q\nafter  %q", before.body(), after.body())
	}
	if after.bom != before.bom {
		t.Fatalf("BOM changed")
	}
	// A file whose lines all end in a lone "\r" gets "\r" endings only.
	if strings.Contains(text, "\r") && !strings.Contains(text, "\n") && strings.Contains(out, "\n") {
		t.Fatalf("an edit wrote \"\\n\" in a file whose lines end in \"\\r\":\nbefore %q\nafter  %q", text, out)
	}
	return after
}

func checkKeys(t *testing.T, before, after *view, keys []string, edited string) {
	t.Helper()
	if !slices.Equal(after.keys, keys) {
		t.Fatalf("keys = %q, want %q\nbefore %q\nafter  %q", after.keys, keys, before.text, after.text)
	}
	for _, k := range keys {
		if k != edited && !equalValues(before.values[k], after.values[k]) {
			t.Fatalf("%q changed from %#v to %#v\nbefore %q\nafter  %q", k, before.values[k], after.values[k], before.text, after.text)
		}
	}
}

// checkLocal checks that the lines of after are those of before but for
// before's lines [lo, hi), which may have become any lines.
func checkLocal(t *testing.T, before, after *view, lo, hi int) {
	t.Helper()
	b, a := before.lines, after.lines
	tail := len(b) - hi
	if len(a) < lo+tail || !slices.Equal(a[:lo], b[:lo]) || !slices.Equal(a[len(a)-tail:], b[hi:]) {
		t.Fatalf("lines outside [%d,%d) changed:\nbefore %q\nafter  %q", lo, hi, before.text, after.text)
	}
}

// equalValues is reflect.DeepEqual where NaN equals NaN.
func equalValues(a, b any) bool {
	if x, ok := a.(float64); ok {
		y, ok := b.(float64)
		return ok && (x == y || math.IsNaN(x) && math.IsNaN(y))
	}
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalValues(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k := range x {
			if !equalValues(x[k], y[k]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}
