package history

import (
	"strings"
	"unicode/utf8"

	"github.com/kessho/kessho/core/markdown"
	"github.com/kessho/kessho/core/worklog"
)

// Section is a part of an archive's body that mem_recall briefs: its
// decisions, its next steps, or, when it has neither, its lead (the first
// paragraphs).
type Section struct {
	Kind    string `json:"kind"`    // "decisions", "next" or "lead"
	Heading string `json:"heading"` // the heading as written; "" for a lead
	Text    string `json:"text"`    // the section's text, trimmed
}

// Kinds of Section.
const (
	sectionDecisions = "decisions"
	sectionNext      = "next"
	sectionLead      = "lead"
)

// sectionNames maps a folded heading (worklog.HeadingKey: lowercase,
// accents and punctuation dropped) to the kind of section it opens, in
// English and French. The next-steps names are the worklog's
// (worklog.IsNextStep, see sectionKind), plus these: the bare "Next" that
// context.md and archive bodies use, and a few more.
var sectionNames = map[string]string{
	"decisions": sectionDecisions, "decision": sectionDecisions, "key decisions": sectionDecisions,
	"decisions prises": sectionDecisions, "decisions cles": sectionDecisions, "choix": sectionDecisions,
	"next": sectionNext, "a faire": sectionNext, "suite": sectionNext,
	"prochaines actions": sectionNext, "prochaine action": sectionNext,
}

// sectionKind returns the kind of section a folded heading opens, and
// whether it opens one.
func sectionKind(key string) (string, bool) {
	if kind, ok := sectionNames[key]; ok {
		return kind, true
	}
	if worklog.IsNextStep(key) {
		return sectionNext, true
	}
	return "", false
}

// leadChars is about how much text a lead holds: whole blocks are taken
// until their text reaches it (at most three).
const leadChars = 400

// Sections returns the decisions and next-steps sections of an archive's
// body, in the body's order, read with goldmark (a heading of any level,
// any case, accents and punctuation ignored; its section runs to the next
// heading of the same or a higher level; a matching heading inside a
// section already taken belongs to it). An empty section is left out.
// A body with no such section gives its lead: its first paragraphs (top
// blocks other than headings, until about 400 characters, at most three),
// or nothing for an empty body.
func Sections(body string) []Section {
	var out []Section
	taken := 0
	for _, h := range markdown.Headings([]byte(body)) {
		kind, ok := sectionKind(worklog.HeadingKey(h.Text))
		if !ok || h.Start < taken {
			continue
		}
		taken = h.End
		if text := strings.TrimSpace(body[h.BodyStart:h.End]); text != "" {
			out = append(out, Section{Kind: kind, Heading: h.Text, Text: text})
		}
	}
	if len(out) > 0 {
		return out
	}
	var parts []string
	n := 0
	for _, b := range markdown.Blocks([]byte(body)) {
		if b.Heading {
			continue
		}
		t := strings.TrimSpace(body[b.Start:b.End])
		parts = append(parts, t)
		if n += utf8.RuneCountInString(t); n >= leadChars || len(parts) == 3 {
			break
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return []Section{{Kind: sectionLead, Text: strings.Join(parts, "\n\n")}}
}
