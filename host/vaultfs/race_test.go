//go:build unix

package vaultfs

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/internal/enginetest"
)

// The trim of mem_context_hygiene against another process (SPEC section 9,
// step 4): a file changed between the trim's read and its write makes the
// host refuse the whole plan with CONTEXT_HYGIENE_RACE.

const (
	raceFileEnv = "KESSHO_RACE_WRITE_FILE" // the writer process writes this file…
	raceDataEnv = "KESSHO_RACE_WRITE_DATA" // …with these bytes, then exits
)

// TestRaceWriterProcess is the other process: the test binary run again
// with raceFileEnv set. It does nothing in a normal test run.
func TestRaceWriterProcess(t *testing.T) {
	p := os.Getenv(raceFileEnv)
	if p == "" {
		return
	}
	if err := os.WriteFile(p, []byte(os.Getenv(raceDataEnv)), 0o644); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	os.Exit(0)
}

// racer is an engine that, when the tool gives its final answer (after the
// reads, before the host applies the plan), starts another process that
// rewrites a file of the vault, and waits for it to finish.
type racer struct {
	inner call.Engine
	path  string // absolute
	data  string
	ran   bool
}

func (r *racer) Call(ctx context.Context, req []byte) ([]byte, error) {
	ans, err := r.inner.Call(ctx, req)
	if err != nil || bytes.HasPrefix(ans, []byte(`{"need"`)) {
		return ans, err
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRaceWriterProcess$")
	cmd.Env = append(os.Environ(), raceFileEnv+"="+r.path, raceDataEnv+"="+r.data)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, &exec.Error{Name: "race writer: " + string(out), Err: err}
	}
	r.ran = true
	return ans, nil
}

const raceFields = "**Objective:** o\n**Completed:** c\n**Decisions:** d\n**Open threads:** t\n**Next action:** n\n\n"

func raceLog(dates ...string) string {
	s := "# Session log\n\n"
	for _, d := range dates {
		s += "## " + d + " — s\n" + raceFields
	}
	return s
}

var raceDates = []string{"2026-11-29", "2026-11-28", "2026-11-27", "2026-11-26", "2026-11-25", "2026-11-24", "2026-11-23"}

// raceVault is a vault whose trim moves two session blocks and one stale
// priority, beside a file no trim may touch.
var raceVault = map[string]string{
	"memory/SESSION_LOG.md":       raceLog(raceDates...),
	"memory/ACTIVE_PRIORITIES.md": "## Operating Mode: ship\n\n## Tier 1\n- one\n- two #stale\n\nLast reviewed: 2026-11-20\n",
	"notes/other.md":              "not mine",
}

const (
	raceSessArchive = "memory/SESSION_LOG_ARCHIVE_2026-11-30.md"
	racePrioArchive = "memory/ACTIVE_PRIORITIES_ARCHIVE_2026-11-30.md"
)

var raceOpts = call.Options{Now: time.Date(2026, 11, 30, 9, 15, 0, 0, time.UTC), TZ: "Europe/Paris"}

