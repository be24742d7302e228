package core

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/vault"
)

// runAt runs a tool against m at now (RFC 3339, Europe/Paris), answering
// its needs, and returns the answer and the plan.
func (m memVault) runAt(t *testing.T, tool, args, now string) (map[string]any, plan.Plan) {
	t.Helper()
	req := Request{Tool: tool, Args: json.RawMessage(args), Now: now, TZ: "Europe/Paris", Lang: "en"}
	for round := 1; round <= 8; round++ {
		b, _ := json.Marshal(req)
		out := Handle(b)
		var ans map[string]any
		if err := json.Unmarshal(out, &ans); err != nil {
			t.Fatal(err)
		}
		if need, ok := ans["need"]; ok {
			var n vault.Need
			nb, _ := json.Marshal(need)
			if err := json.Unmarshal(nb, &n); err != nil {
				t.Fatal(err)
			}
			m.answer(n, &req.Snapshot)
			continue
		}
		var p struct {
			Plan plan.Plan `json:"plan"`
		}
		if err := json.Unmarshal(out, &p); err != nil {
			t.Fatal(err)
		}
		delete(ans, "plan")
		return ans, p.Plan
	}
	t.Fatalf("%s %s: still needing after 8 rounds", tool, args)
	return nil, nil
}

// applyAll applies a plan to m the way a host does, checking every
// precondition: writes, deletes and folder moves.
func (m memVault) applyAll(t *testing.T, p plan.Plan) {
	t.Helper()
	holds := func(path, expect string) bool {
		old, ok := m[path]
		if expect == plan.Absent {
			if ok {
				return false
			}
			for q := range m {
				if strings.HasPrefix(q, path+"/") {
					return false
				}
			}
			return true
		}
		return ok && plan.HashString(old) == expect
	}
	for _, op := range p {
		switch op.Op {
		case plan.Write:
			if !holds(op.Path, op.Expect) {
				t.Fatalf("op %+v does not apply", op)
			}
			m[op.Path] = *op.Text
		case plan.Delete:
			if !holds(op.Path, op.Expect) {
				t.Fatalf("op %+v does not apply", op)
			}
			delete(m, op.Path)
		case plan.Move:
			if !holds(op.To, plan.Absent) {
				t.Fatalf("op %+v does not apply", op)
			}
			for q, text := range m {
				if rest, ok := strings.CutPrefix(q, op.From+"/"); ok {
					delete(m, q)
					m[op.To+"/"+rest] = text
				}
			}
		default:
			t.Fatalf("unexpected op %+v", op)
		}
	}
}

func (m memVault) clone() memVault {
	c := memVault{}
	for k, v := range m {
		c[k] = v
	}
	return c
}

func mustOK(t *testing.T, ans map[string]any) map[string]any {
	t.Helper()
	if ans["ok"] != true {
		b, _ := json.Marshal(ans)
		t.Fatalf("answer %s; want ok", b)
	}
	return ans["result"].(map[string]any)
}

const (
	hAlpha   = "10-episodes/projects/alpha/"
	hOldName = "2026-11-20-09h05-alpha-lancement.md"
	hHistory = "# History — alpha\n\n- [2026-11-20 09h05 — Lancement](archives/" + hOldName + ")\n"
)

func historyVault() memVault {
	return memVault{
		hAlpha + "context.md":           "---\nkind: project\nphase: build\n---\n# Alpha\n",
		hAlpha + "history.md":           hHistory,
		hAlpha + "archives/" + hOldName: "---\nsubject: Lancement\n---\nLancement.\n",
	}
}

