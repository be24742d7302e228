//go:build unix

package vaultfs

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/search"
	"github.com/kessho/kessho/core/vault"
)

// The tests run this test binary again as a helper process (the os/exec
// pattern): TestHelperProcess does nothing unless helperEnv names a mode.
const (
	helperEnv  = "KESSHO_VAULTFS_HELPER"   // hold, apply, recover, increment
	dirEnv     = "KESSHO_VAULTFS_DIR"      // the vault
	crashAtEnv = "KESSHO_VAULTFS_CRASH_AT" // SIGKILL self at this step (1-based)
	countEnv   = "KESSHO_VAULTFS_COUNT"    // increments to make
	caseEnv    = "KESSHO_VAULTFS_CASE"     // apply: run this conformance case's call instead of killPlan
	planEnv    = "KESSHO_VAULTFS_PLAN"     // apply: apply this plan of killOneFile instead of killPlan
	indexEnv   = "KESSHO_VAULTFS_INDEX"    // apply: store an index (StoreIndex; "delta": a delta of testSegments' base) instead of applying a plan
)

// helper returns a command running the helper in mode on vault dir.
func helper(mode, dir string, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), append([]string{helperEnv + "=" + mode, dirEnv + "=" + dir}, env...)...)
	cmd.Stderr = os.Stderr
	return cmd
}

// killed reports whether the helper died of SIGKILL.
func killed(cmd *exec.Cmd) bool {
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		return
	}
	os.Exit(helperMain(mode))
}

func helperMain(mode string) int {
	fail := func(err error) int {
		fmt.Fprintf(os.Stderr, "helper %s: %v\n", mode, err)
		return 1
	}
	v, err := Open(os.Getenv(dirEnv))
	if err != nil {
		return fail(err)
	}
	v.LockWait = 5 * time.Minute
	if at, _ := strconv.Atoi(os.Getenv(crashAtEnv)); at > 0 {
		n := 0
		crashHook = func(string) {
			if n++; n == at {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
				for {
					time.Sleep(time.Hour)
				}
			}
		}
	}
	l, err := v.Lock(context.Background())
	if err != nil {
		return fail(err)
	}
	switch mode {
	case "hold": // hold the lock until stdin closes
		fmt.Println("locked")
		io.Copy(io.Discard, os.Stdin)
	case "apply", "recover": // say "go", do it, say "done <duration>"
		fmt.Println("go")
		start := time.Now()
		switch {
		case mode == "apply" && os.Getenv(caseEnv) != "":
			l.Unlock() // the call takes the lock itself
			err = callCase(v, os.Getenv(caseEnv))
			l, _ = v.Lock(context.Background())
		case mode == "apply" && os.Getenv(indexEnv) == "delta":
			_, delta := testSegments(200)
			err = v.StoreIndex(delta, search.ID(delta))
		case mode == "apply" && os.Getenv(indexEnv) != "":
			data := testIndex(200)
			err = v.StoreIndex(data, search.ID(data))
		case mode == "apply" && os.Getenv(planEnv) != "":
			err = v.Apply(l, killOneFile[os.Getenv(planEnv)].plan)
		case mode == "apply":
			err = v.Apply(l, killPlan())
		default:
			err = v.Recover(l)
		}
		fmt.Println("done", time.Since(start))
	case "increment":
		l.Unlock()
		n, _ := strconv.Atoi(os.Getenv(countEnv))
		for range n {
			if err = increment(v); err != nil {
				break
			}
		}
	}
	if err != nil {
		return fail(err)
	}
	l.Unlock()
	return 0
}

// increment adds one to the number in count.md, as a tool would: lock,
// read through Answer, apply a plan that relies on what it read.
func increment(v *Vault) error {
	l, err := v.Lock(context.Background())
	if err != nil {
		return err
	}
	defer l.Unlock()
	var snap vault.Snapshot
	if err := v.answer(vault.Need{Files: []string{"count.md"}}, &snap, 0); err != nil {
		return err
	}
	n, expect := 0, plan.Absent
	if f, ok := snap.Files["count.md"]; ok {
		n, _ = strconv.Atoi(*f.Text)
		expect = "sha256:" + f.SHA256
	}
	return v.Apply(l, plan.Plan{plan.WriteOp("count.md", expect, strconv.Itoa(n+1))})
}

// waitLine reads one line from r; it fails the test after a bound.
func waitLine(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	ch := make(chan string, 1)
	go func() {
		s, _ := r.ReadString('\n')
		ch <- s
	}()
	select {
	case s := <-ch:
		return s
	case <-time.After(2 * time.Minute):
		t.Fatal("the helper process said nothing for 2 minutes")
		return ""
	}
}
