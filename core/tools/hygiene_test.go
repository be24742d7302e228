package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kessho/kessho/core/hygiene"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/internal/vaulttest"
)

const hygFields = "**Objective:** ship the check\n" +
	"**Completed:** parser\n" +
	"**Decisions:** follow the reference\n" +
	"**Open threads:** none\n" +
	"**Next action:** write tests\n\n"

func hygBlock(date string) string { return "## " + date + " — session " + date + "\n" + hygFields }

func hygLog(dates ...string) string {
	s := "# Session log\n\nNewest first.\n\n"
	for _, d := range dates {
		s += hygBlock(d)
	}
	return s
}

const hygPrio = "# Active priorities\n\n" +
	"## Operating Mode: build\n\n" +
	"## Tier 1\n- ship kessho\n- [ ] write docs\n\n" +
	"Last reviewed: 2026-11-01\n"

var hygSeven = []string{"2026-11-29", "2026-11-28", "2026-11-27", "2026-11-26", "2026-11-25", "2026-11-24", "2026-11-23"}

// hygNow is 10:15 in Paris on 2026-11-30.
var hygNow = time.Date(2026, 11, 30, 10, 15, 0, 0, time.FixedZone("CET", 3600))

// snapshotOf returns a snapshot holding files and saying every path of
// absent does not exist. A file whose text is not UTF-8 is sent as hosts
// send it: its hash and no text.
func snapshotOf(files map[string]string, absent ...string) vault.Snapshot {
	s := vault.Snapshot{Files: map[string]vault.File{}, Missing: absent}
	for p, t := range files {
		s.Files[p] = vaulttest.FileOf(t)
	}
	return s
}

// allHygiene is every path the tool may read on 2026-11-30.
var allHygiene = []string{SessionLogPath, PrioritiesPath, sessionArchivePath("2026-11-30"), prioritiesArchivePath("2026-11-30")}

// runHygiene runs the tool on files (every other path of allHygiene
// absent) and returns its result and plan.
func runHygiene(t *testing.T, action string, files map[string]string) (*HygieneResult, plan.Plan) {
	t.Helper()
	var absent []string
	for _, p := range allHygiene {
		if _, ok := files[p]; !ok {
			absent = append(absent, p)
		}
	}
	env := &Env{Now: hygNow, Lang: "en", View: vault.NewView(snapshotOf(files, absent...))}
	res, p, err := contextHygiene(env, contextHygieneArgs{Action: action})
	if err != nil {
		t.Fatalf("%s: %v", action, err)
	}
	if err := p.Validate(); err != nil {
		t.Fatalf("%s: invalid plan: %v", action, err)
	}
	return res.(*HygieneResult), p
}

func sha(s string) string { return plan.HashString(s) }

func TestHygieneCheck(t *testing.T) {
	for _, log := range []string{hygLog(hygSeven[:3]...), hygLog(hygSeven...), "no block at all\n"} {
		r, p := runHygiene(t, "check", map[string]string{SessionLogPath: log, PrioritiesPath: hygPrio})
		want := hygiene.Check(log, hygPrio)
		if r.Line != want.Line() || r.Pass != want.Pass || r.Report == nil || r.Report.SessionEntries != want.SessionEntries ||
			r.Unreadable != "" || r.Trim != nil || p != nil {
			t.Errorf("check = %+v, plan %v; want line %s and no plan", r, p, want.Line())
		}
		wantFiles := []hygieneFileSum{{Path: SessionLogPath, SHA256: sha(log)}, {Path: PrioritiesPath, SHA256: sha(hygPrio)}}
		if fmt.Sprint(r.Files) != fmt.Sprint(wantFiles) {
			t.Errorf("files = %v; want %v", r.Files, wantFiles)
		}
	}
}

func TestHygieneUnreadable(t *testing.T) {
	latin1 := "caf\xe9\n"
	tests := []struct {
		name  string
		files map[string]string
		why   string
	}{
		{"both missing", map[string]string{}, SessionLogPath + ": no such file"},
		{"log missing", map[string]string{PrioritiesPath: hygPrio}, SessionLogPath + ": no such file"},
		{"priorities missing", map[string]string{SessionLogPath: hygLog("2026-11-29")}, PrioritiesPath + ": no such file"},
		{"log not UTF-8", map[string]string{SessionLogPath: latin1, PrioritiesPath: hygPrio}, SessionLogPath + ": not UTF-8 text"},
		{"log missing, priorities not UTF-8", map[string]string{PrioritiesPath: latin1}, SessionLogPath + ": no such file"},
	}
	for _, tt := range tests {
		for _, action := range []string{"check", "trim"} {
			r, p := runHygiene(t, action, tt.files)
			if r.Line != hygiene.UnreadableLine(tt.why) || r.Pass || r.Report != nil || r.Unreadable != tt.why || p != nil {
				t.Errorf("%s %s: %+v, plan %v; want %q and no plan", tt.name, action, r, p, hygiene.UnreadableLine(tt.why))
			}
			if action == "trim" && (r.Trim == nil || r.Trim.Trimmed || r.Trim.Blocked) {
				t.Errorf("%s trim: %+v; want trimmed false", tt.name, r.Trim)
			}
		}
	}
}

