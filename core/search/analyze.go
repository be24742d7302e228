// Package search ranks a vault's notes for a query of words: the one
// analyzer (fold, tokenize, stem, stopwords) that query and notes go
// through alike, a compact inverted index scored by BM25F over a note's
// fields, its versioned encoding, and its incremental update from a
// listing. It is pure: the mem_search tool feeds it the notes the host
// read and keeps the index where the host gives it one.
package search

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/french"
	"github.com/blevesearch/snowballstem/porter"

	"golang.org/x/text/unicode/norm"

	"github.com/kessho/kessho/core/fold"
)

// analyzer is the version of Terms: an index made by another analyzer is
// rebuilt (it is part of the encoding's header). Bump it whenever Terms
// may give another term for some word. 2: stopwords are matched before
// accents are folded, and French words are stemmed with their accents.
// 3: an English -y word loses its i (yStem).
const analyzer = 3

// maxToken is the longest word kept, in bytes (longer runs are hashes,
// base64, URLs: cut, so the index stays bounded).
const maxToken = 48

// stemCacheMax bounds a Stems; past it the cache starts again empty (a
// vault has far fewer distinct words than this).
const stemCacheMax = 200_000

// Stems is a cache of stems by word (stem is a pure function, and the
// costliest step of Terms): Terms, and the indexes given it (UseStems),
// stem a word once. Whoever runs the tools keeps one per engine instance
// (tools.State), so that the words of the notes and queries stay stemmed
// from one call and one index to the next. A Stems is safe for
// concurrent use; the nil *Stems keeps nothing.
type Stems struct {
	mu sync.Mutex
	m  map[string]string
}

// Terms returns the terms of text, in order: cut into words (Words),
// stopwords of French and English dropped, each word stemmed and folded
// (stem).
func (s *Stems) Terms(text string) []string {
	var out []string
	Words(text, func(w string) {
		if t := s.term(w); t != "" {
			out = append(out, t)
		}
	})
	return out
}

// term returns the term of one word as Words gives it: "" for a stopword,
// else its stem. A stopword is matched before accents are folded, so that
// `thèse` is no `these` and `été` no `ete`; the French ones are listed
// with and without their accents, as people type them.
func (s *Stems) term(w string) string {
	if stopwords[w] {
		return ""
	}
	return s.stem(w)
}

// Words calls fn with each word of text, lowercased, in composed form
// (NFC: a word typed with combining accents is the same word): a run of
// letters, digits and combining marks, cut at maxToken bytes.
func Words(text string, fn func(string)) {
	scanWords(text, nil, func(w []byte) { fn(string(w)) })
}

// scanWords calls fn with each word of text as Words gives it, as bytes
// valid until fn returns (held in buf, which it returns grown): the index
// looks a word up without making a string of it (a map index by
// string(w) does not allocate), and words are most of what a build
// handles. ASCII stretches (between ASCII characters that are neither
// letters nor digits) are lowercased into buf; the rest goes through
// unicodeWords.
func scanWords(text string, buf []byte, fn func([]byte)) []byte {
	for i := 0; i < len(text); {
		for i < len(text) && wordByte[text[i]] == 0 {
			i++
		}
		start, class := i, byte(0) // class: the bytes' classes, or-ed
		for i < len(text) && wordByte[text[i]] != 0 {
			class |= wordByte[text[i]]
			i++
		}
		switch {
		case i == start:
		case class&beyondASCII == 0:
			w := text[start:min(i, start+maxToken)]
			if class&upperASCII == 0 {
				buf = append(buf[:0], w...)
			} else {
				buf = buf[:0]
				for j := 0; j < len(w); j++ {
					buf = append(buf, lowerASCII[w[j]])
				}
			}
			fn(buf)
		default:
			if w, ok := latinWord(text[start:i], buf); ok {
				buf = w
				fn(buf)
			} else {
				unicodeWords(text[start:i], func(w string) { buf = append(buf[:0], w...); fn(buf) })
			}
		}
	}
	return buf
}

// The classes of a byte for scanWords (wordByte): 0 ends a stretch
// (ASCII but not a letter or a digit); a stretch's bytes or-ed say
// whether it holds a capital (upperASCII) or a byte beyond ASCII. A table
// read a byte, and a stretch copied whole when it holds no capital: on
// the wasm engine each comparison and append of a byte loop costs, and
// the text's words were a fifth of a first build.
const (
	lowerOrDigit byte = 1 << iota
	upperASCII
	beyondASCII
)

var wordByte, lowerASCII = func() (class, lower [256]byte) {
	for c := range 256 {
		lower[c] = byte(c)
		switch {
		case c >= 0x80:
			class[c] = beyondASCII
		case c >= 'A' && c <= 'Z':
			class[c], lower[c] = upperASCII, byte(c)+'a'-'A'
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			class[c] = lowerOrDigit
		}
	}
	return class, lower
}()

