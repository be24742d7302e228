package tools

import (
	"strings"
	"testing"
)

// TestMoments checks that the descriptions route an agent to one tool: in
// each language, every tool's description begins with its moment (its
// text file's moment: when an agent calls it), no tool's description
// names another tool's moment anywhere, and no two tools have the same
// moment, nor one that holds another's. So two tools never both claim
// the start of a session, and a description that says when it serves
// says it first. Case is ignored.
func TestMoments(t *testing.T) {
	for _, lang := range []string{"en", "fr"} {
		moments := map[string]string{} // tool name → its moment, lower case
		for _, spec := range Specs() {
			if spec.Text == nil {
				continue
			}
			m := strings.ToLower(spec.Text().Moment.In(lang))
			if m == "" {
				t.Errorf("%s: its text file gives no %s moment (moment: when an agent calls it)", spec.Name, lang)
				continue
			}
			moments[spec.Name] = m
		}
		for _, spec := range Specs() {
			m, ok := moments[spec.Name]
			if !ok {
				continue
			}
			desc := strings.ToLower(spec.Description.In(lang))
			if !strings.HasPrefix(desc, m) {
				t.Errorf("%s (%s): the description does not begin with its moment %q: %q", spec.Name, lang, m, spec.Description.In(lang))
			}
			for other, om := range moments {
				if other == spec.Name {
					continue
				}
				if strings.Contains(m, om) {
					t.Errorf("%s (%s): its moment %q holds %s's %q: say when each serves apart", spec.Name, lang, m, other, om)
				}
				if strings.Contains(desc, om) {
					t.Errorf("%s (%s): the description names %s's moment %q", spec.Name, lang, other, om)
				}
			}
		}
	}
}
