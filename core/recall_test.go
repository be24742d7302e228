package core

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"
	"unicode/utf8"
)

// recallVault is a project with a long context, many archives with long
// sections and derived atoms, and many principles that link to it.
func recallVault() memVault {
	m := memVault{}
	dir := "10-episodes/projects/big/"
	m[dir+"context.md"] = "---\nslug: big\nphase: build\n---\n# Big\n\n" + strings.Repeat("Context line with accents été, and words.\n", 120)
	var hist strings.Builder
	hist.WriteString("# History — big\n\n")
	for i := 9; i >= 0; i-- {
		name := fmt.Sprintf("2026-11-%02d-10h00-big-s%d.md", 10+i, i)
		fmt.Fprintf(&hist, "- [2026-11-%02d 10h00 — Session %d](archives/%s)\n", 10+i, i, name)
		m[dir+"archives/"+name] = fmt.Sprintf("---\nsubject: Session %d\nderived_atoms:\n  - \"[[Fact %d]]\"\n---\nLead.\n\n## Decisions\n%s\n## Next steps\n%s", i, i,
			strings.Repeat("- A decision that matters.\n", 30), strings.Repeat("- Something to do next.\n", 30))
		m[fmt.Sprintf("20-knowledge/Fact %d.md", i)] = "---\nkind: knowledge\n---\n" + strings.Repeat("Knowledge. ", 150)
		m[fmt.Sprintf("40-principles/Rule %d.md", i)] = "Applies to [[big]]. " + strings.Repeat("Why. ", 100)
	}
	m[dir+"history.md"] = hist.String()
	return m
}

// TestRecallBudget proves max_chars is a bound on the answer a model reads
// (the result's JSON without summary_md), chars counts it, summary_md fits
// too, every text the result holds is in it, and every cut is listed.
func TestRecallBudget(t *testing.T) {
	m := recallVault()
	for _, max := range []int{1000, 1001, 1500, 2345, 4000, 7777, 12000, 30000, 200000} {
		_, ans := m.run(t, "mem_recall", fmt.Sprintf(`{"slug":"big","archives":10,"max_chars":%d}`, max))
		res, ok := ans["result"].(map[string]any)
		if !ok {
			t.Fatalf("max %d: %v", max, ans)
		}
		sum := res["summary_md"].(string)
		if n := utf8.RuneCountInString(sum); n > max {
			t.Errorf("max %d: summary_md has %d characters", max, n)
		}
		view := maps.Clone(res)
		delete(view, "summary_md")
		b, _ := json.Marshal(view)
		if n := utf8.RuneCount(b); n > max || int(res["chars"].(float64)) != n {
			t.Errorf("max %d: the result without summary_md has %d characters, chars says %v", max, n, res["chars"])
		}
		var texts []string
		texts = append(texts, res["context"].(map[string]any)["body"].(string))
		for _, a := range res["archives"].([]any) {
			for _, s := range a.(map[string]any)["sections"].([]any) {
				texts = append(texts, s.(map[string]any)["text"].(string))
			}
		}
		for _, k := range []string{"atoms", "linked"} {
			for _, n := range res[k].([]any) {
				texts = append(texts, n.(map[string]any)["text"].(string))
			}
		}
		for _, tx := range texts {
			if !strings.Contains(sum, strings.TrimSpace(tx)) {
				t.Errorf("max %d: a result text is not in summary_md: %.60q", max, tx)
			}
		}
		lo := res["left_out"].(map[string]any)
		cut := len(res["truncated"].([]any)) + int(lo["archives"].(float64)+lo["atoms"].(float64)+lo["linked"].(float64))
		if max == 200000 { // only the atoms' texts, cut at 800 characters each
			for _, c := range res["truncated"].([]any) {
				if c := c.(map[string]any); c["part"] != "text" || c["kept"].(float64) > 800 || c["kept"].(float64) < 600 || !strings.HasPrefix(c["path"].(string), "20-knowledge/") {
					t.Errorf("max %d: cut %v", max, c)
				}
			}
		} else if cut == 0 {
			t.Errorf("max %d: nothing listed as cut", max)
		}
		if cut > 0 && !strings.Contains(sum, "counted in `left_out`") {
			t.Errorf("max %d: summary_md does not say it was cut", max)
		}
		if max == 30000 && (len(res["atoms"].([]any)) != 10 || len(res["linked"].([]any)) != 10) {
			t.Errorf("atoms %d, linked %d: want 10 each", len(res["atoms"].([]any)), len(res["linked"].([]any)))
		}
	}
}
