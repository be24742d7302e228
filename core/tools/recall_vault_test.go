package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestVaultBriefingFits: for every budget from mem_recall's least up, the
// vault-wide briefing's whole JSON is within it; it keeps a prefix of the
// entries, in order, never fewer for a larger budget; summaries are cut
// (at most 300 characters, "…") before an entry is left out; and a budget
// that holds everything leaves every summary whole.
func TestVaultBriefingFits(t *testing.T) {
	env := &Env{Lang: "en"}
	var entries []recallVaultEntry
	for i := range 12 {
		phase, last := "build", fmt.Sprintf("2026-11-%02d", 28-i)
		summary := strings.Repeat(fmt.Sprintf("word%d é ", i), 10+i*4)
		entries = append(entries, recallVaultEntry{Slug: fmt.Sprintf("p%02d", i), Kind: "project", Phase: &phase, LastSession: &last, Summary: &summary})
	}
	kept, lastCut := -1, true
	for budget := 1000; budget <= 30000; budget += 125 {
		in := make([]recallVaultEntry, len(entries))
		for i, e := range entries {
			s := briefCut(*e.Summary, briefSummaryMax)
			e.Summary = &s
			in[i] = e
		}
		res := fitBriefing(env, recallVaultResult{Scope: "vault", Common: common()}, in, budget)
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		if n := utf8.RuneCount(b); n > budget {
			t.Fatalf("budget %d: the answer is %d characters", budget, n)
		}
		n := len(res.Projects)
		if n+res.LeftOut.Projects != len(entries) || n < kept {
			t.Fatalf("budget %d: %d kept, %d left out (a smaller budget kept %d)", budget, n, res.LeftOut.Projects, kept)
		}
		kept = n
		cut := false
		for i, e := range res.Projects {
			if e.Slug != entries[i].Slug {
				t.Fatalf("budget %d: entry %d is %s, want %s", budget, i, e.Slug, entries[i].Slug)
			}
			whole := briefCut(*entries[i].Summary, briefSummaryMax)
			if *e.Summary != whole {
				cut = true
				if !strings.HasSuffix(*e.Summary, "…") || utf8.RuneCountInString(*e.Summary) > briefSummaryMax {
					t.Fatalf("budget %d: %s's summary %q is not a cut", budget, e.Slug, *e.Summary)
				}
			}
		}
		lastCut = cut
		if res.LeftOut.Projects > 0 && !cut && n > 0 {
			t.Fatalf("budget %d: entries left out with every summary whole", budget)
		}
		if res.LeftOut.Projects > 0 && !strings.Contains(res.SummaryMD, fmt.Sprint(res.LeftOut.Projects)+" more left out") {
			t.Fatalf("budget %d: the briefing does not say %d were left out: %s", budget, res.LeftOut.Projects, res.SummaryMD)
		}
	}
	if kept != len(entries) || lastCut {
		t.Fatalf("the largest budget kept %d of %d entries, summaries cut: %v; want all, whole", kept, len(entries), lastCut)
	}
}
