package frontmatter

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/kessho/kessho/core/eol"
)

// Set gives a top-level key a value and returns the new text. Only the
// bytes of that key's value change (its lines, for a block value); a new key
// becomes the last line of the frontmatter; a file without frontmatter gets
// one, in front of its untouched body (after a BOM).
//
//	text, err := c.Set(text, "phase", "review")
//	text, err = c.Set(text, "tags", []string{"a", "b"})
//
// value is a string, []string, bool, int, float64 or nil (written null);
// map[string]any, []any and anything else yaml.v3 can marshal are written
// as a block under the key.
//
// A string keeps the style of the scalar it replaces (plain, 'single',
// "double") when that style can carry it, and the comment after it; else,
// and for a new scalar, it is plain when YAML reads it back as the same
// string, double-quoted otherwise ("yes", "007", "10:15", ": x", "").
// A []string keeps a flow list flow and a block list block, at its indent;
// a new list is a block list, an empty one is [].
//
// The error is an *Error when the frontmatter is invalid or a flow mapping.
// Set parses text, and its result to check it, through c (nil: no cache).
func (c *Cache) Set(text, key string, value any) (string, error) {
	d, err := c.Parse(text)
	if err != nil {
		return "", err
	}
	if !utf8.ValidString(key) {
		return "", fmt.Errorf("frontmatter: set: key %q is not valid UTF-8", key)
	}
	want, err := expected(value)
	if err != nil {
		return "", err
	}
	e := d.find(key)
	if err := d.editable(e, key, "set"); err != nil {
		return "", err
	}
	var out string
	if e == nil {
		out, err = d.insert(key, value)
	} else {
		out, err = d.replace(e, value)
	}
	if err != nil {
		return "", err
	}
	return d.checked(c, out, key, e == nil, false, want)
}

// Remove deletes a top-level key and returns the new text: the key's line
// goes, with the lines of its block value and the comment lines indented
// under it, and nothing else. An absent key leaves the text unchanged.
//
//	text, err := c.Remove(text, "draft")
//
// Remove parses text, and its result to check it, through c (nil: no
// cache).
func (c *Cache) Remove(text, key string) (string, error) {
	d, err := c.Parse(text)
	if err != nil {
		return "", err
	}
	e := d.find(key)
	if e == nil {
		return text, nil
	}
	if err := d.editable(e, key, "remove"); err != nil {
		return "", err
	}
	if err := d.anchorsFree(e.k, e.val, key, "remove"); err != nil {
		return "", err
	}
	out := splice(text, e.lineStart, e.end, "")
	return d.checked(c, out, key, false, true, nil)
}

// SetBody replaces the body (everything after the closing delimiter line)
// and returns the new text; the frontmatter bytes stay. Without
// frontmatter, the whole text after a BOM is the body.
//
//	text, err := c.SetBody(text, "# Context\n\nNew body.\n")
//
// # Notes
//
// When the closing delimiter is the last line and has no line ending, one
// (the file's) is added before a non-empty body. A file without frontmatter
// whose new body starts with a "---" line gets an empty frontmatter
// ("---\n---\n") first, so that the body still reads back as a body.
// SetBody parses text through c (nil: no cache).
func (c *Cache) SetBody(text, body string) (string, error) {
	d, err := c.Parse(text)
	if err != nil {
		return "", err
	}
	head := text[:d.bodyStart]
	switch {
	case d.has && !d.closeNL && body != "":
		head += d.nl
	case !d.has:
		if first, _, nl := lineAt(eol.LoneCR(body), 0); nl != "" && isDelimiter(first, false) {
			head += "---" + d.nl + "---" + d.nl
		}
	}
	return head + body, nil
}

// editable refuses an edit the layout cannot make in place. e is nil for a
// new key.
func (d *Doc) editable(e *entry, key, op string) error {
	d.spans()
	if d.flow {
		return &Error{Line: d.fileLine(d.root.Line), Reason: "frontmatter is a flow mapping ({…}); write one key per line to edit it"}
	}
	if e != nil && !e.editable {
		return fmt.Errorf("frontmatter: cannot %s %q in place: %s", op, key, e.why)
	}
	return nil
}

