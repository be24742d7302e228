package worklog

import (
	"fmt"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"kessho/core/note"
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
func Note(week Week, amplitude float64, t Totals, texts Texts, l Labels) (string, error) {
	f := note.Fields{
		{Key: "slug", Node: note.Str(Domain)}, {Key: "kind", Node: note.Str("worklog")}, {Key: "zone", Node: note.Str("episodes")},
		{Key: "week", Node: note.Str(week.String())}, {Key: "week_start", Node: note.Stamp(week.Start().String())}, {Key: "week_end", Node: note.Stamp(week.End().String())},
		{Key: "amplitude_hours", Node: note.Number(amplitude)}, {Key: "hours_by_project", Node: hoursNode(t.HoursByProject)},
		{Key: "display", Node: note.Str(Domain + " — " + week.String() + " Worklog")},
		{Key: "tags", Node: note.List([]string{"kind/worklog", "zone/episodes"})},
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