func TestHygieneTrimGreenReadsNoArchive(t *testing.T) {
	log := hygLog(hygSeven[:5]...)
	// The archives are neither present nor said missing: reading one
	// would be a need.
	env := &Env{Now: hygNow, View: vault.NewView(snapshotOf(map[string]string{SessionLogPath: log, PrioritiesPath: hygPrio}))}
	res, p, err := contextHygiene(env, contextHygieneArgs{Action: "trim"})
	if err != nil {
		t.Fatal(err)
	}
	r := res.(*HygieneResult)
	if p != nil || !r.Pass || r.Trim.Trimmed || r.Trim.Blocked || len(r.Trim.Archives) != 0 || len(r.Files) != 2 ||
		r.Line != hygiene.Check(log, hygPrio).Line() || r.Trim.BeforeLine != r.Line {
		t.Errorf("green trim = %+v %+v, plan %v; want nothing to do", r, r.Trim, p)
	}
}

func TestHygieneTrimPlan(t *testing.T) {
	log := hygLog(hygSeven...)
	prio := hygPrio[:len(hygPrio)-len("Last reviewed: 2026-11-01\n")] + "- old idea #stale\n  detail\n\nLast reviewed: 2026-11-01\n"
	r, p := runHygiene(t, "trim", map[string]string{SessionLogPath: log, PrioritiesPath: prio})
	tp := hygiene.PlanTrim(log, prio, nil, nil)
	sa, pa := sessionArchivePath("2026-11-30"), prioritiesArchivePath("2026-11-30")
	want := plan.Plan{
		plan.WriteOp(sa, plan.Absent, *tp.SessionArchive),
		plan.WriteOp(pa, plan.Absent, *tp.PrioritiesArchive),
		plan.WriteOp(SessionLogPath, sha(log), *tp.SessionLog),
		plan.WriteOp(PrioritiesPath, sha(prio), *tp.Priorities),
	}
	gotJSON, _ := json.Marshal(p)
	wantJSON, _ := json.Marshal(want)
	if string(gotJSON) != string(wantJSON) {
		t.Fatalf("plan =\n%s\nwant\n%s", gotJSON, wantJSON)
	}
	if !r.Pass || r.Line != tp.After.Line() || r.Trim.BeforeLine != tp.Before.Line() || !r.Trim.Trimmed || r.Trim.Blocked ||
		r.Trim.MovedBlocks != 2 || r.Trim.MovedPriorityItems != 1 || strings.Join(r.Trim.Archives, ",") != sa+","+pa {
		t.Errorf("result = %+v %+v", r, r.Trim)
	}
	after := map[string][2]string{
		SessionLogPath: {sha(log), sha(*tp.SessionLog)}, PrioritiesPath: {sha(prio), sha(*tp.Priorities)},
		sa: {plan.Absent, sha(*tp.SessionArchive)}, pa: {plan.Absent, sha(*tp.PrioritiesArchive)},
	}
	if len(r.Files) != 4 {
		t.Fatalf("files = %v; want 4", r.Files)
	}
	for _, f := range r.Files {
		if w := after[f.Path]; f.SHA256 != w[0] || f.SHA256After != w[1] {
			t.Errorf("file %s: %s → %s; want %s → %s", f.Path, f.SHA256, f.SHA256After, w[0], w[1])
		}
	}
	if !strings.Contains(r.SummaryMD, "moved 2 session block(s) to `"+sa+"`") || !strings.Contains(r.SummaryMD, r.Line) {
		t.Errorf("summary = %q", r.SummaryMD)
	}
}

func TestHygieneTrimAppendsToArchive(t *testing.T) {
	log := hygLog(hygSeven...)
	sa := sessionArchivePath("2026-11-30")
	old := hygiene.SessionArchiveHeader + "\n\n" + hygBlock(hygSeven[6])
	r, p := runHygiene(t, "trim", map[string]string{SessionLogPath: log, PrioritiesPath: hygPrio, sa: old})
	// The priorities, read but not written, are checked still as read.
	if len(p) != 3 || p[0].Path != sa || p[0].Expect != sha(old) || *p[0].Text != old+hygBlock(hygSeven[5]) ||
		p[1].Path != SessionLogPath || p[1].Expect != sha(log) || *p[1].Text != hygLog(hygSeven[:5]...) ||
		p[2].Op != plan.Check || p[2].Path != PrioritiesPath || p[2].Expect != sha(hygPrio) || p[2].Text != nil {
		t.Fatalf("plan = %+v", p)
	}
	if r.Trim.MovedBlocks != 1 || r.Trim.SkippedDuplicateBlocks != 1 || len(r.Warnings) != 1 || !r.Pass {
		t.Errorf("result = %+v %+v", r, r.Trim)
	}
}

