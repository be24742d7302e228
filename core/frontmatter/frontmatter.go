// Package frontmatter reads and edits the YAML frontmatter of a Markdown note
// without re-serialising it: an edit rewrites only the bytes of the key it
// touches, and every other byte of the file (key order, comments, quoting,
// flow lists, blank lines, trailing spaces, CRLF, a UTF-8 BOM, the body) stays
// as it was (SPEC section 2).
//
// Reading:
//
//	d, err := frontmatter.Parse(text)
//	if err != nil { … }            // *frontmatter.Error: not a YAML mapping, or unclosed
//	phase, _ := d.String("phase")
//	tags, _ := d.Strings("tags")
//
// Editing: each edit takes the whole file and returns the whole new file.
// The edits are methods of a Cache, which keeps the last Docs parsed (the
// nil *Cache keeps none):
//
//	var c frontmatter.Cache // kept as long as its owner (tools.State)
//	text, err = c.Set(text, "phase", "review")
//	text, err = c.Remove(text, "draft")
//	text, err = c.SetBody(text, newBody)
//
// A file has frontmatter when its first line (after an optional BOM) is
// exactly "---" (trailing spaces allowed); the block ends at the next line
// that is "---" or "...". The YAML inside is read with yaml.v3's Node API and
// edited by splicing at the nodes' positions.
//
// Lines end in "\n", "\r\n" or a lone "\r" (classic Mac OS), as in YAML
// itself. A file with lone "\r" endings is read through a copy in which
// each of them is a "\n": the copy has the same length and every offset in
// it is an offset in the file, so edits splice the file's own bytes and
// write its own line ending.
//
// # Notes
//
//   - Every edit re-parses its result and checks it: the edited key reads
//     back as the value set, every other key reads back unchanged, the body is
//     byte-identical. An edit that cannot meet that (an anchor another key
//     uses, a key written as "? key", a key longer than YAML allows…) returns
//     an error and no text, never a damaged file.
//   - A top-level flow mapping ("---\n{a: 1}\n---") is read normally but
//     refused by Set and Remove with an *Error: splicing it would mean
//     rewriting the line, so the user is asked to write one key per line.
//   - Merge keys are ordinary keys here: Keys lists "<<", not the keys it
//     merges in, and Set of a merged-in key adds an explicit key that
//     overrides it.
//   - The package is pure (no I/O); it is compiled to GOOS=wasip1 as well.
package frontmatter

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/kessho/kessho/core/eol"
)

// Error is a refusal: the frontmatter does not parse as a YAML mapping, or
// it is opened and never closed. Line is 1-based in the whole file, the
// opening "---" being line 1. Reason is lowercase English.
//
// Callers turn it into FRONTMATTER_INVALID:
//
//	var fe *frontmatter.Error
//	if errors.As(err, &fe) { … fe.Line … }
type Error struct {
	Line   int
	Reason string
}

// Error returns "frontmatter line N: reason".
func (e *Error) Error() string {
	return "frontmatter line " + strconv.Itoa(e.Line) + ": " + e.Reason
}

// Doc is a parsed note: where its frontmatter lies in the text, the YAML
// nodes inside it, and the body after it. A Doc never changes; the edit
// functions build new text from it.
type Doc struct {
	text   string // what is read: src with each lone "\r" made "\n"
	src    string // the file as given, what edits splice
	bomLen int
	nl     string
	has    bool

	contentStart int // first byte of the YAML (after the opening line)
	contentEnd   int // first byte of the closing delimiter line
	bodyStart    int // first byte after the closing delimiter line
	closeNL      bool

	root    *yaml.Node // the top-level mapping; nil when the frontmatter is empty
	flow    bool       // root is a flow mapping ({…})
	indent  int        // column (0-based) of the top-level keys
	lines   []int      // start offsets (in text) of the YAML lines, as yaml.v3 counts lines
	entries []entry
	// measured guards the entries' spans and indent, measured on the
	// first edit (spans).
	measured sync.Once
}

const bom = "\ufeff"

// Parse reads text (a whole note) and returns its Doc. A note without
// frontmatter is fine (HasFrontmatter is false); frontmatter that is not a
// YAML mapping, or that is never closed, gives an *Error. It parses text
// each time; a Cache keeps the last Docs.
func Parse(text string) (*Doc, error) { return parse(text) }

