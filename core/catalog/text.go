package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/kessho/kessho/core/fault"
)

// notUTF8 refuses arguments whose JSON text holds a string (a value or a
// key) that is not valid UTF-8: an invalid byte, or an escape of a lone
// surrogate ("\ud800"). encoding/json would quietly turn either into
// U+FFFD, so the user's text would be written changed; the raw bytes are
// checked before decoding. The refusal names the parameter holding the
// string ("derive[0].fact"); a bad key names the object holding it, or
// "args" at the top. raw is known to be valid JSON.
func notUTF8(raw []byte) error {
	if utf8.Valid(raw) && !bytes.Contains(raw, []byte(`\u`)) {
		return nil // the common case: nothing to look at closely
	}
	w := &jsonWalker{b: raw}
	path, bad := w.value("")
	if !bad {
		return nil
	}
	if path == "" {
		path = "args"
	}
	return fault.Argument(path, "is not valid UTF-8 text (an invalid byte, or a lone surrogate such as \\ud800): send the text as UTF-8",
		"n'est pas du texte UTF-8 valide (un octet invalide, ou un demi-caractère seul comme \\ud800) : envoyez le texte en UTF-8")
}

// jsonWalker walks a valid JSON text, keeping the path of the value it is
// in.
type jsonWalker struct {
	b []byte
	i int
}

func (w *jsonWalker) space() {
	for w.i < len(w.b) && (w.b[w.i] == ' ' || w.b[w.i] == '\t' || w.b[w.i] == '\n' || w.b[w.i] == '\r') {
		w.i++
	}
}

// value walks the value at w.i, whose path is path; it returns the path
// of the first string that is not UTF-8, and true, if there is one.
func (w *jsonWalker) value(path string) (string, bool) {
	w.space()
	if w.i >= len(w.b) {
		return "", false
	}
	switch w.b[w.i] {
	case '{':
		w.i++
		for w.next('}') {
			start := w.i
			if !w.str() {
				return path, true
			}
			var key string
			_ = json.Unmarshal(w.b[start:w.i], &key)
			w.space()
			w.i++ // ':'
			sub := key
			if path != "" {
				sub = path + "." + key
			}
			if p, bad := w.value(sub); bad {
				return p, true
			}
		}
	case '[':
		w.i++
		for n := 0; w.next(']'); n++ {
			if p, bad := w.value(path + "[" + strconv.Itoa(n) + "]"); bad {
				return p, true
			}
		}
	case '"':
		if !w.str() {
			return path, true
		}
	default: // a number, true, false or null
		for w.i < len(w.b) && !bytes.ContainsRune([]byte(",]} \t\r\n"), rune(w.b[w.i])) {
			w.i++
		}
	}
	return "", false
}

// next moves to the next member of the object or array w is in, past
// blanks and commas; at its end (close, or the end of the text) it moves
// past close and returns false.
func (w *jsonWalker) next(close byte) bool {
	for {
		w.space()
		if w.i >= len(w.b) || w.b[w.i] == close {
			w.i++
			return false
		}
		if w.b[w.i] != ',' {
			return true
		}
		w.i++
	}
}

// str moves past the string at w.i and reports whether it is UTF-8.
func (w *jsonWalker) str() bool {
	b := w.b
	ok := true
	for i := w.i + 1; i < len(b); {
		switch c := b[i]; {
		case c == '"':
			w.i = i + 1
			return ok
		case c == '\\':
			if i+1 < len(b) && b[i+1] == 'u' {
				r := hex4(b, i+2)
				i += 6
				switch {
				case r >= 0xD800 && r < 0xDC00: // must be followed by a low surrogate
					if i+1 < len(b) && b[i] == '\\' && b[i+1] == 'u' {
						if lo := hex4(b, i+2); lo >= 0xDC00 && lo < 0xE000 {
							i += 6
							continue
						}
					}
					ok = false
				case r >= 0xDC00 && r < 0xE000:
					ok = false
				}
				continue
			}
			i += 2
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				ok = false
			}
			i += n
		}
	}
	w.i = len(b)
	return ok
}

// hex4 reads the four hex digits at b[i:], -1 when they are not.
func hex4(b []byte, i int) int {
	if i+4 > len(b) {
		return -1
	}
	n, err := strconv.ParseUint(string(b[i:i+4]), 16, 16)
	if err != nil {
		return -1
	}
	return int(n)
}

// isControl reports whether r is a control character a one-line string
// may not hold: Unicode's Cc category but TAB, CR and LF.
func isControl(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r >= 0x7F && r <= 0x9F
}

// checkOneLine refuses a control character in the one-line string s,
// naming the parameter, the character and its place.
func checkOneLine(name, s string) error {
	n := 0
	for _, r := range s {
		n++
		if isControl(r) {
			e := fault.Argument(name,
				fmt.Sprintf("holds the control character U+%04X at character %d; remove it and write plain text (an invisible control character would make the note unreadable to git and other tools)", r, n),
				fmt.Sprintf("contient le caractère de contrôle U+%04X au caractère %d ; retirez-le et écrivez du texte simple (un caractère de contrôle invisible rendrait la note illisible pour git et d'autres outils)", r, n))
			e.Details["character"] = fmt.Sprintf("U+%04X", r)
			e.Details["position"] = n
			return e
		}
	}
	return nil
}
