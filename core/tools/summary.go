package tools

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kessho/kessho/core/fault"
)

// A project's summary, as mem_set_summary and mem_init_project take it.

// maxSummary is the longest summary, in characters (runes).
const maxSummary = 300

// normalizeSummary joins lines: each run of line breaks (CR, LF, CRLF,
// U+2028, U+2029) with the blanks around it becomes one space, and the ends
// are trimmed of white space.
func normalizeSummary(s string) string {
	isBreak := func(r rune) bool { return r == '\r' || r == '\n' || r == '\u2028' || r == '\u2029' }
	isBlank := func(r rune) bool { return unicode.IsSpace(r) && !isBreak(r) }
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		if !isBreak(rs[i]) {
			b.WriteRune(rs[i])
			continue
		}
		// Drop the blanks already written before the break.
		out := strings.TrimRightFunc(b.String(), isBlank)
		b.Reset()
		b.WriteString(out)
		for i+1 < len(rs) && (isBreak(rs[i+1]) || isBlank(rs[i+1])) {
			i++
		}
		b.WriteByte(' ')
	}
	return strings.TrimFunc(b.String(), unicode.IsSpace)
}

// checkSummaryLength refuses a normalised summary over maxSummary
// characters with SUMMARY_TOO_LONG; it is never cut.
func checkSummaryLength(summary string) error {
	n := utf8.RuneCountInString(summary)
	if n <= maxSummary {
		return nil
	}
	return toolsText().Msg.TooLong.Err(fault.SummaryTooLong, map[string]any{"parameter": "summary", "length": n, "max": maxSummary}, n, maxSummary)
}
