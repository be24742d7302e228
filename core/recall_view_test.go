package core

import (
	"fmt"
	"strings"
	"testing"
)

// TestRecallFillsItsBudget: over a range of max_chars, on a vault whose
// whole recall is larger, the answer a model reads (chars) stays within
// max_chars and uses at least half of it: a budget just under the whole
// recall drops what it must, never the briefing at large.
func TestRecallFillsItsBudget(t *testing.T) {
	for _, v := range []struct {
		name string
		m    memVault
		args string
	}{{"big", recallVault(), `"slug":"big","archives":10`}, {"small", smallRecallVault(), `"slug":"small"`}} {
		_, whole := v.m.run(t, "mem_recall", "{"+v.args+`,"max_chars":200000}`)
		full := int(whole["result"].(map[string]any)["chars"].(float64))
		if full <= 1100 {
			t.Fatalf("%s: the whole recall is %d characters: no budget to test", v.name, full)
		}
		for max := 1000; max < full && max <= 20000; max += 97 {
			_, ans := v.m.run(t, "mem_recall", fmt.Sprintf(`{%s,"max_chars":%d}`, v.args, max))
			chars := int(ans["result"].(map[string]any)["chars"].(float64))
			if chars > max || chars < max/2 {
				t.Errorf("%s, max_chars %d: %d characters (the whole recall: %d)", v.name, max, chars, full)
			}
		}
	}
}

// smallRecallVault is a project a little over 2,000 characters of recall:
// a context and three archives of short sections, one derived atom.
func smallRecallVault() memVault {
	m := memVault{}
	dir := "10-episodes/projects/small/"
	m[dir+"context.md"] = "---\nslug: small\nphase: test\nsummary: A small project.\n---\n# Small\n\nThe prototype reads every 10 minutes.\n"
	var hist strings.Builder
	hist.WriteString("# History — small\n\n")
	for i := 2; i >= 0; i-- {
		name := fmt.Sprintf("2026-11-%02d-10h00-small-s%d.md", 10+i, i)
		fmt.Fprintf(&hist, "- [2026-11-%02d 10h00 — Session %d](archives/%s)\n", 10+i, i, name)
		m[dir+"archives/"+name] = fmt.Sprintf("---\nsubject: Session %d\nderived_atoms:\n  - \"[[Fact %d]]\"\n---\nDone.\n\n## Decisions\n- Decision %d, a short one.\n\n## Next steps\n- Step %d.\n", i, i, i, i)
		m[fmt.Sprintf("20-knowledge/Fact %d.md", i)] = "---\nkind: knowledge\n---\n" + strings.Repeat("Knowledge. ", 20)
	}
	m[dir+"history.md"] = hist.String()
	return m
}