func TestHygieneTrimRace(t *testing.T) {
	newLog := raceLog(append([]string{"2026-11-30"}, raceDates...)...)
	tests := []struct {
		name, path, data, lang, message string
	}{
		{"session log rewritten", "memory/SESSION_LOG.md", newLog, "en", "memory/SESSION_LOG.md changed since Kessho read it"},
		{"session log rewritten, French", "memory/SESSION_LOG.md", newLog, "fr", "memory/SESSION_LOG.md a changé depuis que Kessho l'a lu"},
		{"priorities edited", "memory/ACTIVE_PRIORITIES.md", "## Operating Mode: ship\n\n## Tier 1\n- one\n\nLast reviewed: 2026-11-30\n", "en", "changed since"},
		{"archive created meanwhile", raceSessArchive, "# mine\n", "en", "already exists"},
	}
	for name, eng := range enginetest.Both(t) {
		for _, tt := range tests {
			t.Run(name+"/"+tt.name, func(t *testing.T) {
				dir := t.TempDir()
				makeTree(t, dir, raceVault)
				v := openVault(t, dir)
				r := &racer{inner: eng, path: filepath.Join(dir, filepath.FromSlash(tt.path)), data: tt.data}
				opts := raceOpts
				opts.Lang = tt.lang
				out, err := call.Run(context.Background(), v, r, "mem_context_hygiene", json.RawMessage(`{"action":"trim"}`), opts)
				if err != nil {
					t.Fatal(err)
				}
				if !r.ran {
					t.Fatal("the writer process never ran")
				}
				var ans struct {
					OK    bool
					Error struct {
						Code, Message string
						Details       map[string]any
					}
				}
				if err := json.Unmarshal(out.Answer, &ans); err != nil {
					t.Fatal(err)
				}
				if out.OK || ans.OK || ans.Error.Code != "CONTEXT_HYGIENE_RACE" || ans.Error.Details["path"] != tt.path ||
					!strings.Contains(ans.Error.Message, tt.message) {
					t.Fatalf("answer %s; want CONTEXT_HYGIENE_RACE naming %s, message with %q", out.Answer, tt.path, tt.message)
				}
				// The abort was real: the tool had planned the archives and both sources.
				var raw struct{ Plan plan.Plan }
				json.Unmarshal(out.Raw, &raw)
				if len(raw.Plan) != 4 {
					t.Errorf("the tool planned %d ops; want 4", len(raw.Plan))
				}
				want := treeOf(raceVault)
				want[tt.path] = tt.data
				if d := diffTree(readTree(t, dir), want); d != "" {
					t.Errorf("the vault holds more than the other process's write:\n%s", d)
				}
				if j := journalFiles(t, dir); len(j) != 0 {
					t.Errorf("journal left: %v", j)
				}
				// Run again, it trims what is there now.
				again, err := call.Run(context.Background(), v, eng, "mem_context_hygiene", json.RawMessage(`{"action":"trim"}`), raceOpts)
				if err != nil || !again.OK {
					t.Fatalf("second trim: %s, %v", again.Answer, err)
				}
			})
		}
	}
}

// TestHygieneTrimArchiveFirst: the plan writes the archives before the
// sources, and the host makes each archive durable (file and folder
// fsynced) before it starts writing the source it was trimmed from.
func TestHygieneTrimArchiveFirst(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, raceVault)
	v := openVault(t, dir)
	var steps []string
	crashHook = func(s string) { steps = append(steps, s) }
	out, err := call.Run(context.Background(), v, engine.Native(), "mem_context_hygiene", json.RawMessage(`{"action":"trim"}`), raceOpts)
	crashHook = nil
	if err != nil || !out.OK {
		t.Fatalf("trim: %s, %v", out.Answer, err)
	}
	var paths []string
	for _, op := range out.Plan {
		if op.Op != plan.Write {
			t.Errorf("op %+v; a trim only writes", op)
		}
		paths = append(paths, op.Path)
	}
	if want := []string{raceSessArchive, racePrioArchive, "memory/SESSION_LOG.md", "memory/ACTIVE_PRIORITIES.md"}; !slices.Equal(paths, want) {
		t.Fatalf("plan writes %v; want %v", paths, want)
	}
	if out.Plan[0].Expect != plan.Absent || out.Plan[2].Expect != plan.HashString(raceVault["memory/SESSION_LOG.md"]) {
		t.Errorf("preconditions %q, %q", out.Plan[0].Expect, out.Plan[2].Expect)
	}
	at := func(s string) int {
		i := slices.Index(steps, s)
		if i < 0 {
			t.Fatalf("no step %q in %q", s, steps)
		}
		return i
	}
	for _, pair := range [][2]string{{raceSessArchive, "memory/SESSION_LOG.md"}, {racePrioArchive, "memory/ACTIVE_PRIORITIES.md"}} {
		synced, folder := at("write "+pair[0]+": temp synced"), at("write "+pair[0]+": folder synced")
		if started := at("write " + pair[1] + ": temp created"); !(synced < folder && folder < started) {
			t.Errorf("%s became durable at step %d (folder %d), after %s started at step %d", pair[0], synced, folder, pair[1], started)
		}
	}
	want := treeOf(raceVault)
	for _, op := range out.Plan {
		want[op.Path] = *op.Text
	}
	if d := diffTree(readTree(t, dir), want); d != "" {
		t.Errorf("the vault after the trim:\n%s", d)
	}
}

