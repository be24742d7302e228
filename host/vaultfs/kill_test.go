//go:build unix

package vaultfs

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/search"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/internal/conformance"
	"github.com/kessho/kessho/host/internal/fsyncs"
)

// killBefore is the vault the kill test starts from.
var killBefore = map[string]string{
	"notes/keep.md":        "keep",
	"notes/old.md":         "old",
	"notes/gone.md":        "gone",
	"proj/a/context.md":    "ctx",
	"proj/a/archives/x.md": "x",
}

// killPlan touches every kind of op, and has ops that rely on earlier
// ones: a write into a folder that is then moved, a write into the moved
// folder, and a file written twice.
func killPlan() plan.Plan {
	return plan.Plan{
		write("archive/2026/11/new.md", plan.Absent, "a new file in three new folders"),
		write("notes/old.md", h("old"), "new"),
		write("proj/a/context.md", h("ctx"), "ctx2"),
		{Op: plan.Delete, Path: "notes/gone.md", Expect: h("gone")},
		{Op: plan.Move, From: "proj/a", To: "done/a", Expect: plan.Absent},
		write("done/a/history.md", plan.Absent, "h"),
		write("notes/old.md", h("new"), "newer"),
	}
}

// killAfter is the vault once killPlan is applied.
var killAfter = map[string]string{
	"notes/keep.md":          "keep",
	"notes/old.md":           "newer",
	"archive/2026/11/new.md": "a new file in three new folders",
	"proj/":                  "",
	"done/a/context.md":      "ctx2",
	"done/a/archives/x.md":   "x",
	"done/a/history.md":      "h",
}

// killCase is one plan the kill test interrupts: a vault before, the
// vault after, how to apply it (in this process, to count the steps) and
// the helper mode and environment that apply it in a child process.
type killCase struct {
	before, after map[string]string // readTree forms
	files         map[string]string // makeTree form of before
	apply         func(v *Vault) error
	env           []string // for the helper's "apply" mode
	// Random kills: at least min, at most want, stopping past budget.
	min, want int
	budget    time.Duration
}

// TestKill applies killPlan in a helper process and kills it with SIGKILL:
// at every step of Apply (the helper kills itself there), again at a step
// of the Recover that follows, and at random instants. After each kill it
// recovers the vault as the next call would (Open, Lock, Recover) and
// checks it is byte for byte the vault before or the vault after, and the
// vault after whenever a journal was on disk at the kill.
func TestKill(t *testing.T) {
	if testing.Short() {
		t.Skip("kills processes for several seconds")
	}
	killTest(t, killCase{
		before: treeOf(killBefore), after: treeOf(killAfter), files: killBefore,
		apply: func(v *Vault) error { return applyLocked(v, killPlan()) },
		min:   200, want: 300, budget: 40 * time.Second,
	})
}

// killOneFile are plans that change one file, which Apply lands without a
// journal, with the vault each makes of killBefore.
var killOneFile = map[string]struct {
	plan  plan.Plan
	after map[string]string
}{
	"write": {plan.Plan{write("notes/old.md", h("old"), "new")},
		map[string]string{"notes/old.md": "new"}},
	"new file": {plan.Plan{write("proj/a/history.md", plan.Absent, "h")},
		map[string]string{"proj/a/history.md": "h"}},
	"write and check": {plan.Plan{plan.CheckOp("notes/keep.md", h("keep")), write("notes/old.md", h("old"), "new")},
		map[string]string{"notes/old.md": "new"}},
	"delete": {plan.Plan{{Op: plan.Delete, Path: "notes/gone.md", Expect: h("gone")}},
		map[string]string{"notes/gone.md": ""}},
}