// Cache is Parse and the edits (Set, Remove, SetBody) keeping the last
// Docs they parsed. A tool reads a note, then edits it (each edit parses
// the text again), and the edit's check reads the result: without it, the
// same text is parsed two or three times in a call, and again by the next
// call that reads the note. A Doc never changes, so sharing one is safe.
// Whoever runs the tools keeps one per engine instance (tools.State). A
// Cache is safe for concurrent use; the nil *Cache keeps nothing (the
// package's functions).
type Cache struct {
	mu   sync.Mutex
	docs [4]*Doc
	next int
}

// Parse is the package's Parse, the Doc taken from the cache when it
// holds one of text.
func (c *Cache) Parse(text string) (*Doc, error) {
	if d := c.recall(text); d != nil {
		return d, nil
	}
	d, err := parse(text)
	if err == nil {
		c.remember(d)
	}
	return d, err
}

func (c *Cache) recall(text string) *Doc {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, d := range c.docs {
		if d != nil && d.src == text {
			return d
		}
	}
	return nil
}

func (c *Cache) remember(d *Doc) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.docs[c.next] = d
	c.next = (c.next + 1) % len(c.docs)
}

func parse(text string) (*Doc, error) {
	d, err := split(text)
	if err != nil || !d.has {
		return d, err
	}
	if err := d.parseYAML(); err != nil {
		return nil, err
	}
	return d, nil
}

// Fields is what ReadFields read of a note: the values of the keys it
// was asked for, and where the body starts. It is no Doc: nothing edits
// it, nothing lists its keys.
type Fields struct{ d *Doc }

// ReadFields reads text as Parse does, keeping of its frontmatter the
// top-level keys of keep alone: it fails where Parse fails, and String
// and Strings of those keys, Body and BodyOffset answer what the Doc's
// would (TestReadFieldsIsParse). The search index reads seven keys of
// every note: a Doc's nodes for every key, its lines' offsets, were most
// of what a first build allocated (some 6 KB a note).
func ReadFields(text string, keep ...string) (Fields, error) {
	d, err := split(text)
	if err != nil || !d.has {
		return Fields{d}, err
	}
	if simple {
		if root, ok := simpleKept(d.text[d.contentStart:d.contentEnd], keep); ok {
			untime(root)
			d.root = root
			return Fields{d}, d.layout()
		}
	}
	return Fields{d}, d.parseYAML()
}

// String is Doc.String of a key ReadFields kept.
func (f Fields) String(key string) (string, bool) { return f.d.String(key) }

// Strings is Doc.Strings of a key ReadFields kept.
func (f Fields) Strings(key string) ([]string, bool) { return f.d.Strings(key) }

// Body is Doc.Body.
func (f Fields) Body() string { return f.d.Body() }

// BodyOffset is Doc.BodyOffset.
func (f Fields) BodyOffset() int { return f.d.BodyOffset() }

// split reads text's frontmatter delimiters, its line endings and where
// its body starts: a Doc without its YAML read (parseYAML), or with none.
func split(text string) (*Doc, error) {
	d := &Doc{src: text, nl: "\n"}
	text = eol.LoneCR(text) // lone-CR lines read as lines, offsets kept
	d.text = text
	if strings.HasPrefix(text, bom) {
		d.bomLen = len(bom)
	}
	first, firstEnd, nl := lineAt(text, d.bomLen)
	if nl == "\n" && d.src[firstEnd] == '\r' {
		nl = "\r" // a lone "\r" in the file
	}
	if nl != "" {
		d.nl = nl
	}
	if nl == "" || !isDelimiter(first, false) {
		d.bodyStart = d.bomLen
		d.contentStart, d.contentEnd = d.bomLen, d.bomLen
		return d, nil
	}
	d.has = true
	d.contentStart = firstEnd + len(nl) // "\r" and "\n" have one length
	closed := false
	for p := d.contentStart; p < len(text); {
		line, end, lnl := lineAt(text, p)
		if isDelimiter(line, true) {
			d.contentEnd = p
			d.bodyStart = end + len(lnl)
			d.closeNL = lnl != ""
			closed = true
			break
		}
		if lnl == "" {
			break
		}
		p = end + len(lnl)
	}
	if !closed {
		return nil, &Error{Line: 1, Reason: "unclosed frontmatter"}
	}
	return d, nil
}

// lineAt returns the line starting at p without its line ending, the offset
// where that ending starts, and the ending itself ("\r\n", "\n", or "" at
// the end of the text).
func lineAt(text string, p int) (line string, end int, nl string) {
	i := strings.IndexByte(text[p:], '\n')
	if i < 0 {
		return text[p:], len(text), ""
	}
	end = p + i
	if end > p && text[end-1] == '\r' {
		return text[p : end-1], end - 1, "\r\n"
	}
	return text[p:end], end, "\n"
}