// A crash right after the archives are written and before the sources are
// trimmed leaves the archives on disk and the sources whole; the next call
// finishes the plan from the journal, and the trim then has nothing to do
// (no block archived twice).
func TestHygieneTrimCrashBetweenArchiveAndSource(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, raceVault)
	v := openVault(t, dir)
	type crash struct{}
	crashHook = func(s string) {
		if s == "write memory/SESSION_LOG.md: temp created" {
			panic(crash{})
		}
	}
	func() {
		defer func() {
			crashHook = nil
			if r := recover(); r != nil && r != (crash{}) {
				panic(r)
			}
		}()
		out, err := call.Run(context.Background(), v, engine.Native(), "mem_context_hygiene", json.RawMessage(`{"action":"trim"}`), raceOpts)
		t.Fatalf("no crash: %s, %v", out.Answer, err)
	}()
	mid := readTree(t, dir)
	if mid["memory/SESSION_LOG.md"] != raceVault["memory/SESSION_LOG.md"] || mid["memory/ACTIVE_PRIORITIES.md"] != raceVault["memory/ACTIVE_PRIORITIES.md"] {
		t.Fatal("a source changed before the crash point")
	}
	if !strings.Contains(mid[raceSessArchive], "## 2026-11-24") || !strings.Contains(mid[racePrioArchive], "- two #stale") {
		t.Fatalf("the archives are not on disk at the crash: %q / %q", mid[raceSessArchive], mid[racePrioArchive])
	}
	out, err := call.Run(context.Background(), v, engine.Native(), "mem_context_hygiene", json.RawMessage(`{"action":"trim"}`), raceOpts)
	if err != nil || !out.OK {
		t.Fatalf("trim after the crash: %s, %v", out.Answer, err)
	}
	if len(out.Plan) != 0 || !bytes.Contains(out.Answer, []byte(`"line":"CONTEXT_HYGIENE PASS `)) {
		t.Errorf("after the roll-forward the trim should find nothing to do: %s", out.Answer)
	}
	got := readTree(t, dir)
	if strings.Count(got[raceSessArchive], "## 2026-11-24") != 1 || strings.Count(got[raceSessArchive], "## 2026-11-23") != 1 ||
		strings.Count(got["memory/SESSION_LOG.md"], "\n## ") != 5 || strings.Contains(got["memory/ACTIVE_PRIORITIES.md"], "#stale") {
		t.Errorf("after the roll-forward:\n%v", got)
	}
}

// TestHygieneTrimRaceOnUnwrittenSource: when only SESSION_LOG.md is
// trimmed, ACTIVE_PRIORITIES.md, read and relied on but not written, is
// checked too: another process editing it aborts the trim.
func TestHygieneTrimRaceOnUnwrittenSource(t *testing.T) {
	vaultWithCleanPriorities := maps.Clone(raceVault)
	vaultWithCleanPriorities["memory/ACTIVE_PRIORITIES.md"] = "## Operating Mode: ship\n\n## Tier 1\n- one\n\nLast reviewed: 2026-11-20\n"
	edited := "## Operating Mode: ship\n\n## Tier 1\n- one\n- two\n\nLast reviewed: 2026-11-30\n"
	for name, eng := range enginetest.Both(t) {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			makeTree(t, dir, vaultWithCleanPriorities)
			v := openVault(t, dir)
			r := &racer{inner: eng, path: filepath.Join(dir, "memory", "ACTIVE_PRIORITIES.md"), data: edited}
			out, err := call.Run(context.Background(), v, r, "mem_context_hygiene", json.RawMessage(`{"action":"trim"}`), raceOpts)
			if err != nil {
				t.Fatal(err)
			}
			var raw struct{ Plan plan.Plan }
			json.Unmarshal(out.Raw, &raw)
			if len(raw.Plan) != 3 || raw.Plan[2].Op != plan.Check {
				t.Fatalf("plan %+v; want the archive, the log and a check of the priorities", raw.Plan)
			}
			if out.OK || !strings.Contains(string(out.Answer), `"code":"CONTEXT_HYGIENE_RACE"`) || !strings.Contains(string(out.Answer), `"path":"memory/ACTIVE_PRIORITIES.md"`) {
				t.Fatalf("answer %s; want CONTEXT_HYGIENE_RACE naming memory/ACTIVE_PRIORITIES.md", out.Answer)
			}
			want := treeOf(vaultWithCleanPriorities)
			want["memory/ACTIVE_PRIORITIES.md"] = edited
			if d := diffTree(readTree(t, dir), want); d != "" {
				t.Errorf("the vault holds more than the other process's write:\n%s", d)
			}
		})
	}
}