// latinWord is the one word unicodeWords finds in s, a stretch of
// scanWords (ASCII letters and digits, and bytes past ASCII), written into
// buf, when s holds no character past ASCII but the letters of Latin-1
// (à…ÿ, À…Þ: French's accents): each is a letter, lowercased by adding
// 0x20 to its second byte, and composed already (no combining mark
// follows it). false for any other s: unicodeWords reads it. French notes
// are full of such words, and unicodeWords' lowercasing, composing and
// letter tests cost most of what a word costs.
func latinWord(s string, buf []byte) ([]byte, bool) {
	buf = buf[:0]
	for j := 0; j < len(s); j++ {
		c := s[j]
		switch {
		case c < utf8.RuneSelf: // a letter or digit: scanWords' stretch holds no other ASCII
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf = append(buf, c)
			continue
		case c != 0xc3 || j+1 == len(s):
			return buf, false
		}
		d := s[j+1]
		switch {
		case d >= 0x80 && d <= 0x9e && d != 0x97: // À…Þ but ×
			d += 0x20
		case d >= 0x9f && d <= 0xbf && d != 0xb7: // ß…ÿ but ÷
		default:
			return buf, false
		}
		buf = append(buf, c, d)
		j++
	}
	n := len(buf)
	if n > maxToken { // cut, as unicodeWords cuts
		n = maxToken
		for n > 0 && !utf8.RuneStart(buf[n]) {
			n--
		}
	}
	return buf[:n], true
}

// unicodeWords calls fn with each run of letters, digits and combining
// marks of s, lowercased and composed.
func unicodeWords(s string, fn func(string)) {
	start := -1
	emit := func(w string) {
		fn(cut(norm.NFC.String(strings.ToLower(w))))
	}
	for i, r := range s {
		word := unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			emit(s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		emit(s[start:])
	}
}

// cut shortens w to at most maxToken bytes on a rune boundary.
func cut(w string) string {
	if len(w) <= maxToken {
		return w
	}
	n := maxToken
	for n > 0 && !utf8.RuneStart(w[n]) {
		n--
	}
	return w[:n]
}

// stem returns the term of a word as Words gives it: the shorter of its
// French and English snowball stems (English on a tie), folded (fold.Fold:
// case and accents), so that `decisions` and `décision` meet,
// and a word of either language loses its inflection. The French stemmer
// reads the word with its accents (it needs them: `sauvegardée` and
// `sauvegarde` meet only so), the English one the folded word. Words of
// digits, or of one or two letters, are kept whole (folded). s caches
// the stems by word.
func (s *Stems) stem(w string) string {
	if len(w) <= 2 || !hasLetter(w) {
		return fold.Fold(w)
	}
	if t, ok := s.cached(w); ok {
		return t
	}
	f := fold.Fold(w)
	env := snowballstem.NewEnv(f)
	porter.Stem(env)
	t := yStem(f, env.Current())
	env = snowballstem.NewEnv(w)
	french.Stem(env)
	if fr := fold.Fold(env.Current()); len(fr) < len(t) {
		t = fr
	}
	if t == "" {
		t = f
	}
	s.keep(w, t)
	return t
}

// yStem is t, the English stem of the folded word f, without the i an
// English -y word's stem ends in (retry, retries, retried, retrying:
// retr), when a consonant comes before it: the French stemmer takes the
// -ies of the plural off, and the shorter stem would part the plural
// from the rest (retr against retri); so the -ie of a French word
// (stratégie, strateg) meets the English -y (strategy). A stem of three
// letters keeps its i (try: tri, not tr).
func yStem(f, t string) string {
	n := len(t)
	if n < 4 || t[n-1] != 'i' || strings.IndexByte("aeiouy", t[n-2]) >= 0 {
		return t
	}
	switch f[min(n-1, len(f)):] {
	case "y", "ies", "ied", "ying":
		if strings.HasPrefix(f, t[:n-1]) {
			return t[:n-1]
		}
	}
	return t
}

// cached returns the stem of w s holds.
func (s *Stems) cached(w string) (string, bool) {
	if s == nil {
		return "", false
	}
	s.mu.Lock()
	t, ok := s.m[w]
	s.mu.Unlock()
	return t, ok
}

// keep records t as the stem of w.
func (s *Stems) keep(w, t string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	if s.m == nil || len(s.m) >= stemCacheMax {
		s.m = map[string]string{}
	}
	s.m[w] = t
	s.mu.Unlock()
}

func hasLetter(w string) bool {
	for _, r := range w {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}