// isDelimiter reports whether line is "---" (or, closing, "...") followed
// by nothing but spaces or tabs.
func isDelimiter(line string, closing bool) bool {
	t := strings.TrimRight(line, " \t")
	return t == "---" || closing && t == "..."
}

// parseYAML reads the YAML between the delimiters into d.root and lays out
// its entries.
func (d *Doc) parseYAML() error {
	content := d.text[d.contentStart:d.contentEnd]
	d.lines = lineStarts(d.text, d.contentStart, d.contentEnd)
	if root, ok := fastPath(content); ok {
		// One key a line, each once: no decode can fail, no key repeats.
		untime(root)
		d.root = root
		return d.layout()
	}
	dec := yaml.NewDecoder(strings.NewReader(content))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil // nothing but comments or blank lines: an empty mapping
		}
		return d.yamlError(err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		if err != nil {
			return d.yamlError(err)
		}
		return &Error{Line: d.fileLine(extra.Line), Reason: "more than one yaml document"}
	}
	if len(doc.Content) == 0 {
		return nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		what := "a scalar"
		if root.Kind == yaml.SequenceNode {
			what = "a list"
		} else if root.Kind == yaml.AliasNode {
			what = "an alias"
		}
		return &Error{Line: d.fileLine(root.Line), Reason: "frontmatter is " + what + ", not a mapping"}
	}
	untime(root)
	// Decoding checks what the parser does not: duplicate keys at any depth,
	// bad tags, merge keys that merge nothing.
	var all any
	if err := root.Decode(&all); err != nil {
		return d.yamlError(err)
	}
	d.root = root
	d.flow = root.Style&yaml.FlowStyle != 0
	seen := make(map[string]int, len(root.Content)/2)
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i]
		name, ok := keyName(k)
		if !ok {
			continue
		}
		if prev, dup := seen[name]; dup {
			return &Error{Line: d.fileLine(k.Line), Reason: fmt.Sprintf("mapping key %q already defined at line %d", name, d.fileLine(prev))}
		}
		seen[name] = k.Line
	}
	return d.layout()
}

// untime retags the plain dates and times under n as strings, so that
// Lookup gives back "2026-11-30" as written (yaml.v3 would make it a
// time.Time), as Set writes it. An explicit !!timestamp tag stays.
func untime(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!timestamp" && n.Style&yaml.TaggedStyle == 0 {
		n.Tag = "!!str"
	}
	for _, c := range n.Content {
		untime(c)
	}
}

// fileLine turns a 1-based line of the YAML into a 1-based line of the file.
func (d *Doc) fileLine(yamlLine int) int {
	if yamlLine < 1 {
		yamlLine = 1
	}
	return yamlLine + 1
}

// parserErrors are the messages of yaml.v3's parser (as opposed to its
// scanner): it reports their line 0-based, the scanner 1-based.
var parserErrors = []string{
	"did not find expected <document start>",
	"did not find expected node content",
	"did not find expected key",
	"did not find expected '-' indicator",
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"found undefined tag handle",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found duplicate %TAG directive",
}

// yamlError turns a yaml.v3 error ("yaml: line 3: …", or the unmarshal
// errors "line 3: mapping key …") into an *Error on the file's lines.
func (d *Doc) yamlError(err error) *Error {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	line := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if n, after, ok := cutNumber(rest); ok && strings.HasPrefix(after, ": ") {
			line, msg = n, after[2:]
			for _, p := range parserErrors {
				if msg == p {
					line++
					break
				}
			}
		}
	}
	// "mapping key "a" already defined at line 2": that line is the YAML's too.
	if i := strings.LastIndex(msg, " at line "); i >= 0 {
		if n, after, ok := cutNumber(msg[i+len(" at line "):]); ok && after == "" {
			msg = msg[:i] + " at line " + strconv.Itoa(d.fileLine(n))
		}
	}
	if line == 0 && strings.HasPrefix(msg, "control characters") {
		line = d.controlLine()
	}
	if max := len(d.lines); line > max {
		line = max
	}
	return &Error{Line: d.fileLine(line), Reason: msg}
}

// cutNumber splits a leading decimal number off s.
func cutNumber(s string) (n int, rest string, ok bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, s, false
	}
	n, err := strconv.Atoi(s[:i])
	return n, s[i:], err == nil
}