// hostileSubjects break a Markdown link's text when written as is.
var hostileSubjects = []string{
	`a ] b`, `a [ b`, `a \ b`, `ends in a backslash \`, `a](archives/` + hOldName + `) b`,
	`![img](pic.png)`, `[x](archives/` + hOldName + `)`, `[[wiki link]]`, `]`, `[`, `\]`, `\\`,
	`*stars* and _under_`, "`code` span", `<b>html</b> & &amp;`, `<https://example.com>`,
	`~~strike~~ | pipe`, `a\[b\]c](x)`, `]]]] [[[[ )(`, `\`,
}

// Archive then roll back, for subjects that break a Markdown link: the
// rollback deletes the archive just made and gives history.md back byte
// for byte; the older archive is never touched.
func TestRollbackUndoesHostileArchive(t *testing.T) {
	for _, subject := range hostileSubjects {
		m := historyVault()
		before := m.clone()
		args, _ := json.Marshal(map[string]any{"slug": "alpha", "mode": "full", "archive_subject": subject,
			"archive_body_md": "Body.\n", "no_derived_because": "test"})
		ans, p := m.runAt(t, "mem_archive", string(args), "2026-11-30T10:15:00+01:00")
		made := mustOK(t, ans)["archive"].(string)
		m.applyAll(t, p)
		ans, p = m.runAt(t, "mem_rollback_archive", `{"slug":"alpha"}`, "2026-11-30T10:16:00+01:00")
		if ans["ok"] != true {
			b, _ := json.Marshal(ans)
			t.Errorf("subject %q: rollback answered %s", subject, b)
			continue
		}
		m.applyAll(t, p)
		if got := ans["result"].(map[string]any)["archive"]; got != made {
			t.Errorf("subject %q: rollback removed %v; want %s", subject, got, made)
		}
		if _, left := m[made]; left {
			t.Errorf("subject %q: rollback left %s", subject, made)
		}
		for _, f := range []string{"history.md", "archives/" + hOldName} {
			if m[hAlpha+f] != before[hAlpha+f] {
				t.Errorf("subject %q: %s after archive and rollback:\n%q\nwant:\n%q", subject, f, m[hAlpha+f], before[hAlpha+f])
			}
		}
	}
}

// A full archive run again (a retry after an answer lost, or after a
// half-way failure that recovery finished) answers the existing archive
// and writes nothing, up to 24 hours later; from then on, or with another
// body, it is a new session.
func TestArchiveRetryWritesNothing(t *testing.T) {
	m := historyVault()
	m[hAlpha+"context.md"] = "---\nkind: project\nrepo_path: /src/alpha\n---\n# Alpha\n"
	args := `{"slug":"alpha","mode":"full","phase":"review","archive_subject":"Retry me","archive_body_md":"Edited /src/alpha/a.go\r\nand more","context_md":"# Alpha\n\nSee /src/alpha/b.go.\n","no_derived_because":"test"}`
	ans, p := m.runAt(t, "mem_archive", args, "2026-11-30T10:15:00+01:00")
	first := mustOK(t, ans)
	m.applyAll(t, p)
	after := m.clone()
	for _, now := range []string{"2026-11-30T10:15:00+01:00", "2026-11-30T18:00:00+01:00", "2026-12-01T10:14:00+01:00"} {
		ans, p = m.runAt(t, "mem_archive", args, now)
		r := mustOK(t, ans)
		if len(p) != 0 || r["already_archived"] != true || r["archive"] != first["archive"] || r["history_line"] != first["history_line"] ||
			len(r["warnings"].([]any)) != 0 || !strings.Contains(r["summary_md"].(string), "already archived") {
			b, _ := json.Marshal(ans)
			t.Errorf("retry at %s: %s with %d op(s); want the first archive, already_archived, nothing written", now, b, len(p))
		}
	}
	for k, v := range after {
		if m[k] != v {
			t.Errorf("%s changed", k)
		}
	}
	// 24 hours later: a new session.
	ans, p = m.runAt(t, "mem_archive", args, "2026-12-01T10:15:00+01:00")
	if r := mustOK(t, ans); r["already_archived"] != false || r["archive"] == first["archive"] || len(p) == 0 {
		t.Errorf("24 hours later: %v; want a new archive", r)
	}
	// Another body: a new session, even at once.
	other := strings.Replace(args, "and more", "and less", 1)
	ans, p = m.runAt(t, "mem_archive", other, "2026-11-30T10:16:00+01:00")
	if r := mustOK(t, ans); r["already_archived"] != false || r["archive"] == first["archive"] || len(p) == 0 {
		t.Errorf("another body: %v; want a new archive", r)
	}
}

// Historize then revive gives context.md back byte for byte, whatever its
// display was; and revive never deletes a display that historize did not
// create, even one that reads like a created one.
func TestHistorizeReviveDisplay(t *testing.T) {
	const dir, archived = "10-episodes/projects/legacy-app/", "10-episodes/archived/legacy-app/"
	for _, ctx := range []string{
		"---\nkind: project\nphase: build\n---\nBody\n",
		"---\r\nkind: project\r\n---\r\nBody\r\n",
		"---\nkind: project\ndisplay: My app # mine\nphase: build\n---\nBody\n",
		"---\nkind: project\nphase: build\ndisplay: legacy-app — context\n---\nBody\n",
		"---\nkind: project\ndisplay: \"legacy-app — context [v2]\"\n---\nBody\n",
	} {
		m := memVault{dir + "context.md": ctx}
		_, p := m.runAt(t, "mem_historize", `{"slug":"legacy-app"}`, "2026-11-30T10:15:00+01:00")
		m.applyAll(t, p)
		_, p = m.runAt(t, "mem_historize", `{"slug":"legacy-app","revive":true}`, "2026-11-30T10:16:00+01:00")
		m.applyAll(t, p)
		if m[dir+"context.md"] != ctx {
			t.Errorf("historize then revive of\n%q\ngave\n%q", ctx, m[dir+"context.md"])
		}
	}
	// Another tool's archived project: its display is the user's.
	m := memVault{archived + "context.md": "---\nphase: archived\narchived_at: 2025-03-01\ndisplay: legacy-app — context [archived]\n---\n"}
	ans, p := m.runAt(t, "mem_historize", `{"slug":"legacy-app","revive":true}`, "2026-11-30T10:16:00+01:00")
	mustOK(t, ans)
	m.applyAll(t, p)
	if got := m[dir+"context.md"]; got != "---\ndisplay: legacy-app — context\n---\n" {
		t.Errorf("revive of another tool's project gave %q; want its display kept without the suffix", got)
	}
}