func TestHygieneTrimBlocked(t *testing.T) {
	bad := hygLog(hygSeven[:6]...) + "## 2026-11-01 — x\n**Objective:** only\n"
	r, p := runHygiene(t, "trim", map[string]string{SessionLogPath: bad, PrioritiesPath: hygPrio})
	before := hygiene.Check(bad, hygPrio)
	if p != nil || r.Pass || !r.Trim.Blocked || r.Trim.Trimmed || r.Line != before.Line() || len(r.Trim.Gates) == 0 {
		t.Fatalf("blocked trim = %+v %+v, plan %v", r, r.Trim, p)
	}
	g := r.Trim.Gates[0]
	if g.File != SessionLogPath || !g.Blocking || g.Line != strings.Count(bad[:strings.Index(bad, "## 2026-11-01")], "\n")+1 {
		t.Errorf("gate = %+v", g)
	}
	for _, f := range r.Files {
		if f.SHA256 != f.SHA256After {
			t.Errorf("file %s changes in a blocked trim", f.Path)
		}
	}
}

func TestHygieneTrimArchiveNotUTF8(t *testing.T) {
	sa := sessionArchivePath("2026-11-30")
	r, p := runHygiene(t, "trim", map[string]string{SessionLogPath: hygLog(hygSeven...), PrioritiesPath: hygPrio, sa: "caf\xe9\n"})
	if p != nil || !r.Trim.Blocked || len(r.Trim.Gates) != 1 || r.Trim.Gates[0].File != sa || !r.Trim.Gates[0].Blocking {
		t.Errorf("trim onto a non-UTF-8 archive = %+v %+v, plan %v; want blocked on %s", r, r.Trim, p, sa)
	}
}

func TestHygieneTrimNeedsHuman(t *testing.T) {
	prio := strings.Replace(hygPrio, "- ship kessho", "- [Your first priority]", 1)
	r, p := runHygiene(t, "trim", map[string]string{SessionLogPath: hygLog("2026-11-29"), PrioritiesPath: prio})
	if p != nil || r.Pass || r.Trim.Blocked || r.Trim.Trimmed || len(r.Trim.Gates) != 1 || r.Trim.Gates[0].Line != 6 ||
		r.Trim.Gates[0].File != PrioritiesPath || r.Trim.Gates[0].Blocking {
		t.Errorf("trim of a placeholder = %+v %+v, plan %v; want one non-blocking gate, nothing written", r, r.Trim, p)
	}
}

// The archive is named by the day in the vault's zone, not UTC's.
func TestHygieneTrimDayInVaultZone(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 30, 23, 30, 0, 0, time.UTC).In(paris) // 00:30 on 1 December in Paris
	env := &Env{Now: now, View: vault.NewView(snapshotOf(map[string]string{SessionLogPath: hygLog(hygSeven...), PrioritiesPath: hygPrio}))}
	_, _, err = contextHygiene(env, contextHygieneArgs{Action: "trim"})
	if !errors.Is(err, vault.ErrNeed) {
		t.Fatalf("err = %v; want a need for the archives", err)
	}
	want := []string{sessionArchivePath("2026-12-01"), prioritiesArchivePath("2026-12-01")}
	if got := env.View.Need().Files; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("need = %v; want %v", got, want)
	}
}

func TestHygieneFirstNeedIsBothSources(t *testing.T) {
	env := &Env{Now: hygNow, View: vault.NewView(vault.Snapshot{})}
	_, _, err := contextHygiene(env, contextHygieneArgs{Action: "check"})
	if !errors.Is(err, vault.ErrNeed) {
		t.Fatalf("err = %v; want a need", err)
	}
	if got := env.View.Need(); fmt.Sprint(got.Files) != fmt.Sprint([]string{SessionLogPath, PrioritiesPath}) || len(got.Dirs)+len(got.Trees) != 0 {
		t.Errorf("need = %+v; want the session log then the priorities", got)
	}
}

func TestHygieneFrench(t *testing.T) {
	env := &Env{Now: hygNow, Lang: "fr", View: vault.NewView(snapshotOf(map[string]string{
		SessionLogPath: hygLog(hygSeven...), PrioritiesPath: hygPrio}, allHygiene[2:]...))}
	res, _, err := contextHygiene(env, contextHygieneArgs{Action: "trim"})
	if err != nil {
		t.Fatal(err)
	}
	r := res.(*HygieneResult)
	if !strings.HasPrefix(r.SummaryMD, "Élagage fait : 2 bloc(s) de session déplacé(s)") || !strings.HasPrefix(r.Line, "CONTEXT_HYGIENE PASS ") {
		t.Errorf("French trim: summary %q, line %q", r.SummaryMD, r.Line)
	}
}