// TestKillOneFile does the same to plans that change one file: with no
// journal, a kill at any instant leaves the file as before or as after,
// and no temporary file once the next call has recovered.
func TestKillOneFile(t *testing.T) {
	if testing.Short() {
		t.Skip("kills processes for several seconds")
	}
	for name, one := range killOneFile {
		t.Run(name, func(t *testing.T) {
			after := maps.Clone(killBefore)
			for p, text := range one.after {
				if text == "" {
					delete(after, p)
				} else {
					after[p] = text
				}
			}
			killTest(t, killCase{
				before: treeOf(killBefore), after: treeOf(after), files: killBefore,
				apply: func(v *Vault) error {
					start := fsyncs.Count()
					err := applyLocked(v, one.plan)
					if journalFiles(t, v.dir) != nil {
						err = fmt.Errorf("the journal folder holds files: %w", err)
					}
					if n := fsyncs.Count() - start; n > 2 {
						err = fmt.Errorf("%d fsyncs: the plan was journalled (%v)", n, err)
					}
					return err
				},
				env: []string{planEnv + "=" + name},
				min: 40, want: 60, budget: 8 * time.Second,
			})
		})
	}
}

// applyLocked applies p to v under its lock.
func applyLocked(v *Vault, p plan.Plan) error {
	l, err := v.Lock(context.Background())
	if err != nil {
		return err
	}
	defer l.Unlock()
	return v.Apply(l, p)
}

// TestKillCall does the same to whole calls of tools whose plans make
// new folders and files (mem_init_project) or rewrite many files and
// create a log (mem_archive_rewrite_paths with confirm), from their
// conformance cases.
func TestKillCall(t *testing.T) {
	if testing.Short() {
		t.Skip("kills processes for several seconds")
	}
	for _, name := range []string{"init-project", "rewrite-confirm"} {
		t.Run(name, func(t *testing.T) {
			file, err := filepath.Abs(filepath.Join("..", "..", "testdata", "cases", name+".txtar"))
			if err != nil {
				t.Fatal(err)
			}
			c, err := conformance.LoadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			files, after := map[string]string{}, map[string]string{}
			for p, b := range c.Vault {
				files[p] = string(b)
			}
			for p, b := range c.Want {
				after[p] = string(b)
			}
			killTest(t, killCase{
				before: treeOf(files), after: treeOf(after), files: files,
				apply: func(v *Vault) error { return callCase(v, file) },
				env:   []string{caseEnv + "=" + file},
				min:   40, want: 60, budget: 10 * time.Second,
			})
		})
	}
}

// callCase runs the call of the conformance case in file on v, natively.
func callCase(v *Vault, file string) error {
	c, err := conformance.LoadFile(file)
	if err != nil {
		return err
	}
	now, err := time.Parse(time.RFC3339, c.Call.Now)
	if err != nil {
		return err
	}
	out, err := call.Run(context.Background(), v, engine.Native(), c.Call.Tool, c.Call.Args, call.Options{Now: now, TZ: c.Call.TZ, Lang: c.Call.Lang})
	if err == nil && !out.OK {
		err = fmt.Errorf("%s: %s", c.Call.Tool, out.Answer)
	}
	return err
}

