//go:build unix

package vaultfs

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"kessho/core/plan"
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
		{Op: plan.Mkdir, Path: "empty/dir"},
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
	"empty/dir/":             "",
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
	start := time.Now()
	base := t.TempDir()
	before, after := treeOf(killBefore), treeOf(killAfter)
	rng := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))

	// The steps, counted in this process; the helper takes the same ones.
	dir := filepath.Join(base, "count")
	makeTree(t, dir, killBefore)
	var steps []string
	crashHook = func(s string) { steps = append(steps, s) }
	v := openVault(t, dir)
	err := v.Apply(lock(t, v), killPlan())
	crashHook = nil
	if err != nil {
		t.Fatal(err)
	}
	if d := diffTree(readTree(t, dir), after); d != "" {
		t.Fatalf("killPlan does not make killAfter:\n%s", d)
	}

	run := 0
	fresh := func() string {
		run++
		d := filepath.Join(base, strconv.Itoa(run))
		makeTree(t, d, killBefore)
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
		cmd := helper(mode, dir, crashAtEnv+"="+strconv.Itoa(at))
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
	const minKills, wantKills, budget = 200, 300, 40 * time.Second
	window, late := 20*time.Millisecond, 0
	for tries := 0; tries < 20*wantKills; tries++ {
		total := atSteps + inRecover + atRandom
		if total >= wantKills || total >= minKills && time.Since(start) > budget {
			break
		}
		dir := fresh()
		cmd := helper("apply", dir)
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
