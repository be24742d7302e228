package core

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/tools"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/internal/vaulttest"
)

// memVault answers needs from a map of files, the way a host answers them
// from disk: it lets the core's tests run without a host.
type memVault map[string]string

func (m memVault) answer(need vault.Need, snap *vault.Snapshot) {
	if snap.Files == nil {
		snap.Files = map[string]vault.File{}
		snap.Dirs = map[string][]string{}
	}
	file := func(p string) {
		t, ok := m[p]
		if !ok {
			snap.Missing = append(snap.Missing, p)
			return
		}
		snap.Files[p] = vaulttest.FileOf(t)
	}
	dir := func(d string) bool {
		set := map[string]bool{}
		prefix := d + "/"
		if d == "." {
			prefix = ""
		}
		for p := range m {
			if rest, ok := strings.CutPrefix(p, prefix); ok {
				if i := strings.IndexByte(rest, '/'); i >= 0 {
					set[rest[:i+1]] = true
				} else {
					set[rest] = true
				}
			}
		}
		if len(set) == 0 {
			snap.Missing = append(snap.Missing, d)
			return false
		}
		var names []string
		for n := range set {
			names = append(names, n)
		}
		sort.Strings(names)
		snap.Dirs[d] = names
		return true
	}
	for _, p := range need.Files {
		file(p)
	}
	for _, d := range need.Dirs {
		dir(d)
	}
	for _, mt := range need.Matches {
		if !dir(mt.Dir) {
			continue
		}
		all := snap.Dirs[mt.Dir]
		delete(snap.Dirs, mt.Dir) // a match carries only what it selects
		var sel []string
		for _, e := range all {
			if mt.Selects(strings.TrimSuffix(e, "/")) {
				sel = append(sel, e)
			}
		}
		if snap.Matches == nil {
			snap.Matches = map[string][]string{}
		}
		snap.Matches[mt.Key()] = sel
	}
	for _, t := range need.Trees {
		var walk func(d string)
		walk = func(d string) {
			if !dir(d) {
				return
			}
			for _, e := range snap.Dirs[d] {
				full := vault.Join(d, strings.TrimSuffix(e, "/"))
				if strings.HasSuffix(e, "/") {
					walk(full)
				} else if t.Content {
					file(full)
				}
			}
		}
		walk(t.Root)
	}
}

// run runs a tool against m, answering its needs, and returns every need
// in order and the final answer.
func (m memVault) run(t *testing.T, tool, args string) ([]vault.Need, map[string]any) {
	t.Helper()
	req := Request{Tool: tool, Args: json.RawMessage(args), Now: "2026-11-30T10:15:00+01:00", TZ: "Europe/Paris", Lang: "en"}
	var needs []vault.Need
	for round := 1; round <= 8; round++ {
		b, _ := json.Marshal(req)
		var ans map[string]any
		if err := json.Unmarshal(Handle(b), &ans); err != nil {
			t.Fatal(err)
		}
		need, ok := ans["need"]
		if !ok {
			return needs, ans
		}
		var n vault.Need
		nb, _ := json.Marshal(need)
		if err := json.Unmarshal(nb, &n); err != nil {
			t.Fatal(err)
		}
		needs = append(needs, n)
		m.answer(n, &req.Snapshot)
	}
	t.Fatalf("%s %s: still needing after 8 rounds", tool, args)
	return nil, nil
}

// call runs a tool against m and returns the answer and the number of
// calls it took.
func (m memVault) call(t *testing.T, tool, args string) (map[string]any, int) {
	t.Helper()
	needs, ans := m.run(t, tool, args)
	return ans, len(needs) + 1
}

func TestHandleRounds(t *testing.T) {
	m := memVault{"10-episodes/projects/a/context.md": "---\nphase: x\n---\n"}
	ans, rounds := m.call(t, "mem_update_phase", `{"slug":"a","phase":"y"}`)
	if ans["ok"] != true || rounds != 2 {
		t.Errorf("answer %v after %d rounds; want ok after 2 (one round of needs)", ans, rounds)
	}
}

func TestHandleRefusesBadRequests(t *testing.T) {
	for _, req := range []string{`not json`, `{"tool":"mem_list","now":"yesterday"}`, `{"tool":"mem_list"}`,
		`{"tool":"mem_list","now":"2026-11-30T10:15:00Z","tz":"Mars/Olympus"}`, `{"tool":"mem_list","now":"2026-11-30T10:15:00Z","lang":"de"}`} {
		var ans struct {
			OK    *bool
			Error struct{ Code string }
		}
		if err := json.Unmarshal(Handle([]byte(req)), &ans); err != nil || ans.OK == nil || *ans.OK || ans.Error.Code != "INVALID_ARGUMENT" {
			t.Errorf("Handle(%s) = %+v, %v; want INVALID_ARGUMENT", req, ans, err)
		}
	}
}

// TestAnswerConflict: an answer whose plan a host may find stale names the
// code the host gives that failure (the catalogue's conflict code), and
// only then: not without a plan, not for a tool that has none. The result
// is the tool's result as JSON, decoded as the tool's type.
func TestAnswerConflict(t *testing.T) {
	m := memVault{
		"memory/SESSION_LOG.md":             hygLog("2026-11-29", "2026-11-28", "2026-11-27", "2026-11-26", "2026-11-25", "2026-11-24"),
		"memory/ACTIVE_PRIORITIES.md":       hygPrio,
		"10-episodes/projects/a/context.md": "---\nphase: x\n---\n",
	}
	for _, c := range []struct {
		tool, args, conflict string
		plan                 bool
	}{
		{"mem_context_hygiene", `{"action":"trim"}`, "CONTEXT_HYGIENE_RACE", true},
		{"mem_context_hygiene", `{"action":"check"}`, "", false},
		{"mem_update_phase", `{"slug":"a","phase":"y"}`, "", true},
	} {
		req := Request{Tool: c.tool, Args: json.RawMessage(c.args), Now: "2026-11-30T10:15:00+01:00", TZ: "Europe/Paris", Lang: "en"}
		var a Answer
		for round := 0; round < 8; round++ {
			b, _ := json.Marshal(req)
			raw := Handle(b)
			a = Answer{}
			if err := json.Unmarshal(raw, &a); err != nil {
				t.Fatal(err)
			}
			if a.Need == nil {
				if got := strings.Contains(string(raw), `"conflict"`); got != (c.conflict != "") {
					t.Errorf("%s %s: answer %s; want a conflict field: %v", c.tool, c.args, raw, c.conflict != "")
				}
				break
			}
			m.answer(*a.Need, &req.Snapshot)
		}
		if a.OK == nil || !*a.OK || (len(a.Plan) > 0) != c.plan || a.Conflict != c.conflict {
			t.Errorf("%s %s: ok %v, plan %d ops, conflict %q; want a plan %v, conflict %q", c.tool, c.args, a.OK, len(a.Plan), a.Conflict, c.plan, c.conflict)
		}
		var common tools.Common
		if err := json.Unmarshal(a.Result, &common); err != nil || common.SummaryMD == "" {
			t.Errorf("%s %s: result %s does not decode as the tool's result: %v", c.tool, c.args, a.Result, err)
		}
	}
}
