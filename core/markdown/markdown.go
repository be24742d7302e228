// Package markdown reads the structure of notes with goldmark: list items
// and their links, headings and their sections, wikilinks outside code. It
// never renders: every answer is a byte range of the source, so callers
// splice the original text and keep every other byte.
package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/kessho/kessho/core/eol"
)

// md is goldmark's CommonMark parser, as goldmark.New() configures it,
// without the HTML renderer goldmark.New() also links into the wasm
// module (the core never renders).
var md = newParser()

// newParser is a parser configured as md.
func newParser() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
	)
}

// blockParser is md without its inline parsers: the block structure alone
// (goldmark settles every block before it parses a block's inlines, so the
// tree of blocks is md's). Headings and Blocks need no more, and skipping
// the inlines halves their cost (a worklog reads the headings of every
// session of its week).
var blockParser = parser.NewParser(
	parser.WithBlockParsers(parser.DefaultBlockParsers()...),
	parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
)

// parseBlocks is parse with blockParser: blocks whose inline content stays
// unparsed.
func parseBlocks(src []byte) ast.Node { return parseWith(blockParser, src) }

// parse parses src with md: its blocks and their inlines.
func parse(src []byte) ast.Node { return parseWith(md, src) }

// parseWith parses src with p. Lines end in "\n", "\r\n" or a lone "\r"
// (classic Mac OS): goldmark knows only the first two, so it reads a copy
// where each lone "\r" is a "\n". The copy has src's length and offsets,
// so every position found in it is one in src, and callers splice src.
func parseWith(p parser.Parser, src []byte) ast.Node {
	return p.Parse(text.NewReader(eol.LoneCRBytes(src)), parser.WithContext(parser.NewContext()))
}

// lineStart returns the offset of the start of the line holding off.
func lineStart(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' && src[off-1] != '\r' {
		off--
	}
	return off
}

// lineEnd returns the offset just past the line ending of the line holding
// off ("\n", "\r\n" or "\r"), or len(src) for a last line without one.
func lineEnd(src []byte, off int) int {
	for off < len(src) {
		switch src[off] {
		case '\n':
			return off + 1
		case '\r':
			if off+1 < len(src) && src[off+1] == '\n' {
				return off + 2
			}
			return off + 1
		}
		off++
	}
	return off
}

// firstOffset returns the source offset where n's first line of text
// starts, searching its descendants; -1 when it has none.
func firstOffset(n ast.Node) int {
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		return n.Lines().At(0).Start
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if off := firstOffset(c); off >= 0 {
			return off
		}
	}
	return -1
}

// Item is a list item whose first line links somewhere.
type Item struct {
	Start, End int    // the item's first line, line ending included
	Dest       string // the first link's destination, as written
	Line       string // the first line, without its ending
	Text       string // the first link's text, as written (escapes kept)
}

// LinkedItems returns, in document order, every list item (at any depth)
// whose first paragraph holds a Markdown link, with that link's
// destination. Items inside code blocks are not list items and never
// appear.
func LinkedItems(src []byte) []Item {
	var items []Item
	ast.Walk(parse(src), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Kind() != ast.KindListItem {
			return ast.WalkContinue, nil
		}
		block := n.FirstChild()
		if block == nil {
			return ast.WalkContinue, nil
		}
		var dest, text string
		ast.Walk(block, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
			if l, ok := c.(*ast.Link); ok && entering && dest == "" {
				dest, text = string(l.Destination), linkText(l, src)
				return ast.WalkStop, nil
			}
			return ast.WalkContinue, nil
		})
		if dest == "" {
			return ast.WalkContinue, nil
		}
		off := firstOffset(block)
		if off < 0 {
			return ast.WalkContinue, nil
		}
		start := lineStart(src, off)
		end := lineEnd(src, off)
		items = append(items, Item{Start: start, End: end, Dest: dest, Text: text,
			Line: strings.TrimRight(string(src[start:end]), "\r\n")})
		return ast.WalkContinue, nil
	})
	return items
}

// linkText returns the source of link l's text, between its brackets:
// from the first to the last text its inlines hold, widened over the
// code span and emphasis markers that open or close it.
func linkText(l *ast.Link, src []byte) string {
	start, stop := -1, -1
	ast.Walk(l, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			if start < 0 || t.Segment.Start < start {
				start = t.Segment.Start
			}
			stop = max(stop, t.Segment.Stop)
		}
		return ast.WalkContinue, nil
	})
	if start < 0 {
		return ""
	}
	const markers = "`*_~="
	for start > 0 && strings.IndexByte(markers, src[start-1]) >= 0 {
		start--
	}
	for stop < len(src) && strings.IndexByte(markers, src[stop]) >= 0 {
		stop++
	}
	return string(src[start:stop])
}

// WikiLink is a [[target]] or ![[target]] found outside code.
type WikiLink struct {
	Target string // the note name or path, without #heading, ^block or |alias
	Raw    string // the whole link as written, brackets included
}

// WikiLinks returns the wikilinks of src in order, ignoring those inside
// code spans and code blocks (goldmark finds those).
func WikiLinks(src []byte) []WikiLink { return wikiLinksWith(md, src) }

// LinkReader reads wikilinks with a parser of its own: one per goroutine
// (mem_check reads a vault's notes on several), since goldmark does not
// say that its parsers may parse on several at once.
type LinkReader struct{ p parser.Parser }

// NewLinkReader is a LinkReader with its own parser, configured as md.
func NewLinkReader() LinkReader { return LinkReader{newParser()} }

// WikiLinks is the package's WikiLinks, with r's parser.
func (r LinkReader) WikiLinks(src []byte) []WikiLink { return wikiLinksWith(r.p, src) }

