// Package atom names the atoms mem_archive derives (SPEC section 5): the
// note an `[[name]]` reference names, the file name a fact gives, and the
// zone each kind of atom lives in.
package atom

import (
	"strings"
	"unicode"
)

// Zone is where atoms of one kind live: their folder and their zone tag.
type Zone struct{ Dir, Zone string }

// Zones maps each atom kind to its zone.
var Zones = map[string]Zone{
	"principle": {"40-principles", "principles"},
	"goal":      {"50-goals", "goals"},
	"knowledge": {"20-knowledge", "knowledge"},
}

// NoteZones are the zones of the atoms mem_note writes: the derived
// kinds' and, besides, the people and the inbox (the memory-kit's
// `60-people` and `00-inbox`), which an archive never derives.
var NoteZones = func() map[string]Zone {
	out := map[string]Zone{"person": {"60-people", "people"}, "inbox": {"00-inbox", "inbox"}}
	for k, z := range Zones {
		out[k] = z
	}
	return out
}()

// Name returns the note name of `[[name]]`, `[[name|alias]]` or `name`.
func Name(s string) string {
	s = strings.TrimSpace(s)
	if inner, ok := strings.CutPrefix(s, "[["); ok {
		s, _ = strings.CutSuffix(inner, "]]")
	}
	if i := strings.IndexAny(s, "|#^"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// FileName is the file stem of an atom named by its fact: each run of
// line breaks and tabs becomes one space; / \ : * ? " < > | # ^ [ ] and
// other control characters are removed; leading and trailing spaces and
// dots are trimmed (a leading dot hides the file, Windows drops a trailing
// dot or space); at most 120 bytes (cut on a character boundary, then
// trimmed again); and a Windows device name (CON, PRN, AUX, NUL, COM1–COM9,
// LPT1–LPT9, any case, alone or before a dot: "CON.tar") gets "_" right
// after it ("CON_", "CON_.tar"). "" when nothing is left. ATOM_EXISTS and
// the wikilinks use this final name.
func FileName(fact string) string {
	isBreak := func(r rune) bool {
		return r == '\n' || r == '\r' || r == '\t' || r == '\u2028' || r == '\u2029'
	}
	var b strings.Builder
	inBreak := false
	for _, r := range fact {
		switch {
		case isBreak(r):
			if !inBreak {
				b.WriteByte(' ')
			}
			inBreak = true
			continue
		case strings.ContainsRune(`/\:*?"<>|#^[]`, r) || r < 0x20 || r >= 0x7F && r <= 0x9F:
		default:
			b.WriteRune(r)
		}
		inBreak = false
	}
	trim := func(s string) string {
		return strings.TrimFunc(s, func(r rune) bool { return r == '.' || unicode.IsSpace(r) })
	}
	cut := func(s string) string {
		if len(s) <= 120 {
			return s
		}
		n := 120
		for n > 0 && !isRuneStart(s[n]) {
			n--
		}
		return trim(s[:n])
	}
	s := cut(trim(b.String()))
	stem, _, _ := strings.Cut(s, ".")
	stem = strings.TrimRightFunc(stem, unicode.IsSpace)
	if windowsDevice(stem) {
		s = cut(stem + "_" + s[len(stem):])
	}
	return s
}

// windowsDevice reports whether name is a device name Windows reserves in
// every folder, whatever the case.
func windowsDevice(name string) bool {
	switch strings.ToUpper(name) {
	case "CON", "PRN", "AUX", "NUL":
		return true
	}
	if len(name) < 4 {
		return false
	}
	switch strings.ToUpper(name[:3]) {
	case "COM", "LPT":
		n := name[3:]
		return len(n) == 1 && n[0] >= '1' && n[0] <= '9' || n == "¹" || n == "²" || n == "³"
	}
	return false
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
