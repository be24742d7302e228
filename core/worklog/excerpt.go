package worklog

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kessho/kessho/core/fold"
	"github.com/kessho/kessho/core/markdown"
)

// excerpt returns the body's text without its heading lines (hs), white
// space joined, cut at about max characters on a word boundary ("…" when
// cut).
func excerpt(body string, hs []markdown.Heading, max int) string {
	var b strings.Builder
	last := 0
	for _, h := range hs {
		if h.Start >= last {
			b.WriteString(body[last:h.Start])
			b.WriteByte(' ')
			last = h.BodyStart
		}
	}
	b.WriteString(body[last:])
	text := strings.Join(strings.Fields(b.String()), " ")
	if utf8.RuneCountInString(text) <= max {
		return text
	}
	cut, n := 0, 0
	for i := range text {
		if n > max {
			break
		}
		cut, n = i, n+1
	}
	if sp := strings.LastIndexByte(text[:cut], ' '); sp > cut*3/4 {
		cut = sp
	}
	return strings.TrimRightFunc(text[:cut], func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) && r != ')' }) + "…"
}

// nextStepNames are the headings of a next-steps section, folded.
var nextStepNames = map[string]bool{
	"next steps": true, "next step": true, "next actions": true, "next action": true,
	"todo": true, "to do": true, "reste a faire": true, "prochaines etapes": true, "prochaine etape": true,
}

// IsNextStep reports whether a folded heading (HeadingKey) opens a
// next-steps section.
func IsNextStep(key string) bool { return nextStepNames[key] }

// nextSteps returns the text of the first next-steps section (heading of
// any level, any case, accents and surrounding punctuation ignored), or nil.
func nextSteps(body string, hs []markdown.Heading) *string {
	for _, h := range hs {
		if !nextStepNames[HeadingKey(h.Text)] {
			continue
		}
		s := strings.TrimSpace(body[h.BodyStart:h.End])
		if s == "" {
			return nil
		}
		return &s
	}
	return nil
}

// HeadingKey folds a heading's text to lowercase words, accents and
// punctuation dropped: "Next action(s) :" → "next actions",
// "Prochaines Étapes" → "prochaines etapes".
func HeadingKey(t string) string {
	t = strings.ReplaceAll(strings.ReplaceAll(t, "(s)", "s"), "(S)", "s")
	t = fold.Fold(t)
	t = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return ' '
	}, t)
	return strings.Join(strings.Fields(t), " ")
}

// sectionText trims a text for its section: blank lines around it, and a
// first heading that only repeats the section's name ("## Brief").
func sectionText(text, title string) string {
	text = strings.TrimRightFunc(text, unicode.IsSpace)
	for {
		line, rest, ok := strings.Cut(text, "\n")
		if !ok || strings.TrimSpace(line) != "" {
			break
		}
		text = rest
	}
	if hs := markdown.Headings([]byte(text)); len(hs) > 0 && hs[0].Start == 0 && HeadingKey(hs[0].Text) == strings.ToLower(title) {
		text = strings.TrimLeftFunc(text[hs[0].BodyStart:], func(r rune) bool { return r == '\n' || r == '\r' })
	}
	return text
}
