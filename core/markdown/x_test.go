package markdown

import (
	"strings"
	"testing"

	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"kessho/core/eol"
)

var xsrc = []byte(strings.Repeat("Worked on the parser, the proration and the cases; reviewed the numbers with Ada. ", 5) + "\n\n## Next steps\n- Session 2.\n")

func BenchmarkXFull(b *testing.B) {
	for b.Loop() {
		headingsIn(parse(xsrc), xsrc)
	}
}
func BenchmarkXBlocks(b *testing.B) {
	for b.Loop() {
		Headings(xsrc)
	}
}

func BenchmarkXCtx(b *testing.B) {
	for b.Loop() {
		parser.NewContext()
	}
}
func BenchmarkXReader(b *testing.B) {
	for b.Loop() {
		text.NewReader(xsrc)
	}
}
func BenchmarkXLoneCR(b *testing.B) {
	for b.Loop() {
		eol.LoneCRBytes(xsrc)
	}
}
func BenchmarkXParseOnly(b *testing.B) {
	for b.Loop() {
		blockParser.Parse(text.NewReader(xsrc))
	}
}