// controlLine finds the YAML line of the first character yaml.v3 refuses.
func (d *Doc) controlLine() int {
	for i, r := range d.text[d.contentStart:d.contentEnd] {
		if !printable(r) {
			return d.lineOf(d.contentStart+i) + 1
		}
	}
	return 1
}

// HasFrontmatter reports whether the text opens with a frontmatter block.
func (d *Doc) HasFrontmatter() bool { return d.has }

// Keys returns the top-level keys in file order.
func (d *Doc) Keys() []string {
	keys := make([]string, 0, len(d.entries))
	for _, e := range d.entries {
		if e.named {
			keys = append(keys, e.key)
		}
	}
	return keys
}

// Lookup returns the value of a top-level key decoded the way yaml.v3
// decodes into an `any` (string, bool, int, float64, nil, []any), with two
// differences: mappings are always map[string]any (other keys formatted with
// fmt), and a plain date or time (2026-11-30, 2026-11-30T10:15:00+01:00) is
// its string, not a time.Time. ok is false when the key is absent.
//
//	v, ok := d.Lookup("tags") // []any{"a", "b"}, true
func (d *Doc) Lookup(key string) (any, bool) {
	e := d.find(key)
	if e == nil {
		return nil, false
	}
	var v any
	if err := e.val.Decode(&v); err != nil {
		return nil, false // Parse decoded the whole mapping already: unreachable
	}
	return normalize(v), true
}

// String returns the text of a scalar value as written in the YAML, without
// quotes or escapes ("007" for 007, "" for a null). ok is false when the key
// is absent or its value is a list or a mapping.
func (d *Doc) String(key string) (string, bool) {
	e := d.find(key)
	if e == nil {
		return "", false
	}
	return scalarText(e.val)
}

// Strings returns a list of scalars as strings: a list value item by item, a
// single scalar as a one-item list, a null as an empty list. ok is false when
// the key is absent, is a mapping, or its list holds a list or a mapping.
func (d *Doc) Strings(key string) ([]string, bool) {
	e := d.find(key)
	if e == nil {
		return nil, false
	}
	v := resolve(e.val)
	switch v.Kind {
	case yaml.ScalarNode:
		if v.ShortTag() == "!!null" {
			return []string{}, true
		}
		return []string{v.Value}, true
	case yaml.SequenceNode:
		out := make([]string, 0, len(v.Content))
		for _, it := range v.Content {
			s, ok := scalarText(it)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}

// Flow reports whether key's value is written in flow style (`[a, b]` or
// `{a: 1}`): false when the key is absent or its value is a block or a
// scalar. A new note that follows a vault's notes uses it to write its
// lists as they do.
func (d *Doc) Flow(key string) bool {
	e := d.find(key)
	if e == nil {
		return false
	}
	v := resolve(e.val)
	return (v.Kind == yaml.SequenceNode || v.Kind == yaml.MappingNode) && v.Style&yaml.FlowStyle != 0
}

// Body returns every byte after the closing delimiter line; without
// frontmatter, the whole text minus a BOM.
func (d *Doc) Body() string { return d.src[d.bodyStart:] }

// BodyOffset returns the byte offset of Body in the text.
func (d *Doc) BodyOffset() int { return d.bodyStart }

// Newline returns the file's line ending, "\r\n", "\n" or "\r": the one of
// the opening delimiter, or of the first line when there is no frontmatter,
// or "\n" when the text has no line ending at all.
func (d *Doc) Newline() string { return d.nl }

// find returns the entry of a top-level key, or nil.
func (d *Doc) find(key string) *entry {
	for i := range d.entries {
		if d.entries[i].named && d.entries[i].key == key {
			return &d.entries[i]
		}
	}
	return nil
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// keyName is the string form of a key node: the text of a scalar (through
// an alias). Keys that are lists or mappings have none.
func keyName(k *yaml.Node) (string, bool) {
	k = resolve(k)
	if k.Kind != yaml.ScalarNode {
		return "", false
	}
	return k.Value, true
}

// scalarText is the string form of a scalar node ("" for a null).
func scalarText(n *yaml.Node) (string, bool) {
	n = resolve(n)
	if n.Kind != yaml.ScalarNode {
		return "", false
	}
	if n.ShortTag() == "!!null" {
		return "", true
	}
	return n.Value, true
}

// normalize turns the map[any]any yaml.v3 builds for mappings with
// non-string keys into map[string]any, at every depth.
func normalize(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = normalize(x)
		}
		return t
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[fmt.Sprint(k)] = normalize(x)
		}
		return m
	case []any:
		for i, x := range t {
			t[i] = normalize(x)
		}
		return t
	}
	return v
}
