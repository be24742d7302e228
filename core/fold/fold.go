// Package fold compares and names text the way people type it: accents
// folded to ASCII letters, case ignored. `Décision été` folds to
// `decision ete`; Slug makes a file-name part of it (`decision-ete`).
package fold

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// letters that do not decompose into a base letter and a mark.
var special = map[rune]string{
	'ß': "ss", 'æ': "ae", 'Æ': "ae", 'œ': "oe", 'Œ': "oe", 'ø': "o", 'Ø': "o",
	'đ': "d", 'Đ': "d", 'ł': "l", 'Ł': "l", 'þ': "th", 'Þ': "th", 'ð': "d", 'Ð': "d", 'ı': "i",
}

// Fold returns s lowercased with accents removed (Unicode canonical
// decomposition, combining marks dropped, a few letters spelled out).
func Fold(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if sp, ok := special[r]; ok {
			b.WriteString(sp)
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// Alnum returns Fold(s) with everything but letters and digits removed:
// the key on which expect_decisions are compared.
func Alnum(s string) string {
	var b strings.Builder
	for _, r := range Fold(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Slug returns the file-name form of s: folded to ASCII, lowercase, every
// run of other characters one "-", trimmed, at most max bytes (cut at a
// "-" boundary when possible), or fallback when nothing is left.
func Slug(s string, max int, fallback string) string {
	var b strings.Builder
	dash := false
	for _, r := range Fold(s) {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	out := b.String()
	if len(out) > max {
		out = strings.TrimRight(out[:max], "-")
	}
	if out == "" {
		return fallback
	}
	return out
}