func killTest(t *testing.T, kc killCase) {
	start := time.Now()
	base := t.TempDir()
	before, after := kc.before, kc.after
	rng := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))

	// The steps, counted in this process; the helper takes the same ones.
	dir := filepath.Join(base, "count")
	makeTree(t, dir, kc.files)
	var steps []string
	crashHook = func(s string) { steps = append(steps, s) }
	v := openVault(t, dir)
	err := kc.apply(v)
	crashHook = nil
	if err != nil {
		t.Fatal(err)
	}
	if d := diffTree(readTree(t, dir), after); d != "" {
		t.Fatalf("the plan does not make the vault after:\n%s", d)
	}

	run := 0
	fresh := func() string {
		run++
		d := filepath.Join(base, strconv.Itoa(run))
		makeTree(t, d, kc.files)
		return d
	}
	// check recovers dir and compares it with before and after.
	ended := map[string]int{}
	check := func(dir, what string) {
		t.Helper()
		journal := false
		for _, n := range journalFiles(t, dir) {
			journal = journal || strings.HasSuffix(n, ".json")
		}
		v, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		v.LockWait = 5 * time.Second
		l, err := v.Lock(context.Background())
		if err != nil {
			t.Fatalf("%s: Lock after the kill: %v", what, err)
		}
		if err := v.Recover(l); err != nil {
			t.Fatalf("%s: Recover: %v", what, err)
		}
		l.Unlock()
		v.Close()
		got := readTree(t, dir)
		dAfter := diffTree(got, after)
		if journal && dAfter != "" {
			t.Fatalf("%s: a journal was on disk, yet Recover did not reach the state after:\n%s", what, dAfter)
		}
		if dBefore := diffTree(got, before); dAfter != "" && dBefore != "" {
			t.Fatalf("%s: the vault is neither as before nor as after.\nagainst before:\n%s\nagainst after:\n%s", what, dBefore, dAfter)
		}
		if j := journalFiles(t, dir); len(j) != 0 {
			t.Fatalf("%s: Recover left %q in the journal folder", what, j)
		}
		if dAfter == "" {
			ended["after"]++
		} else {
			ended["before"]++
		}
		os.RemoveAll(dir)
	}
	// crash runs the helper in mode with a self-kill at step at (0: none)
	// and reports whether it died of SIGKILL.
	crash := func(mode, dir string, at int) bool {
		t.Helper()
		cmd := helper(mode, dir, append([]string{crashAtEnv + "=" + strconv.Itoa(at)}, kc.env...)...)
		out, err := cmd.Output()
		if err != nil && !killed(cmd) {
			t.Fatalf("%s helper (crash at %d): %v, said %q", mode, at, err, out)
		}
		return killed(cmd)
	}

	var atSteps, inRecover, atRandom int
	for n := 1; n <= len(steps); n++ {
		dir := fresh()
		if !crash("apply", dir, n) {
			t.Fatalf("the helper did not reach step %d (%s)", n, steps[n-1])
		}
		atSteps++
		// Half the time, crash the recovery too, at a random step.
		if rng.IntN(2) == 0 && crash("recover", dir, 1+rng.IntN(20)) {
			inRecover++
		}
		check(dir, fmt.Sprintf("killed at step %d (%s)", n, steps[n-1]))
	}

	// Random instants: the helper says "go" just before Apply and "done"
	// just after; the kill lands within a window that adapts to how long
	// Apply takes on this machine now (shorter after a run that finished,
	// longer after one that was killed), and counts when it came before
	// "done". Past minKills, the phase stops at wantKills or at budget.
	minKills, wantKills, budget := kc.min, kc.want, kc.budget
	window, late := 20*time.Millisecond, 0
	for tries := 0; tries < 20*wantKills; tries++ {
		total := atSteps + inRecover + atRandom
		if total >= wantKills || total >= minKills && time.Since(start) > budget {
			break
		}
		dir := fresh()
		cmd := helper("apply", dir, kc.env...)
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(stdout)
		waitLine(t, r)
		delay := time.Duration(rng.Int64N(int64(window)))
		time.Sleep(delay)
		cmd.Process.Kill()
		rest, _ := io.ReadAll(r)
		err := cmd.Wait()
		switch done := strings.Contains(string(rest), "done"); {
		case killed(cmd) && !done:
			atRandom++
			window += window / 8
		case err != nil && !killed(cmd):
			t.Fatalf("apply helper: %v", err)
		default:
			if killed(cmd) {
				late++
			}
			window = max(window*3/4, 100*time.Microsecond)
		}
		check(dir, fmt.Sprintf("killed %v after go", delay))
	}
	total := atSteps + inRecover + atRandom
	t.Logf("%d kills: %d at each step of Apply, %d in the Recover after, %d at random instants during Apply (last window %v; %d more after it); %d runs ended as before, %d as after; %v",
		total, atSteps, inRecover, atRandom, window, late, ended["before"], ended["after"], time.Since(start).Round(time.Millisecond))
	if total < minKills {
		t.Errorf("only %d kills; want %d", total, minKills)
	}
}