// TestRaceDuringApply: another process's write after the preconditions
// passed, while the host applies the plan (the journal written, some ops
// landed), is caught by the re-check right before the op on that file:
// the call answers the tool's conflict code, what landed is undone (the
// trim's archives too), and the other write survives.
func TestRaceDuringApply(t *testing.T) {
	const ctx = "---\nkind: project\nphase: build\nsummary: old\n---\nBody\n"
	projVault := map[string]string{"10-episodes/projects/alpha/context.md": ctx}
	tests := []struct {
		name, tool, args string
		vault            map[string]string
		at, path, data   string
		code             string
	}{
		{"trim, log edited once the journal is durable", "mem_context_hygiene", `{"action":"trim"}`, raceVault,
			journalDurable, "memory/SESSION_LOG.md", raceLog(append([]string{"2026-11-30"}, raceDates...)...), "CONTEXT_HYGIENE_RACE"},
		{"trim, log edited right before its rename", "mem_context_hygiene", `{"action":"trim"}`, raceVault,
			"write memory/SESSION_LOG.md: re-checking", "memory/SESSION_LOG.md", raceLog(append([]string{"2026-11-30"}, raceDates...)...), "CONTEXT_HYGIENE_RACE"},
		{"trim, priorities edited after the log was trimmed", "mem_context_hygiene", `{"action":"trim"}`, raceVault,
			"op 2: recorded done", "memory/ACTIVE_PRIORITIES.md", "## Operating Mode: ship\n\n## Tier 1\n- one\n\nLast reviewed: 2026-11-30\n", "CONTEXT_HYGIENE_RACE"},
		{"summary, context edited", "mem_set_summary", `{"slug":"alpha","summary":"new"}`, projVault,
			"write 10-episodes/projects/alpha/context.md: temp marked", "10-episodes/projects/alpha/context.md", ctx + "A line added by an editor.\n", "CONFLICT"},
	}
	for name, eng := range enginetest.Both(t) {
		for _, tt := range tests {
			t.Run(name+"/"+tt.name, func(t *testing.T) {
				dir := t.TempDir()
				makeTree(t, dir, tt.vault)
				v := openVault(t, dir)
				hook, ran := editAt(t, tt.at, func() {
					cmd := exec.Command(os.Args[0], "-test.run=^TestRaceWriterProcess$")
					cmd.Env = append(os.Environ(), raceFileEnv+"="+filepath.Join(dir, filepath.FromSlash(tt.path)), raceDataEnv+"="+tt.data)
					if out, err := cmd.CombinedOutput(); err != nil {
						t.Errorf("writer: %v, %s", err, out)
					}
				})
				crashHook = hook
				out, err := call.Run(context.Background(), v, eng, tt.tool, json.RawMessage(tt.args), raceOpts)
				crashHook = nil
				if err != nil {
					t.Fatal(err)
				}
				if !*ran {
					t.Fatalf("no step %q", tt.at)
				}
				if out.OK || !strings.Contains(string(out.Answer), `"code":"`+tt.code+`"`) || !strings.Contains(string(out.Answer), `"path":"`+tt.path+`"`) {
					t.Fatalf("answer %s; want %s naming %s", out.Answer, tt.code, tt.path)
				}
				want := treeOf(tt.vault)
				want[tt.path] = tt.data
				if d := diffTree(readTree(t, dir), want); d != "" {
					t.Errorf("the vault holds more than the other process's write:\n%s", d)
				}
				if j := journalFiles(t, dir); len(j) != 0 {
					t.Errorf("journal left: %v", j)
				}
			})
		}
	}
}
