package frontmatter

import (
	"sort"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// entry is one top-level key of a block mapping and the byte spans an edit
// needs, all offsets into Doc.text:
//
//	lineStart  keyStart  colonEnd valStart      valEnd      keyLineEnd
//	|          |         |        |             |           |
//	"  "       "title"   ":"  " " "'Old title'" " # note"   "\n"
//
// end is the start of the first line after the entry: the key's line, the
// lines of a block value, and comment lines indented under the key.
type entry struct {
	key   string
	named bool // the key is a scalar (lists and mappings as keys have no name)
	k     *yaml.Node
	val   *yaml.Node

	editable bool   // the spans below are known
	why      string // why not, when not

	lineStart  int
	keyStart   int
	colonEnd   int
	keyLineEnd int
	valStart   int // the value's first byte, properties (&anchor, !tag) included
	cs         int // the value's content, after its properties
	valEnd     int
	precise    bool // valEnd is the end of the value's last token (else of its last line)
	end        int
}

// onKeyLine reports whether the value starts on the key's line (an empty
// value does too).
func (e *entry) onKeyLine() bool { return e.valStart <= e.keyLineEnd }

// lineStarts returns the offsets of the lines of text[start:end] as yaml.v3
// counts them: "\r\n", "\r", "\n", NEL, LS and PS all end a line.
func lineStarts(text string, start, end int) []int {
	// Most lines end with "\n": counted first, the slice grows once.
	starts := append(make([]int, 0, strings.Count(text[start:end], "\n")+2), start)
	for p := start; p < end; {
		switch c := text[p]; {
		case c == '\n':
			p++
		case c == '\r':
			p++
			if p < end && text[p] == '\n' {
				p++
			}
		case c == 0xC2 && p+1 < end && text[p+1] == 0x85:
			p += 2
		case c == 0xE2 && p+2 < end && text[p+1] == 0x80 && (text[p+2] == 0xA8 || text[p+2] == 0xA9):
			p += 3
		default:
			p++
			continue
		}
		starts = append(starts, p)
	}
	return starts
}

// offset turns a yaml.v3 position (1-based line and column, the column
// counting characters, not bytes) into a byte offset in the text.
func (d *Doc) offset(line, col int) int {
	if line < 1 {
		line = 1
	}
	if line > len(d.lines) {
		return d.contentEnd
	}
	p := d.lines[line-1]
	for i := 1; i < col && p < d.contentEnd; i++ {
		_, w := utf8.DecodeRuneInString(d.text[p:d.contentEnd])
		p += w
	}
	return p
}

// lineOf returns the 0-based YAML line holding byte offset p.
func (d *Doc) lineOf(p int) int {
	return sort.Search(len(d.lines), func(i int) bool { return d.lines[i] > p }) - 1
}

// lineStartOf returns the start of the "\n"-terminated line holding p.
func (d *Doc) lineStartOf(p int) int {
	return strings.LastIndexByte(d.text[:p], '\n') + 1
}

// lineEndFrom returns the offset of the line ending at or after p (the end
// of the text when there is none).
func (d *Doc) lineEndFrom(p int) int {
	_, end, _ := lineAt(d.text, d.lineStartOf(p))
	if end < p { // p sits inside a "\r\n"
		return p
	}
	return end
}

// nextLine returns the start of the line after the one holding p.
func (d *Doc) nextLine(p int) int {
	_, end, nl := lineAt(d.text, d.lineStartOf(p))
	return end + len(nl)
}

// layout computes the entries of the top-level mapping: their keys and
// values. Their spans, which only an edit needs, are measured on the
// first edit (spans): most notes are read, never edited, and in the wasm
// engine measuring cost a quarter of reading a note.
func (d *Doc) layout() error {
	r := d.root
	n := len(r.Content) / 2
	d.entries = make([]entry, n)
	for i := range d.entries {
		e := &d.entries[i]
		e.k, e.val = r.Content[2*i], r.Content[2*i+1]
		e.key, e.named = keyName(e.k)
	}
	return nil
}

// spans measures, once, the entries' spans and the mapping's indent. A
// Doc is shared (Parse's recent ones), so the first edit measures it under
// a sync.Once.
func (d *Doc) spans() {
	d.measured.Do(d.measureAll)
}

func (d *Doc) measureAll() {
	r := d.root
	if r == nil {
		return
	}
	n := len(d.entries)
	if d.flow {
		for i := range d.entries {
			d.entries[i].why = "flow"
		}
		return
	}
	for i := range d.entries {
		e := &d.entries[i]
		e.keyStart = d.offset(e.k.Line, e.k.Column)
		e.lineStart = d.lineStartOf(e.keyStart)
	}
	// The mapping's indent: that of its first key written on a line of its
	// own ("? key" puts the key further right).
	d.indent = max(r.Column-1, 0)
	for i := range d.entries {
		e := &d.entries[i]
		if strings.Trim(d.text[e.lineStart:e.keyStart], " ") == "" {
			d.indent = e.keyStart - e.lineStart
			break
		}
	}
	for i := range d.entries {
		regionEnd := d.contentEnd
		if i+1 < n {
			regionEnd = d.entries[i+1].lineStart
		}
		d.measure(&d.entries[i], regionEnd)
	}
}

// measure fills the spans of e, whose lines end at or before regionEnd (the
// next key's line).
func (d *Doc) measure(e *entry, regionEnd int) {
	t := d.text
	if strings.Trim(t[e.lineStart:e.keyStart], " ") != "" {
		e.why = "it does not start its own line"
		return
	}
	_, e.keyLineEnd, _ = lineAt(t, e.lineStart)
	_, kEnd, kPrecise := d.valueEnd(e.k, e.keyStart)
	if !kPrecise || kEnd > e.keyLineEnd {
		e.why = "its key is not a one-line scalar"
		return
	}
	p := skipBlanks(t, kEnd, e.keyLineEnd)
	if p >= e.keyLineEnd || t[p] != ':' {
		e.why = "its ':' is not on the key's line"
		return
	}
	e.colonEnd = p + 1
	e.valStart = d.offset(e.val.Line, e.val.Column)
	if e.valStart < e.colonEnd || e.valStart > regionEnd {
		e.why = "its value lies outside its lines"
		return
	}
	// The last line that belongs to the entry: not blank, and not a comment
	// at or left of the key's column (that one belongs to what follows).
	lastKept := e.keyLineEnd
	_, _, nl := lineAt(t, e.lineStart)
	for p := e.keyLineEnd + len(nl); p < regionEnd && nl != ""; {
		var line string
		var end int
		line, end, nl = lineAt(t, p)
		body := strings.TrimLeft(line, " \t")
		if body != "" && (body[0] != '#' || len(line)-len(body) > d.indent) {
			lastKept = end
		}
		p = end + len(nl)
	}
	cs, end, precise := d.valueEnd(e.val, e.valStart)
	e.cs = cs
	if !precise {
		end = lastKept
		if end < cs {
			e.why = "its value could not be measured"
			return
		}
	}
	e.valEnd, e.precise = end, precise
	e.end = d.nextLine(max(end, lastKept))
	if e.end > regionEnd && regionEnd != d.contentEnd || e.end > d.contentEnd {
		e.why = "its value could not be measured"
		return
	}
	e.editable = true
}

// skipBlanks skips spaces and tabs from p, up to limit.
func skipBlanks(t string, p, limit int) int {
	for p < limit && (t[p] == ' ' || t[p] == '\t') {
		p++
	}
	return p
}

// valueEnd measures node n, which starts at byte p: cs is where its content
// starts (after &anchor and !tag), end where it stops. precise is false for
// block scalars, block collections and multi-line plain scalars, whose end
// the caller takes from the lines instead.
func (d *Doc) valueEnd(n *yaml.Node, p int) (cs, end int, precise bool) {
	t := d.text[:d.contentEnd]
	if n.Kind == yaml.AliasNode {
		if p < len(t) && t[p] == '*' && strings.HasPrefix(t[p+1:], n.Value) {
			return p, p + 1 + len(n.Value), true
		}
		return p, p, false
	}
	// Properties: &anchor and !tag, each followed by blanks.
	propsEnd := p
	cs = p
	for cs < len(t) && (t[cs] == '&' || t[cs] == '!') {
		q := cs
		for q < len(t) && !isBlank(t[q]) {
			q++
		}
		propsEnd = q
		cs = skipSpace(t, q)
	}
	switch n.Kind {
	case yaml.ScalarNode:
		switch {
		case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
			return cs, 0, false
		case n.Style&yaml.DoubleQuotedStyle != 0:
			if cs < len(t) && t[cs] == '"' {
				if e := scanDouble(t, cs); e > 0 {
					return cs, e, true
				}
			}
			return cs, 0, false
		case n.Style&yaml.SingleQuotedStyle != 0:
			if cs < len(t) && t[cs] == '\'' {
				if e := scanSingle(t, cs); e > 0 {
					return cs, e, true
				}
			}
			return cs, 0, false
		case n.Value == "":
			return propsEnd, propsEnd, true
		case !strings.Contains(n.Value, "\n") && strings.HasPrefix(t[cs:], n.Value):
			// A plain scalar whose text is its value lies on one line: folding
			// would have turned a line break into a space.
			return cs, cs + len(n.Value), true
		}
		return cs, 0, false
	case yaml.SequenceNode, yaml.MappingNode:
		if n.Style&yaml.FlowStyle != 0 && cs < len(t) && (t[cs] == '[' || t[cs] == '{') {
			if e, _, ok := flowEnd(t, cs); ok {
				return cs, e, true
			}
		}
	}
	return cs, 0, false
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// skipSpace skips blanks, line breaks and comments.
func skipSpace(t string, p int) int {
	for p < len(t) {
		switch {
		case isBlank(t[p]):
			p++
		case t[p] == '#' && p > 0 && isBlank(t[p-1]):
			i := strings.IndexByte(t[p:], '\n')
			if i < 0 {
				return len(t)
			}
			p += i
		default:
			return p
		}
	}
	return p
}

// scanDouble returns the offset after the double-quoted scalar opening at
// t[p], or -1.
func scanDouble(t string, p int) int {
	for i := p + 1; i < len(t); i++ {
		switch t[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// scanSingle returns the offset after the single-quoted scalar opening at
// t[p], or -1.
func scanSingle(t string, p int) int {
	for i := p + 1; i < len(t); i++ {
		if t[i] == '\'' {
			if i+1 < len(t) && t[i+1] == '\'' {
				i++
				continue
			}
			return i + 1
		}
	}
	return -1
}

func isFlowIndicator(c byte) bool {
	return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'
}

// flowEnd measures the flow collection opening at t[p] ('[' or '{'): end is
// the offset after its closing bracket, last the offset after its last
// token before that bracket (p+1 when it is empty). The text is known to be
// valid YAML; this only tells tokens apart.
func flowEnd(t string, p int) (end, last int, ok bool) {
	depth := 0
	last = p
	for i := p; i < len(t); {
		c := t[i]
		switch {
		case isBlank(c):
			i++
			continue
		case c == '#' && i > 0 && isBlank(t[i-1]):
			j := strings.IndexByte(t[i:], '\n')
			if j < 0 {
				return 0, 0, false
			}
			i += j
			continue
		case c == '[' || c == '{':
			depth++
			i++
		case c == ']' || c == '}':
			depth--
			if depth == 0 {
				return i + 1, last, true
			}
			i++
		case c == ',' || c == ':' || c == '?' && i+1 < len(t) && isBlank(t[i+1]):
			i++
		case c == '"':
			if i = scanDouble(t, i); i < 0 {
				return 0, 0, false
			}
		case c == '\'':
			if i = scanSingle(t, i); i < 0 {
				return 0, 0, false
			}
		case c == '&' || c == '!' || c == '*':
			for i < len(t) && !isBlank(t[i]) && !isFlowIndicator(t[i]) {
				i++
			}
		default: // a plain scalar, maybe over several lines
			j, lastChar := i, i
			for j < len(t) {
				ch := t[j]
				if isFlowIndicator(ch) ||
					ch == ':' && (j+1 >= len(t) || isBlank(t[j+1]) || isFlowIndicator(t[j+1])) ||
					ch == '#' && isBlank(t[j-1]) {
					break
				}
				j++
				if !isBlank(ch) {
					lastChar = j
				}
			}
			i, last = j, lastChar
			continue
		}
		last = i
	}
	return 0, 0, false
}

// seqIndent returns the column of the dashes of e's block list, or -1 when
// the text before its first dash is not plain indentation.
func (d *Doc) seqIndent(e *entry) int {
	ls := d.lineStartOf(e.cs)
	if e.cs >= len(d.text) || d.text[e.cs] != '-' || strings.Trim(d.text[ls:e.cs], " ") != "" {
		return -1
	}
	return e.cs - ls
}

// listIndent is the column for the dashes of a new block list: the file's
// own habit (the first block list's offset from its key), or two spaces
// under the key.
func (d *Doc) listIndent() int {
	for i := range d.entries {
		e := &d.entries[i]
		if e.editable && e.val.Kind == yaml.SequenceNode && e.val.Style&yaml.FlowStyle == 0 && len(e.val.Content) > 0 {
			if c := d.seqIndent(e); c >= d.indent {
				return c
			}
		}
	}
	return d.indent + 2
}