// TestKillIndexStore kills a process storing the search index at every
// step of StoreIndex — each of its writes to the disk: the index folder
// made, the stored id removed, each file's temporary created, written
// and renamed into place — over a vault with no index yet, over one
// holding an older index, and storing a delta over the base it was made
// of, and a whole index over a base and its delta. After the next
// call's recovery (Open, Lock, Recover): no note
// changed, nothing left in the index folder but the base, the delta and
// the id, the base and the delta whole (they decode) and an id, when
// there is one, naming what is stored beside it.
func TestKillIndexStore(t *testing.T) {
	for _, setup := range []string{"no index yet", "an older index", "a delta over its base", "a whole index over a delta"} {
		t.Run(setup, func(t *testing.T) {
			segBase, segDelta := testSegments(200)
			base := t.TempDir()
			run := 0
			fresh := func() string {
				run++
				dir := filepath.Join(base, strconv.Itoa(run))
				makeTree(t, dir, killBefore)
				old := map[string][][]byte{"an older index": {testIndex(20)}, "a delta over its base": {segBase},
					"a whole index over a delta": {segBase, segDelta}}[setup]
				for _, o := range old {
					if err := openVault(t, dir).StoreIndex(o, search.ID(o)); err != nil {
						t.Fatal(err)
					}
				}
				return dir
			}
			data, env := testIndex(200), indexEnv+"=1"
			if setup == "a delta over its base" {
				data, env = segDelta, indexEnv+"=delta"
			}
			var steps []string
			dir := fresh()
			v := openVault(t, dir)
			l := lock(t, v)
			crashHook = func(s string) { steps = append(steps, s) }
			err := v.StoreIndex(data, search.ID(data))
			crashHook = nil
			l.Unlock()
			if err != nil || len(steps) < 7 {
				t.Fatalf("StoreIndex: %v, steps %q", err, steps)
			}
			for n := 1; n <= len(steps); n++ {
				dir := fresh()
				cmd := helper("apply", dir, crashAtEnv+"="+strconv.Itoa(n), env)
				if out, err := cmd.Output(); !killed(cmd) {
					t.Fatalf("the helper did not reach step %d (%s): %v, said %q", n, steps[n-1], err, out)
				}
				checkIndexStore(t, dir, fmt.Sprintf("killed at step %d (%s)", n, steps[n-1]))
			}
			t.Logf("%d kills, one at each step: %q", len(steps), steps)
		})
	}
}

// checkIndexStore recovers dir as the next call would and checks what a
// kill during StoreIndex may leave (TestKillIndexStore).
func checkIndexStore(t *testing.T, dir, what string) {
	t.Helper()
	v := openVault(t, dir)
	l, err := v.Lock(context.Background())
	if err != nil {
		t.Fatalf("%s: Lock: %v", what, err)
	}
	if err := v.Recover(l); err != nil {
		t.Fatalf("%s: Recover: %v", what, err)
	}
	l.Unlock()
	if d := diffTree(readTree(t, dir), treeOf(killBefore)); d != "" {
		t.Fatalf("%s: the notes changed:\n%s", what, d)
	}
	idxDir := filepath.Join(dir, ".kessho", "index")
	entries, _ := os.ReadDir(idxDir)
	for _, e := range entries {
		if e.Name() != indexName && e.Name() != deltaName && e.Name() != indexIDName {
			t.Fatalf("%s: %s left in the index folder", what, e.Name())
		}
	}
	idx, idxErr := os.ReadFile(filepath.Join(idxDir, indexName))
	if delta, err := os.ReadFile(filepath.Join(idxDir, deltaName)); err == nil {
		if search.DeltaSize(delta) != int64(len(delta)) {
			t.Fatalf("%s: a torn delta", what)
		}
		idx = append(idx, delta...)
	}
	if idxErr == nil {
		if _, err := search.Decode(idx); err != nil {
			t.Fatalf("%s: a torn index: %v", what, err)
		}
	}
	if id, err := os.ReadFile(filepath.Join(idxDir, indexIDName)); err == nil && (idxErr != nil || strings.TrimSpace(string(id)) != search.ID(idx)) {
		t.Fatalf("%s: the id %q names another index than the one stored", what, id)
	}
}
