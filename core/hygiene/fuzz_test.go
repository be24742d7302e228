package hygiene

import (
	"strings"
	"testing"
)

// FuzzPlanTrim: any input gives a plan without panicking, and the plan
// keeps its promises: a trimmed log is a prefix of the log, every moved
// byte lands in an archive, a blocked plan writes nothing, and After is the
// check of the written texts.
func FuzzPlanTrim(f *testing.F) {
	f.Add(logOf(seven...), okPrio, "")
	f.Add(okLog, okPrio+"- [stale] x\n  - y\n## Archived\n- z\n", "# a\n")
	f.Add(strings.ReplaceAll(logOf(seven...), "\n", "\r"), "```\n## Tier 1\n- a\u2028b\n", "```\n")
	f.Add("## 2026-02-30 — x\n", "- [ ] [your x]\n", "")
	f.Fuzz(func(t *testing.T, log, prio, arch string) {
		p := PlanTrim(log, prio, &arch, &arch)
		if p.Blocked && p.changes() {
			t.Fatal("a blocked plan writes")
		}
		newLog, newPrio := log, prio
		if p.SessionLog != nil {
			newLog = *p.SessionLog
			if !strings.HasPrefix(log, newLog) {
				t.Fatal("the trimmed log is not a prefix of the log")
			}
			if p.SessionArchive != nil && !strings.Contains(*p.SessionArchive, log[len(newLog):]) && p.SkippedDuplicates == 0 {
				t.Fatal("moved blocks are not in the archive")
			}
		}
		if p.Priorities != nil {
			newPrio = *p.Priorities
		}
		if got := Check(newLog, newPrio); got != p.After {
			t.Fatalf("After = %s; Check of the new texts = %s", p.After.Line(), got.Line())
		}
		if p.Before.Pass && p.changes() {
			t.Fatal("a green vault was changed")
		}
	})
}