// anchorsFree refuses to drop nodes (a key, a value) that define an anchor
// some alias elsewhere in the frontmatter uses.
func (d *Doc) anchorsFree(k, v *yaml.Node, key, op string) error {
	inside := map[*yaml.Node]bool{}
	var mark func(n *yaml.Node)
	mark = func(n *yaml.Node) {
		if n == nil || inside[n] {
			return
		}
		inside[n] = true
		for _, c := range n.Content {
			mark(c)
		}
	}
	mark(k)
	mark(v)
	var used string
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil || inside[n] || used != "" {
			return
		}
		if n.Kind == yaml.AliasNode && inside[n.Alias] {
			used = n.Alias.Anchor
			return
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(d.root)
	if used != "" {
		return fmt.Errorf("frontmatter: cannot %s %q: it defines the anchor &%s that another key uses", op, key, used)
	}
	return nil
}

// splice returns text with text[start:end] replaced by s.
func splice(text string, start, end int, s string) string {
	return text[:start] + s + text[end:]
}

// rendered is a value ready to write: inline (on the key's line) or as
// block lines (already indented, without line endings).
type rendered struct {
	inline string
	block  []string
}

// render writes value for a key whose old value is old (nil for a new key).
func (d *Doc) render(value any, old *entry) (rendered, error) {
	switch v := value.(type) {
	case string:
		style := yaml.Style(0)
		if old != nil && old.val.Kind == yaml.ScalarNode {
			style = old.val.Style & quoteStyles
		}
		return rendered{inline: formatString(v, style, asValue)}, nil
	case []string:
		if len(v) == 0 {
			return rendered{inline: "[]"}, nil
		}
		if old != nil && old.val.Kind == yaml.SequenceNode && old.val.Style&yaml.FlowStyle != 0 {
			return rendered{inline: flowList(v, flowItemStyle(old.val))}, nil
		}
		ind := -1
		if old != nil && old.val.Kind == yaml.SequenceNode {
			ind = d.seqIndent(old)
		}
		if ind < 0 {
			ind = d.listIndent()
		}
		lines := make([]string, len(v))
		for i, s := range v {
			lines[i] = strings.Repeat(" ", ind) + "- " + formatString(s, 0, asBlockItem)
		}
		return rendered{block: lines}, nil
	}
	if s, ok := literal(value); ok {
		return rendered{inline: s}, nil
	}
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(value); err != nil {
		return rendered{}, fmt.Errorf("frontmatter: set: cannot write a %T: %v", value, err)
	}
	if err := enc.Close(); err != nil {
		return rendered{}, fmt.Errorf("frontmatter: set: cannot write a %T: %v", value, err)
	}
	out := strings.TrimSuffix(b.String(), "\n")
	if !strings.Contains(out, "\n") {
		return rendered{inline: out}, nil
	}
	ind := d.indent + 2
	if strings.HasPrefix(out, "- ") {
		ind = d.listIndent()
	}
	pad := strings.Repeat(" ", ind)
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pad + l
		}
	}
	return rendered{block: lines}, nil
}

// flowItemStyle is the quoting of a flow list's last item, which new items
// copy when they can.
func flowItemStyle(list *yaml.Node) yaml.Style {
	if n := len(list.Content); n > 0 && list.Content[n-1].Kind == yaml.ScalarNode {
		return list.Content[n-1].Style & quoteStyles
	}
	return 0
}

