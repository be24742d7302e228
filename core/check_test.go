package core

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/tools"
)

// plantedVault is a sound vault of n atoms and a project with archives
// and history, plus, when plant is true, one of each finding mem_check
// reports: the findings (code and path) it must report, sorted.
func plantedVault(n int, plant bool) (memVault, []string) {
	m := memVault{}
	p := "10-episodes/projects/alpha/"
	m[p+"context.md"] = "---\nslug: alpha\nphase: build\n---\n# Alpha\n"
	m[p+"archives/2026-11-20-10h00-alpha-first.md"] = "---\nslug: alpha\n---\nfirst\n"
	m[p+"archives/2026-11-21-10h00-alpha-second.md"] = "---\nslug: alpha\n---\nsecond\n"
	m[p+"history.md"] = "# History — alpha\n\n- [2026-11-21 10h00 — second](archives/2026-11-21-10h00-alpha-second.md)\n- [2026-11-20 10h00 — first](archives/2026-11-20-10h00-alpha-first.md)\n"
	for i := range n {
		next := fmt.Sprintf("atom-%d", (i+1)%n)
		m[fmt.Sprintf("20-knowledge/tech/atom-%d.md", i)] = fmt.Sprintf("---\nslug: atom-%d\nzone: knowledge\n---\nSee [[%s]] and [[10-episodes/projects/alpha/context|alpha]].\n", i, next)
	}
	if !plant {
		return m, nil
	}
	m["20-knowledge/tech/atom-0.md"] += "\nAlso [[atom-zzz]].\n"
	m["20-knowledge/tech/dup.md"] = "---\nslug: a\nslug: b\n---\n"
	m["20-knowledge/tech/bad.md"] = "---\nslug: [a\n---\n"
	m["20-knowledge/tech/latin1.md"] = "caf\xe9\n"
	m["20-knowledge/tech/atom-1.kessho-conflict-20261130T101507Z.md"] = "other\n"
	m[p+"archives/2026-11-22-10h00-alpha-third.md"] = "third\n"
	m[p+"history.md"] += "- [2026-11-19 10h00 — gone](archives/2026-11-19-10h00-alpha-gone.md)\n"
	m["10-episodes/archived/alpha/context.md"] = "---\nphase: archived\n---\n"
	m["10-episodes/domains/ops/archives/2026-11-01-09h00-ops-setup.md"] = "setup\n"
	m["memory/SESSION_LOG.md"] = "# Session log\n"
	m["memory/ACTIVE_PRIORITIES.md"] = "# Active priorities\n"
	m["40-principles/index.md"] = "# Principles\n\n- [[rule-a]]\n"
	m["40-principles/work/rule-a.md"] = "Listed.\n"
	m["40-principles/work/rule-b.md"] = "Not listed.\n"
	return m, []string{
		"ARCHIVE_NOT_IN_HISTORY " + p + "archives/2026-11-22-10h00-alpha-third.md",
		"BROKEN_LINK 20-knowledge/tech/atom-0.md",
		"CONFLICT_COPY 20-knowledge/tech/atom-1.kessho-conflict-20261130T101507Z.md",
		"FRONTMATTER_DUPLICATE_KEY 20-knowledge/tech/dup.md",
		"FRONTMATTER_INVALID 20-knowledge/tech/bad.md",
		"HISTORY_DANGLING " + p + "history.md",
		"HISTORY_MISSING 10-episodes/domains/ops/history.md",
		"HYGIENE_FAIL memory/SESSION_LOG.md",
		"INDEX_MISSING 40-principles/work/rule-b.md",
		"NOT_UTF8 20-knowledge/tech/latin1.md",
		"SLUG_TWICE 10-episodes/archived/alpha",
		"SLUG_TWICE 10-episodes/projects/alpha",
	}
}

// checkRun runs mem_check on m and decodes its result and plan.
func checkRun(t *testing.T, m memVault, args string) (*tools.CheckResult, []any) {
	t.Helper()
	ans, p := m.runAt(t, "mem_check", args, "2026-11-30T10:15:00+01:00")
	b, _ := json.Marshal(ans["result"])
	var res tools.CheckResult
	if ans["ok"] != true || json.Unmarshal(b, &res) != nil {
		t.Fatalf("mem_check %s: answer %v", args, ans)
	}
	var ops []any
	for _, op := range p {
		ops = append(ops, op)
	}
	return &res, ops
}

func codesOf(fs []tools.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Code+" "+f.Path)
	}
	slices.Sort(out)
	return out
}

func TestCheckReportsEveryPlantedFindingAndNothingElse(t *testing.T) {
	sound, _ := plantedVault(300, false)
	if res, ops := checkRun(t, sound, `{}`); !res.Sound || len(res.Findings) != 0 || ops != nil {
		t.Fatalf("sound vault: %d findings (first %+v), plan %v; want sound, no plan", len(res.Findings), res.Findings[:min(1, len(res.Findings))], ops)
	}
	m, want := plantedVault(300, true)
	res, ops := checkRun(t, m, `{}`)
	if got := codesOf(res.Findings); !slices.Equal(got, want) {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if res.Sound || ops != nil {
		t.Errorf("sound %v, plan %v; want unsound and no plan without repair", res.Sound, ops)
	}
	for _, f := range res.Findings {
		if f.Fix == "" || f.Message == "" {
			t.Errorf("finding %+v has no message or fix", f)
		}
		if f.Code == "BROKEN_LINK" && (f.Line != 7 || !strings.Contains(f.Fix, "[[atom-")) {
			t.Errorf("broken link %+v; want line 7 and a closest note", f)
		}
	}
}

func TestCheckRepairFixesOnlyHistory(t *testing.T) {
	m, _ := plantedVault(20, true)
	res, _ := checkRun(t, m, `{"repair":true}`)
	_, p := m.runAt(t, "mem_check", `{"repair":true}`, "2026-11-30T10:15:00+01:00")
	var repaired []string
	for _, f := range res.Repaired {
		repaired = append(repaired, f.Code)
	}
	slices.Sort(repaired)
	if want := []string{"ARCHIVE_NOT_IN_HISTORY", "HISTORY_DANGLING", "HISTORY_MISSING"}; !slices.Equal(repaired, want) {
		t.Errorf("repaired %v; want %v", repaired, want)
	}
	if len(res.Gates) != len(res.Findings)-3 {
		t.Errorf("%d gates of %d findings; want all but the 3 repaired", len(res.Gates), len(res.Findings))
	}
	m.applyAll(t, p)
	h := m["10-episodes/projects/alpha/history.md"]
	if !strings.HasPrefix(h, "# History — alpha\n\n- [2026-11-22 10h00 — third](archives/2026-11-22-10h00-alpha-third.md)\n- [2026-11-21") || strings.Contains(h, "gone") {
		t.Errorf("alpha's history after repair:\n%s", h)
	}
	if got, want := m["10-episodes/domains/ops/history.md"], "# History — ops\n\n- [2026-11-01 09h00 — setup](archives/2026-11-01-09h00-ops-setup.md)\n"; got != want {
		t.Errorf("ops's history = %q; want %q", got, want)
	}
	again, _ := checkRun(t, m, `{"repair":true}`)
	if len(again.Repaired) != 0 || len(again.Gates) != len(res.Gates) {
		t.Errorf("second repair: repaired %v, %d gates; want nothing repaired, the same gates", again.Repaired, len(again.Gates))
	}
}
