package core

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/tools"
)

const hygBody = "**Objective:** o\n**Completed:** c\n**Decisions:** d\n**Open threads:** t\n**Next action:** n\n\n"

func hygLog(dates ...string) string {
	s := "# Session log\n\n"
	for _, d := range dates {
		s += "## " + d + " — s " + d + "\n" + hygBody
	}
	return s
}

const hygPrio = "## Operating Mode: ship\n\n## Tier 1\n- one\n- two #stale\n\nLast reviewed: 2026-11-20\n"

// hygCall runs mem_context_hygiene on m through Handle and decodes the answer.
func hygCall(t *testing.T, m memVault, action string) (*tools.HygieneResult, plan.Plan, int) {
	t.Helper()
	ans, rounds := m.call(t, "mem_context_hygiene", `{"action":"`+action+`"}`)
	b, _ := json.Marshal(ans)
	var a struct {
		OK     bool
		Result *tools.HygieneResult
		Plan   plan.Plan
	}
	if err := json.Unmarshal(b, &a); err != nil || !a.OK || a.Result == nil {
		t.Fatalf("%s: answer %s", action, b)
	}
	return a.Result, a.Plan, rounds
}

// apply applies a plan's writes to m, checking each precondition.
func (m memVault) apply(t *testing.T, p plan.Plan) {
	t.Helper()
	for _, op := range p {
		old, ok := m[op.Path]
		if op.Op != plan.Write || (op.Expect == plan.Absent && ok) || (op.Expect != plan.Absent && (!ok || plan.HashString(old) != op.Expect)) {
			t.Fatalf("op %+v does not apply", op)
		}
		m[op.Path] = *op.Text
	}
}

// A nightly trim through Handle: one round for the sources, one for the
// archives; once applied, the check passes and a second trim does nothing.
func TestHygieneNightly(t *testing.T) {
	m := memVault{
		"memory/SESSION_LOG.md":             hygLog("2026-11-29", "2026-11-28", "2026-11-27", "2026-11-26", "2026-11-25", "2026-11-24"),
		"memory/ACTIVE_PRIORITIES.md":       hygPrio,
		"10-episodes/projects/a/context.md": "---\nphase: x\n---\n",
	}
	r, _, rounds := hygCall(t, m, "check")
	if r.Pass || rounds != 2 || !strings.HasPrefix(r.Line, "CONTEXT_HYGIENE FAIL session_entries=6 ") {
		t.Fatalf("check: %s after %d rounds", r.Line, rounds)
	}
	r, p, rounds := hygCall(t, m, "trim")
	if !r.Pass || rounds != 3 || len(p) != 4 || !r.Trim.Trimmed {
		t.Fatalf("trim: %s, %d ops after %d rounds", r.Line, len(p), rounds)
	}
	before := len(m)
	m.apply(t, p)
	if len(m) != before+2 || m["10-episodes/projects/a/context.md"] != "---\nphase: x\n---\n" {
		t.Errorf("the trim touched other files: %v", m)
	}
	r, _, _ = hygCall(t, m, "check")
	if !r.Pass || r.Line != "CONTEXT_HYGIENE PASS session_entries=5 retention_limit=5 block_errors=0 newest_first=yes operating_modes=1 live_priorities=1 placeholders=0 last_reviewed=yes embedded_archive=no" {
		t.Errorf("check after the trim: %s", r.Line)
	}
	r, p, rounds = hygCall(t, m, "trim")
	if p != nil || rounds != 2 || r.Trim.Trimmed || !r.Pass {
		t.Errorf("second trim: %+v, %d ops after %d rounds; want nothing to do", r.Trim, len(p), rounds)
	}
}

// A crash after the archives were written, before the sources: the next
// trim finds the blocks and items already archived and only trims.
func TestHygieneRerunAfterHalfApplied(t *testing.T) {
	m := memVault{
		"memory/SESSION_LOG.md":       hygLog("2026-11-29", "2026-11-28", "2026-11-27", "2026-11-26", "2026-11-25", "2026-11-24"),
		"memory/ACTIVE_PRIORITIES.md": hygPrio,
	}
	_, p, _ := hygCall(t, m, "trim")
	m.apply(t, p[:2]) // the archives only
	archives := map[string]string{p[0].Path: m[p[0].Path], p[1].Path: m[p[1].Path]}
	r, p2, _ := hygCall(t, m, "trim")
	if len(p2) != 2 || p2[0].Path != "memory/SESSION_LOG.md" || p2[1].Path != "memory/ACTIVE_PRIORITIES.md" ||
		r.Trim.SkippedDuplicateBlocks != 1 || r.Trim.SkippedDuplicatePriorities != 1 || r.Trim.MovedBlocks != 0 || !r.Pass {
		t.Fatalf("re-run: %+v, plan %+v", r.Trim, p2)
	}
	m.apply(t, p2)
	for path, text := range archives {
		if m[path] != text {
			t.Errorf("%s written twice:\n%s", path, m[path])
		}
	}
}

func TestHygieneRefusesUnknownAction(t *testing.T) {
	ans, _ := memVault{}.call(t, "mem_context_hygiene", `{"action":"fix"}`)
	e, _ := ans["error"].(map[string]any)
	if ans["ok"] != false || e["code"] != "INVALID_ARGUMENT" || e["details"].(map[string]any)["parameter"] != "action" {
		t.Errorf("answer %v; want INVALID_ARGUMENT naming action", ans)
	}
}