// flowList writes items as a flow list: [a, "b c", d].
func flowList(items []string, style yaml.Style) string {
	parts := make([]string, len(items))
	for i, s := range items {
		parts[i] = formatString(s, style, asFlowItem)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// insert appends a new key as the last line of the frontmatter (creating
// the frontmatter when there is none).
func (d *Doc) insert(key string, value any) (string, error) {
	r, err := d.render(value, nil)
	if err != nil {
		return "", err
	}
	line := strings.Repeat(" ", d.indent) + formatString(key, 0, asKey) + ":"
	if r.block == nil {
		line += " " + r.inline + d.nl
	} else {
		line += d.nl + strings.Join(r.block, d.nl) + d.nl
	}
	if !d.has {
		return d.src[:d.bomLen] + "---" + d.nl + line + "---" + d.nl + d.src[d.bomLen:], nil
	}
	return splice(d.src, d.contentEnd, d.contentEnd, line), nil
}

// replace gives the existing entry e a new value.
func (d *Doc) replace(e *entry, value any) (string, error) {
	if err := d.anchorsFree(nil, e.val, e.key, "set"); err != nil {
		return "", err
	}
	r, err := d.render(value, e)
	if err != nil {
		return "", err
	}
	t := d.src // offsets are the same in d.text; the file's own bytes are kept
	if r.block == nil {
		switch {
		case e.valStart == e.valEnd: // empty value, right after the colon
			return splice(t, e.valStart, e.valEnd, " "+r.inline), nil
		case e.precise || e.onKeyLine():
			return splice(t, e.valStart, e.valEnd, r.inline), nil
		}
		// A block value below the key collapses onto the key's line; a
		// comment on that line stays.
		rest := t[e.colonEnd:e.keyLineEnd]
		if !strings.Contains(rest, "#") {
			rest = ""
		}
		return splice(t, e.colonEnd, e.valEnd, " "+r.inline+rest), nil
	}
	block := strings.Join(r.block, d.nl)
	le := d.lineEndFrom(e.valEnd)
	if e.onKeyLine() {
		rest := t[e.valEnd:le]
		if strings.TrimSpace(rest) == "" {
			rest = ""
		}
		return splice(t, e.colonEnd, le, rest+d.nl+block), nil
	}
	return splice(t, e.keyLineEnd, le, d.nl+block), nil
}

// expected is what Lookup must give back after value is set.
func expected(value any) (any, error) {
	switch v := value.(type) {
	case string:
		if !utf8.ValidString(v) {
			return nil, fmt.Errorf("frontmatter: set: value %q is not valid UTF-8", v)
		}
		return v, nil
	case []string:
		out := make([]any, len(v))
		for i, s := range v {
			if !utf8.ValidString(s) {
				return nil, fmt.Errorf("frontmatter: set: item %q is not valid UTF-8", s)
			}
			out[i] = s
		}
		return out, nil
	}
	if _, ok := literal(value); ok {
		return value, nil
	}
	b, err := yaml.Marshal(value)
	if err != nil {
		return nil, fmt.Errorf("frontmatter: set: cannot write a %T: %v", value, err)
	}
	var n yaml.Node
	var back any
	if err = yaml.Unmarshal(b, &n); err == nil && len(n.Content) == 1 {
		untime(n.Content[0])
		err = n.Content[0].Decode(&back)
	}
	if err != nil {
		return nil, fmt.Errorf("frontmatter: set: cannot write a %T: %v", value, err)
	}
	return normalize(back), nil
}

// checked returns out when check accepts it, else the error and no text;
// out is parsed through c.
func (d *Doc) checked(c *Cache, out, key string, added, removed bool, want any) (string, error) {
	if err := d.check(c, out, key, added, removed, want); err != nil {
		return "", err
	}
	return out, nil
}

// check parses the edited text out and verifies SPEC section 2's promise:
// the body and BOM unchanged, the same keys in the same order (plus key when
// added, minus key when removed), every other key's value unchanged, and
// key reading back as want.
func (d *Doc) check(c *Cache, out, key string, added, removed bool, want any) error {
	fail := func(why string) error {
		return fmt.Errorf("frontmatter: cannot edit %q in place: the result would not read back as intended (%s)", key, why)
	}
	n, err := c.Parse(out)
	if err != nil {
		return fail(err.Error())
	}
	if n.Body() != d.Body() || n.bomLen != d.bomLen || !n.has {
		return fail("the body would change")
	}
	keys := d.Keys()
	switch {
	case added:
		keys = append(keys, key)
	case removed:
		keys = keysWithout(keys, key)
	}
	got := n.Keys()
	if len(got) != len(keys) {
		return fail("the keys would change")
	}
	for i := range keys {
		if got[i] != keys[i] {
			return fail("the keys would change")
		}
	}
	for _, k := range keys {
		if k == key {
			if a, _ := n.Lookup(k); !same(a, want) {
				return fail("the value would read back differently")
			}
			continue
		}
		if ea, eb := n.find(k), d.find(k); ea != nil && eb != nil && sameNode(ea.val, eb.val) {
			continue // the same tree decodes to the same value
		}
		a, _ := n.Lookup(k)
		b, _ := d.Lookup(k)
		if !same(a, b) {
			return fail(fmt.Sprintf("key %q would change", k))
		}
	}
	return nil
}

func keysWithout(keys []string, key string) []string {
	out := keys[:0:0]
	for _, k := range keys {
		if k != key {
			out = append(out, k)
		}
	}
	return out
}

// sameNode reports whether a and b are the same tree: kinds, tags, styles
// and texts equal all the way down (positions aside), so that they decode
// to the same value. It lets check compare the keys an edit left alone
// without decoding them twice each (yaml.v3's reflective decode was most of
// a mem_update_phase on the wasm engine). It says false when unsure: a tree
// holding an alias may decode otherwise, since the anchor it names may be
// what the edit changed; check then decodes both.
func sameNode(a, b *yaml.Node) bool {
	if a.Kind != b.Kind || a.Kind == yaml.AliasNode || a.Tag != b.Tag || a.Style != b.Style ||
		a.Value != b.Value || len(a.Content) != len(b.Content) {
		return false
	}
	for i := range a.Content {
		if !sameNode(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

// same is reflect.DeepEqual where NaN equals NaN.
func same(a, b any) bool {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && (x == y || math.IsNaN(x) && math.IsNaN(y))
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !same(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !same(v, w) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}