func wikiLinksWith(p parser.Parser, src []byte) []WikiLink {
	var links []WikiLink
	doc := parseWith(p, src)
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindCodeBlock, ast.KindFencedCodeBlock, ast.KindCodeSpan, ast.KindHTMLBlock, ast.KindRawHTML:
			return ast.WalkSkipChildren, nil
		}
		if n.Type() != ast.TypeBlock || n.Lines().Len() == 0 || n.HasChildren() && n.FirstChild().Type() == ast.TypeBlock {
			return ast.WalkContinue, nil
		}
		// A leaf block of inlines: scan its text, skipping code spans.
		var b strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			collectText(&b, c, src)
		}
		links = append(links, scanWikiLinks(b.String())...)
		return ast.WalkSkipChildren, nil
	})
	return links
}

// collectText writes the source text of inline n, with code spans blanked
// so that a wikilink never spans one.
func collectText(b *strings.Builder, n ast.Node, src []byte) {
	switch t := n.(type) {
	case *ast.CodeSpan, *ast.RawHTML:
		b.WriteString("\x00")
		return
	case *ast.Text:
		b.Write(t.Segment.Value(src))
		if t.SoftLineBreak() || t.HardLineBreak() {
			b.WriteByte('\n')
		}
		return
	case *ast.String:
		b.Write(t.Value)
		return
	case *ast.AutoLink:
		b.WriteString("\x00")
		return
	case *ast.Link:
		// "[[x]]" never parses as a link, but "[text](dest)" does: keep
		// its text so a wikilink inside link text still counts.
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		collectText(b, c, src)
	}
}

func scanWikiLinks(s string) []WikiLink {
	var links []WikiLink
	for {
		i := strings.Index(s, "[[")
		if i < 0 {
			return links
		}
		j := strings.Index(s[i+2:], "]]")
		if j < 0 {
			return links
		}
		inner := s[i+2 : i+2+j]
		raw := s[i : i+2+j+2]
		if i > 0 && s[i-1] == '!' {
			raw = "!" + raw
		}
		s = s[i+2+j+2:]
		if inner == "" || strings.ContainsAny(inner, "\n\x00[") {
			continue
		}
		target := inner
		if k := strings.IndexByte(target, '|'); k >= 0 {
			target = target[:k]
		}
		if k := strings.IndexAny(target, "#^"); k >= 0 {
			target = target[:k]
		}
		target = strings.TrimSpace(target)
		if target == "" {
			continue // [[#heading]] points into the note itself
		}
		links = append(links, WikiLink{Target: target, Raw: raw})
	}
}

// Heading is a heading of the document.
type Heading struct {
	Level int
	Text  string // the heading's source text, trimmed
	// Start is the offset of the heading's line; BodyStart the offset just
	// past it; End the offset where its section ends (the next heading of
	// the same or a higher level, or the end of src).
	Start, BodyStart, End int
}

// Headings returns the document's headings with their sections' extents.
func Headings(src []byte) []Heading { return headingsIn(parseBlocks(src), src) }

// headingsIn returns the headings of doc, parsed from src.
func headingsIn(doc ast.Node, src []byte) []Heading {
	var hs []Heading
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok {
			continue
		}
		off := firstOffset(h)
		var start, body int
		if off < 0 { // an empty heading ("##")
			continue
		}
		start = lineStart(src, off)
		body = lineEnd(src, off)
		if h.Lines().Len() > 1 { // a setext heading: its underline follows
			last := h.Lines().At(h.Lines().Len() - 1)
			body = lineEnd(src, lineEnd(src, last.Start))
		} else if !strings.HasPrefix(strings.TrimLeft(string(src[start:body]), " "), "#") && isSetext(src, body) {
			body = lineEnd(src, body)
		}
		var txt []byte
		for i := 0; i < h.Lines().Len(); i++ {
			seg := h.Lines().At(i)
			txt = append(txt, seg.Value(src)...)
		}
		hs = append(hs, Heading{Level: h.Level, Text: strings.TrimSpace(string(txt)), Start: start, BodyStart: body, End: len(src)})
	}
	for i := range hs {
		for j := i + 1; j < len(hs); j++ {
			if hs[j].Level <= hs[i].Level {
				hs[i].End = hs[j].Start
				break
			}
		}
	}
	return hs
}

// isSetext reports whether the line at off is a setext underline.
func isSetext(src []byte, off int) bool {
	line := strings.TrimSpace(string(src[off:lineEnd(src, off)]))
	return line != "" && (strings.Trim(line, "=") == "" || strings.Trim(line, "-") == "")
}

// Block is a top-level block of the document: its source extent, up to
// the next block's start (blank lines included), and whether it is a
// heading.
type Block struct {
	Start, End int
	Heading    bool
}

// Blocks returns the document's top-level blocks in order. Blocks without
// a line of text (a thematic break, an empty heading) are left out.
func Blocks(src []byte) []Block { return blocksIn(parseBlocks(src), src) }

// blocksIn returns the top-level blocks of doc, parsed from src.
func blocksIn(doc ast.Node, src []byte) []Block {
	var bs []Block
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		off := firstOffset(n)
		if off < 0 {
			continue
		}
		start := lineStart(src, off)
		if n.Kind() == ast.KindFencedCodeBlock && start > 0 { // its text starts after the fence line
			start = lineStart(src, start-1)
		}
		if len(bs) > 0 {
			bs[len(bs)-1].End = start
		}
		bs = append(bs, Block{Start: start, End: len(src), Heading: n.Kind() == ast.KindHeading})
	}
	return bs
}
