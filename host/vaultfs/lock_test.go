//go:build unix

package vaultfs

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/kessho/kessho/core/fault"
)

func TestLockGoroutines(t *testing.T) {
	dir := t.TempDir()
	v := openVault(t, dir)
	l1 := lock(t, v)

	// Another Vault on the same folder, as a second server in the
	// process would open it.
	v2 := openVault(t, dir)
	v2.LockWait = time.Hour
	got := make(chan time.Time, 1)
	go func() {
		l2, err := v2.Lock(context.Background())
		if err != nil {
			t.Error(err)
			got <- time.Time{}
			return
		}
		got <- time.Now()
		l2.Unlock()
	}()
	time.Sleep(150 * time.Millisecond)
	select {
	case <-got:
		t.Fatal("a second Lock got the lock while the first was held")
	default:
	}
	released := time.Now()
	if err := l1.Unlock(); err != nil {
		t.Fatal(err)
	}
	if at := <-got; at.Before(released) {
		t.Errorf("second Lock returned at %v, before the release at %v", at, released)
	}
	if err := l1.Unlock(); err != nil {
		t.Errorf("a second Unlock = %v; want nil", err)
	}
}

func TestLockWaitBound(t *testing.T) {
	dir := t.TempDir()
	v := openVault(t, dir)
	lock(t, v)

	v2 := openVault(t, dir)
	v2.LockWait = 100 * time.Millisecond
	start := time.Now()
	_, err := v2.Lock(context.Background())
	wantCode(t, err, fault.VaultLocked)
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("VAULT_LOCKED after %v; want after 100ms", d)
	}
	var f *fault.Error
	if errors.As(err, &f) && f.Details["waited_ms"] != int64(100) {
		t.Errorf("VAULT_LOCKED details %v; want waited_ms 100", f.Details)
	}

	// A done context ends the wait too: with an hour to wait, only the
	// context can end it before the test's own timeout.
	v2.LockWait = time.Hour
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = v2.Lock(ctx)
	wantCode(t, err, fault.VaultLocked)
}

func TestLockProcesses(t *testing.T) {
	dir := t.TempDir()
	cmd := helper("hold", dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if s := waitLine(t, bufio.NewReader(stdout)); s != "locked\n" {
		t.Fatalf("helper said %q", s)
	}

	v := openVault(t, dir)
	v.LockWait = 200 * time.Millisecond
	_, err = v.Lock(context.Background())
	wantCode(t, err, fault.VaultLocked)

	// The helper lets go after a while; this Lock waits for it.
	v.LockWait = time.Hour
	go func() {
		time.Sleep(200 * time.Millisecond)
		stdin.Close()
	}()
	start := time.Now()
	l, err := v.Lock(context.Background())
	if err != nil {
		t.Fatalf("Lock after the other process let go: %v", err)
	}
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Errorf("Lock returned after %v, while the other process held the lock for 200ms", d)
	}
	l.Unlock()
	cmd.Wait()

	// A process that dies holding the lock releases it.
	cmd = helper("hold", dir)
	stdout, _ = cmd.StdoutPipe()
	cmd.Stdin = nil
	w, _ := cmd.StdinPipe()
	defer w.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitLine(t, bufio.NewReader(stdout))
	cmd.Process.Kill()
	cmd.Wait()
	v.LockWait = time.Hour
	l, err = v.Lock(context.Background())
	if err != nil {
		t.Fatalf("Lock after the holder died: %v", err)
	}
	l.Unlock()
}

// Hammer: goroutines in this process and two other processes each add one
// to a counter many times; no increment is lost and none conflicts.
func TestLockHammer(t *testing.T) {
	dir := t.TempDir()
	const goroutines, procs, each = 4, 2, 15
	var cmds []*exec.Cmd
	for range procs {
		cmd := helper("increment", dir, countEnv+"="+strconv.Itoa(each))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	var wg sync.WaitGroup
	for range goroutines {
		wg.Go(func() {
			v, err := Open(dir)
			if err != nil {
				t.Error(err)
				return
			}
			defer v.Close()
			v.LockWait = time.Minute
			for range each {
				if err := increment(v); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("helper: %v", err)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "count.md"))
	if want := strconv.Itoa((goroutines + procs) * each); string(b) != want || err != nil {
		t.Errorf("count.md = %q, %v; want %s", b, err, want)
	}
}

// TestLockFairness: a process waiting for the lock gets it even while this
// process's goroutines take it again and again with no pause between them
// (it waits in the kernel and is woken at each release; it does not poll).
func TestLockFairness(t *testing.T) {
	dir := t.TempDir()
	cmd := helper("increment", dir, countEnv+"=5")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			v, err := Open(dir)
			if err != nil {
				t.Error(err)
				return
			}
			defer v.Close()
			v.LockWait = time.Minute
			for {
				select {
				case <-stop:
					return
				default:
				}
				l, err := v.Lock(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				time.Sleep(time.Millisecond) // a call's work
				l.Unlock()
			}
		})
	}
	time.Sleep(50 * time.Millisecond) // the goroutines are taking turns
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("helper: %v", err)
		}
	case <-time.After(5 * time.Minute):
		t.Error("the other process never got the lock while this one kept taking it")
		cmd.Process.Kill()
		<-done
	}
	close(stop)
	wg.Wait()
	if b, _ := os.ReadFile(filepath.Join(dir, "count.md")); string(b) != "5" {
		t.Errorf("count.md = %q; want 5", b)
	}
}

// TestLockFreeWithEndedContext: a free lock is taken even when the
// caller's context has already ended, every time (the same call never
// answers VAULT_LOCKED one time and runs the next).
func TestLockFreeWithEndedContext(t *testing.T) {
	v := openVault(t, t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for i := range 200 {
		l, err := v.Lock(ctx)
		if err != nil {
			t.Fatalf("try %d: a free lock was refused with an ended context: %v", i, err)
		}
		l.Unlock()
	}
}
