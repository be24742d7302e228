package worklog

import (
	"fmt"
	"strings"

	"github.com/kessho/kessho/core/frontmatter"
)

// kitReadingPhrase opens the line of the memory-kit's worklogs context
// that names the last week persisted: `Dernier relevé : 2026-S47.`
const kitReadingPhrase = "dernier relevé"

// KitReading returns the worklogs domain's context.md text (the kit's,
// see KitPattern) saying that week was persisted, as the memory-kit's
// worklog does ("dernier relevé <year>-S<WW>"): on the body's first line
// holding "Dernier relevé" (any case), its week `<year>-S<WW>` becomes
// week's when week is later (a re-run for an earlier week leaves it), or
// the line becomes `Dernier relevé : <year>-S<WW>.` when it names no
// week; a body without that line gets it at its end, after a blank
// line. The file's line ending is kept, no other byte changes, and a
// context whose frontmatter does not parse is left alone. text is parsed
// through docs, the caller's cache (nil: none).
func KitReading(docs *frontmatter.Cache, text string, week Week) string {
	doc, err := docs.Parse(text)
	if err != nil {
		return text
	}
	label := fmt.Sprintf("%04d-S%02d", week.Year, week.Num)
	nl := doc.Newline()
	for at := doc.BodyOffset(); at < len(text); {
		end := strings.IndexAny(text[at:], "\r\n")
		if end < 0 {
			end = len(text)
		} else {
			end += at
		}
		line := text[at:end]
		if strings.Contains(strings.ToLower(line), kitReadingPhrase) {
			i := weekLabelAt(line)
			switch {
			case i < 0:
				return text[:at] + "Dernier relevé : " + label + "." + text[end:]
			case line[i:i+8] < label:
				return text[:at+i] + label + text[at+i+8:]
			}
			return text
		}
		at = end + 1
		if strings.HasPrefix(text[end:], "\r\n") {
			at++
		}
	}
	if text != "" && !strings.HasSuffix(text, "\n") && !strings.HasSuffix(text, "\r") {
		text += nl
	}
	if strings.TrimSpace(text) != "" && !strings.HasSuffix(text, nl+nl) {
		text += nl
	}
	return text + "Dernier relevé : " + label + "." + nl
}

// weekLabelAt is the offset in line of the first `<year>-S<WW>`, or -1.
func weekLabelAt(line string) int {
	digits := func(s string) bool {
		for i := range len(s) {
			if s[i] < '0' || s[i] > '9' {
				return false
			}
		}
		return true
	}
	for i := 0; i+8 <= len(line); i++ {
		if digits(line[i:i+4]) && line[i+4:i+6] == "-S" && digits(line[i+6:i+8]) {
			return i
		}
	}
	return -1
}
