package worklog

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kessho/kessho/core/frontmatter"
)

// kitReadingPhrase opens the line of the memory-kit's worklogs context
// that names the last week persisted: `## Dernier relevé : 2026-S47`.
const kitReadingPhrase = "dernier relevé"

// KitRecord is what the memory-kit's worklog writes of a persisted week
// in the worklogs context.md (KitContext): the week, the day's amplitude,
// the hours by project, and when it was written.
type KitRecord struct {
	Week      Week
	Amplitude float64
	Hours     map[string]float64
	Now       time.Time
}

// kitBullets are the labels of the three lines the kit writes under its
// "Dernier relevé" heading, in its order.
var kitBullets = [3]string{"- Semaine :", "- Amplitude :", "- Heures par projet :"}

// values are the kit's texts after each of kitBullets for r.
func (r KitRecord) values() [3]string {
	hours := "(non renseignées)"
	if len(r.Hours) > 0 {
		var parts []string
		for _, p := range ByHours(r.Hours) {
			parts = append(parts, p+" "+kitNumber(r.Hours[p])+"h")
		}
		hours = strings.Join(parts, ", ")
	}
	return [3]string{r.Week.Start().String() + " → " + r.Week.End().String(), kitNumber(r.Amplitude) + "h/jour", hours}
}

// kitNumber writes hours as the kit does (Python's %g): 7, 7.5.
func kitNumber(h float64) string { return strconv.FormatFloat(h, 'g', -1, 64) }

// KitContext returns the worklogs domain's context.md text (the kit's,
// see KitPattern) saying that r's week was persisted, as the memory-kit's
// worklog does, so that no part of the file names an older week than
// another: `phase: dernier relevé <year>-S<WW>`; `last-session` r.Now, in
// the form the file has (date only when it has none, the kit's); on the
// body's first line holding "Dernier relevé" (any case), its week
// `<year>-S<WW>` becomes r's (or the line becomes `Dernier relevé :
// <year>-S<WW>.` when it names no week; a body without that line gets it
// at its end, after a blank line); and the kit's lines under it (`-
// Semaine :`, `- Amplitude :`, `- Heures par projet :`, up to the next
// heading) say r's week, amplitude and hours, added under the line when it
// is a heading with none of them. A context that names a later week (in
// that line or in phase) is left alone, so is one whose frontmatter does
// not parse. The file's line ending is kept; no other byte changes. text
// is parsed through docs, the caller's cache (nil: none).
func KitContext(docs *frontmatter.Cache, text string, r KitRecord) string {
	doc, err := docs.Parse(text)
	if err != nil {
		return text
	}
	label := fmt.Sprintf("%04d-S%02d", r.Week.Year, r.Week.Num)
	if phase, _ := doc.String("phase"); laterLabel(phase, label) {
		return text
	}
	body, later := kitBody(doc.Body(), doc.Newline(), label, r.values())
	if later {
		return text
	}
	phase, _ := doc.String("phase")
	if body == doc.Body() && phase == kitReadingPhrase+" "+label {
		return text
	}
	out := text[:doc.BodyOffset()] + body
	stamp := r.Now.Format("2006-01-02")
	if prev, ok := doc.String("last-session"); ok {
		if _, err := time.Parse("2006-01-02", prev); err != nil {
			stamp = r.Now.Format(time.RFC3339)
		}
	}
	for _, kv := range [2][2]string{{"phase", kitReadingPhrase + " " + label}, {"last-session", stamp}} {
		next, err := docs.Set(out, kv[0], kv[1])
		if err != nil {
			return text
		}
		out = next
	}
	return out
}

// laterLabel reports whether s names a week `<year>-S<WW>` later than
// label.
func laterLabel(s, label string) bool {
	i := weekLabelAt(s)
	return i >= 0 && s[i:i+8] > label
}

// lines splits body into its lines, each with its line ending.
func lines(body string) []string {
	var out []string
	for body != "" {
		end := strings.IndexAny(body, "\r\n")
		switch {
		case end < 0:
			end = len(body)
		case strings.HasPrefix(body[end:], "\r\n"):
			end += 2
		default:
			end++
		}
		out = append(out, body[:end])
		body = body[end:]
	}
	return out
}

// kitBody is KitContext's body: later when its "Dernier relevé" line
// names a later week than label.
func kitBody(body, nl, label string, values [3]string) (string, bool) {
	ls := lines(body)
	for i, line := range ls {
		if !strings.Contains(strings.ToLower(line), kitReadingPhrase) {
			continue
		}
		if laterLabel(line, label) {
			return body, true
		}
		if at := weekLabelAt(line); at >= 0 {
			ls[i] = line[:at] + label + line[at+8:]
		} else {
			ls[i] = "Dernier relevé : " + label + "." + ending(line)
		}
		return strings.Join(kitSection(ls, i, nl, values), ""), false
	}
	if body != "" && !strings.HasSuffix(body, "\n") && !strings.HasSuffix(body, "\r") {
		body += nl
	}
	if strings.TrimSpace(body) != "" && !strings.HasSuffix(body, nl+nl) {
		body += nl
	}
	return body + "Dernier relevé : " + label + "." + nl, false
}

// kitSection rewrites the kit's lines (kitBullets) in the section under
// ls[at], up to the next heading, to say values; when ls[at] is a heading
// and the section has none of them, they are added under it.
func kitSection(ls []string, at int, nl string, values [3]string) []string {
	found := false
	i := at + 1
	for ; i < len(ls) && !strings.HasPrefix(ls[i], "#"); i++ {
		for k, b := range kitBullets {
			if strings.HasPrefix(ls[i], b) {
				ls[i], found = b+" "+values[k]+ending(ls[i]), true
			}
		}
	}
	if found || !strings.HasPrefix(ls[at], "#") {
		return ls
	}
	if ending(ls[at]) == "" {
		ls[at] += nl
	}
	blank := func(i int) bool { return i < len(ls) && strings.TrimSpace(ls[i]) == "" }
	var add []string
	at++
	if blank(at) {
		at++
	} else {
		add = append(add, nl)
	}
	for k, b := range kitBullets {
		add = append(add, b+" "+values[k]+nl)
	}
	if at < len(ls) && !blank(at) {
		add = append(add, nl)
	}
	return append(ls[:at:at], append(add, ls[at:]...)...)
}

// ending is line's line ending ("" for a last line without one).
func ending(line string) string { return line[len(strings.TrimRight(line, "\r\n")):] }

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
