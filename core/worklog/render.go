package worklog

import (
	"fmt"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/kessho/kessho/core/note"
)

// Texts are the caller's three texts of a week's note.
type Texts struct{ Brief, Digest, Detailed string }

// Labels are the note's words in the caller's language: the title's first
// word, the chart's heading, and what stands for a chart without hours.
type Labels struct{ Title, Chart, NoHours string }

// Note renders the week's note: its frontmatter (the hours by project
// among it), a title and one line of totals, the caller's texts under
// sections named in English (Brief, Digest, Detailed) whatever the
// language, so tools can find them, and a pie chart of the hours.
//
// kit writes the note as the memory-kit's are (in a vault that holds
// them, see KitPattern): its keys (domain, kind archive, worklog: true,
// week_number, week_year, date) besides Kessho's, its display and tags.
func Note(week Week, amplitude float64, t Totals, texts Texts, l Labels, kit bool) (string, error) {
	f := note.Fields{
		{Key: "slug", Node: note.Str(Domain)}, {Key: "kind", Node: note.Str("worklog")}, {Key: "zone", Node: note.Str("episodes")},
		{Key: "week", Node: note.Str(week.String())}, {Key: "week_start", Node: note.Stamp(week.Start().String())}, {Key: "week_end", Node: note.Stamp(week.End().String())},
		{Key: "amplitude_hours", Node: note.Number(amplitude)}, {Key: "hours_by_project", Node: hoursNode(t.HoursByProject)},
		{Key: "display", Node: note.Str(Domain + " — " + week.String() + " Worklog")},
		{Key: "tags", Node: note.List([]string{"kind/worklog", "zone/episodes"})},
	}
	if kit {
		f = append(note.Fields{{Key: "domain", Node: note.Str(Domain)}}, f...)
		f.Set("kind", note.Str("archive"))
		f.Set("display", note.Str(fmt.Sprintf("%s — %s Worklog S%02d", Domain, week.Start(), week.Num)))
		f.Set("tags", note.List([]string{"domain/" + Domain, "zone/episodes", "kind/archive"}))
		f = append(f, note.Field{Key: "worklog", Node: &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"}},
			note.Field{Key: "week_number", Node: note.Number(float64(week.Num))}, note.Field{Key: "week_year", Node: note.Number(float64(week.Year))},
			note.Field{Key: "date", Node: note.Stamp(week.Start().String())})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s %s\n\n", l.Title, week)
	fmt.Fprintf(&b, "%s → %s · %d session(s) · %s h\n\n", week.Start(), week.End(), t.Sessions, FormatHours(t.TotalHours))
	for _, s := range []struct{ title, text string }{{"Brief", texts.Brief}, {"Digest", texts.Digest}, {"Detailed", texts.Detailed}} {
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", s.title, sectionText(s.text, s.title))
	}
	fmt.Fprintf(&b, "## %s\n\n", l.Chart)
	if t.TotalHours == 0 {
		b.WriteString(l.NoHours + "\n")
	} else {
		fmt.Fprintf(&b, "```mermaid\npie title %s\n", l.Chart)
		for _, k := range ByHours(t.HoursByProject) {
			if h := t.HoursByProject[k]; h > 0 {
				fmt.Fprintf(&b, "    %q : %s\n", k, FormatHours(h))
			}
		}
		b.WriteString("```\n")
	}
	return f.Render(b.String())
}

// hoursNode is the hours by project as a YAML mapping, by slug ({} when
// empty).
func hoursNode(hours map[string]float64) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	var slugs []string
	for k := range hours {
		slugs = append(slugs, k)
	}
	sort.Strings(slugs)
	for _, k := range slugs {
		n.Content = append(n.Content, note.Str(k), note.Number(hours[k]))
	}
	if len(slugs) == 0 {
		n.Style = yaml.FlowStyle
	}
	return n
}

// KitPattern selects, in worklogs/archives/, the week notes the
// memory-kit writes: `<monday>-worklog-S<WW>.md`.
const KitPattern = "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]-worklog-S[0-9][0-9].md"

// KitName is the memory-kit's name of week's note.
func KitName(week Week) string { return fmt.Sprintf("%s-worklog-S%02d.md", week.Start(), week.Num) }

// KitLine is the memory-kit's history line of week's note:
// `- [<monday> — Worklog S<WW> (<monday> → <sunday>)](archives/<file>)`.
func KitLine(week Week) string {
	return fmt.Sprintf("- [%s — Worklog S%02d (%s → %s)](archives/%s)", week.Start(), week.Num, week.Start(), week.End(), KitName(week))
}
