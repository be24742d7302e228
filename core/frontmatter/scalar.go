package frontmatter

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// place is where a scalar is written; what a plain scalar may hold depends
// on it.
type place int

const (
	asValue     place = iota // key: s
	asKey                    // s: value
	asFlowItem               // key: [s]
	asBlockItem              // - s
)

// quoteStyles are the scalar styles an edit keeps.
const quoteStyles = yaml.SingleQuotedStyle | yaml.DoubleQuotedStyle

// formatString writes s as a scalar for place: in style (plain, single or
// double quotes) when that style reads back as exactly s, double-quoted
// otherwise.
func formatString(s string, style yaml.Style, at place) string {
	switch {
	case style&yaml.DoubleQuotedStyle != 0:
	case style&yaml.SingleQuotedStyle != 0:
		if singleOK(s) {
			return "'" + strings.ReplaceAll(s, "'", "''") + "'"
		}
	default:
		if plainOK(s, at) {
			return s
		}
	}
	return doubleQuote(s)
}

// printable reports whether yaml.v3 accepts r in its input at all.
func printable(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0x7E || r == 0x85 ||
		r >= 0xA0 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}

// oneLine reports whether s can sit between quotes or plain on one line:
// printable, no line break of any kind, no BOM.
func oneLine(s string) bool {
	for _, r := range s {
		if !printable(r) || r == '\n' || r == '\r' || r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xFEFF {
			return false
		}
	}
	return utf8.ValidString(s)
}

// singleOK reports whether s can be written between single quotes.
func singleOK(s string) bool { return oneLine(s) }

// plainOK reports whether s, written plain at place, reads back as the
// string s: it asks yaml.v3 (the round trip), and refuses besides what
// YAML 1.1 readers would take for something else (yes, no, on, off, 10:15).
func plainOK(s string, at place) bool {
	if plainWordFn(s) || plainDateFn(s) {
		return true
	}
	if s == "" || !oneLine(s) || yaml11(s) {
		return false
	}
	var doc string
	switch at {
	case asKey:
		doc = s + ": v\n"
	case asFlowItem:
		doc = "k: [" + s + "]\n"
	case asBlockItem:
		doc = "- " + s + "\n"
	default:
		doc = "k: " + s + "\n"
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &n); err != nil || len(n.Content) != 1 {
		return false
	}
	r := n.Content[0]
	var got *yaml.Node
	switch at {
	case asKey:
		if r.Kind == yaml.MappingNode && len(r.Content) == 2 {
			got = r.Content[0]
		}
	case asFlowItem:
		if r.Kind == yaml.MappingNode && len(r.Content) == 2 && len(r.Content[1].Content) == 1 {
			got = r.Content[1].Content[0]
		}
	case asBlockItem:
		if r.Kind == yaml.SequenceNode && len(r.Content) == 1 {
			got = r.Content[0]
		}
	default:
		if r.Kind == yaml.MappingNode && len(r.Content) == 2 {
			got = r.Content[1]
		}
	}
	// A plain date or time is a !!timestamp, which Lookup reads back as the
	// same string: it stays plain, as people write it.
	return got != nil && got.Kind == yaml.ScalarNode && got.Style == 0 && got.Value == s &&
		(got.Tag == "!!str" || got.Tag == "!!timestamp")
}

// plainWord reports whether s is a word that reads back plain as the
// string s at every place, as plainOK's round trip would find, without
// it: an ASCII letter, then ASCII letters, digits, '-' and '_', and none
// of the words YAML 1.2 (true, false, null) or 1.1 (yes, no, on, off)
// reads as something else. No such word is a number, a date, an
// indicator or a comment, and none holds ": " (TestPlainWord).
func plainWord(s string) bool {
	if s == "" || !asciiLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !asciiLetter(c) && (c < '0' || c > '9') && c != '-' && c != '_' {
			return false
		}
	}
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL":
		return false
	}
	return !yaml11(s)
}

// plainDate reports whether s is a date as YYYY-MM-DD (ASCII digits):
// read back plain as a !!timestamp, or a string when it is no real
// date, and Value s either way, which plainOK accepts (TestPlainWord).
func plainDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if i != 4 && i != 7 && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return true
}

// plainWordFn and plainDateFn are plainOK's shortcuts (a test takes them
// away to compare with the round trip).
var plainWordFn, plainDateFn = plainWord, plainDate

func asciiLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// yaml11 reports whether a YAML 1.1 reader would not read s as a string:
// its booleans, and sexagesimal numbers such as 10:15.
func yaml11(s string) bool {
	switch strings.ToLower(s) {
	case "yes", "no", "on", "off", "=", "<<":
		return true
	}
	t := strings.TrimLeft(s, "+-")
	if t == "" || t[0] < '0' || t[0] > '9' || !strings.Contains(t, ":") {
		return false
	}
	return strings.Trim(t, "0123456789_:.") == ""
}

// yamlEscapes is YAML's short escape of each character that has one.
var yamlEscapes = map[rune]string{'"': `\"`, '\\': `\\`, '\n': `\n`, '\r': `\r`, '\t': `\t`,
	0: `\0`, 0x07: `\a`, 0x08: `\b`, 0x0B: `\v`, 0x0C: `\f`, 0x1B: `\e`, 0x85: `\N`, 0x2028: `\L`, 0x2029: `\P`}

// doubleQuote writes s as a double-quoted YAML scalar on one line:
// non-ASCII text stays UTF-8, what YAML cannot hold raw is escaped.
func doubleQuote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		if e, ok := yamlEscapes[r]; ok {
			b.WriteString(e)
			continue
		}
		switch {
		case r != 0xFEFF && printable(r):
			b.WriteRune(r)
		case r <= 0xFF:
			b.WriteString(`\x`)
			writeHex(&b, uint32(r), 2)
		case r <= 0xFFFF:
			b.WriteString(`\u`)
			writeHex(&b, uint32(r), 4)
		default:
			b.WriteString(`\U`)
			writeHex(&b, uint32(r), 8)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func writeHex(b *strings.Builder, v uint32, digits int) {
	const hex = "0123456789ABCDEF"
	for i := digits - 1; i >= 0; i-- {
		b.WriteByte(hex[(v>>(4*uint(i)))&0xF])
	}
}

// literal writes a null, a boolean, an int or a float64 as a plain scalar
// that yaml.v3 reads back as the same value.
func literal(v any) (string, bool) {
	switch t := v.(type) {
	case nil:
		return "null", true
	case bool:
		return strconv.FormatBool(t), true
	case int:
		return strconv.Itoa(t), true
	case float64:
		switch {
		case math.IsNaN(t):
			return ".nan", true
		case math.IsInf(t, 1):
			return ".inf", true
		case math.IsInf(t, -1):
			return "-.inf", true
		}
		s := strconv.FormatFloat(t, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0" // "1" would read back as an int
		}
		return s, true
	}
	return "", false
}
