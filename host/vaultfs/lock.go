package vaultfs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/hostlogic"
)

// Lock is the vault's writer lock, held.
type Lock struct {
	v   *Vault
	f   *os.File      // .kessho/lock, flocked; nil once released
	sem chan struct{} // this process's hold on the vault
	// recovered is whether Recover has found no journal left under this
	// hold, and no Apply has run since: Apply then has nothing to roll
	// forward (the lock keeps every other Kessho writer out) and skips
	// the journal folder's listing.
	recovered bool
	// mark is the kept mark file's descriptor plus one (0: none), open
	// from the recovery that read it (dropMark) or the first write that
	// made it (keepMark) until Unlock: the writes of one hold mark their
	// temporary files without opening it again (an openat2, an fstat and
	// a close a write). The lock keeps every other Kessho writer, and so
	// every other use of the mark, out meanwhile.
	mark int
}

// sems holds one semaphore (a channel of capacity 1) per vault folder, so
// that goroutines of one process wait on a channel rather than poll the
// file lock.
var sems sync.Map // key → chan struct{}

// Lock takes the vault's writer lock: every process and goroutine that
// writes the vault (a CLI call, an MCP server, a test) holds it from its
// first read to its last write, so their calls never interleave.
//
// The lock is an exclusive flock on .kessho/lock (the folder and file are
// made when missing), waited for in the kernel so that a waiting process is
// woken when the holder lets go; goroutines of one process also queue on a
// process-wide semaphore per vault folder. Lock waits until ctx is done or
// v.LockWait passes (10 s when zero), then gives up with
// VAULT_LOCKED. The operating system releases the lock of a process that
// dies, so a crash never leaves the vault locked.
//
//	l, err := v.Lock(ctx)
//	if err != nil {
//		return err // VAULT_LOCKED: another writer is busy
//	}
//	defer l.Unlock()
//
// # Notes
//
// On platforms without flock (see lock_other.go) Lock fails: Kessho does
// not write a vault it cannot lock.
func (v *Vault) Lock(ctx context.Context) (*Lock, error) {
	wait := v.LockWait
	if wait <= 0 {
		wait = defaultLockWait
	}
	timer := &lockTimer{at: time.Now().Add(wait)}
	defer timer.stop()
	busy := func() error {
		return fault.New(fault.VaultLocked, map[string]any{"waited_ms": wait.Milliseconds()},
			fmt.Sprintf("another Kessho process is writing the vault and still held its lock after %s; run the call again when it is done", wait),
			fmt.Sprintf("un autre processus Kessho écrit dans le coffre et tenait encore son verrou après %s ; relancez l'appel quand il aura fini", wait))
	}

	s, _ := sems.LoadOrStore(v.key, make(chan struct{}, 1))
	sem := s.(chan struct{})
	if !take(ctx, sem, timer.C) {
		return nil, busy()
	}
	release := func() { <-sem }

	f, err := v.openLockFile()
	if err != nil {
		release()
		return nil, err
	}
	got, err := tryLock(f)
	if err != nil {
		f.Close()
		release()
		return nil, fault.Internalf("locking %s: %v", lockFile, err)
	}
	if got {
		return &Lock{v: v, f: f, sem: sem}, nil
	}
	switch got, err := waitFlock(ctx, f, timer.C()); {
	case err != nil:
		f.Close()
		release()
		return nil, fault.Internalf("locking %s: %v", lockFile, err)
	case !got:
		release()
		return nil, busy()
	}
	return &Lock{v: v, f: f, sem: sem}, nil
}

// lockTimer bounds Lock's waits by at, its timer started only when a
// wait begins: a lock that is free costs no timer.
type lockTimer struct {
	at time.Time
	t  *time.Timer
}

// C is the channel that fires at at, the timer started on first use.
func (l *lockTimer) C() <-chan time.Time {
	if l.t == nil {
		l.t = time.NewTimer(time.Until(l.at))
	}
	return l.t.C
}

func (l *lockTimer) stop() {
	if l.t != nil {
		l.t.Stop()
	}
}

// take takes sem, a vault folder's semaphore, waiting until ctx is done or
// expired fires; false when it gives up. A free semaphore is taken even
// when ctx has ended: the same call gets the same answer, never a random
// pick between the two ready cases.
func take(ctx context.Context, sem chan struct{}, expired func() <-chan time.Time) bool {
	select {
	case sem <- struct{}{}:
		return true
	default:
	}
	select {
	case sem <- struct{}{}:
		return true
	case <-ctx.Done():
	case <-expired():
	}
	return false
}

// waitFlock waits for the lock of f, which another process holds, in the
// kernel (woken as soon as it is released, so no process starves
// another) until ctx is done or expired fires; got is false when it
// gives up. A wait given up leaves its goroutine to release the lock it
// gets, and to close f.
func waitFlock(ctx context.Context, f *os.File, expired <-chan time.Time) (got bool, err error) {
	done := make(chan error, 1)
	go func() { done <- waitLock(f) }()
	select {
	case err := <-done:
		return err == nil, err
	case <-ctx.Done():
	case <-expired:
	}
	go func() {
		if <-done == nil {
			unlock(f)
		}
		f.Close()
	}()
	return false, nil
}

// openLockFile opens .kessho/lock for its flock: the existing file with
// one openat2 where it can (openLockBeneath), else after stateFolder and
// openLock have made and classified what is there.
func (v *Vault) openLockFile() (*os.File, error) {
	if f, ok := v.openLockBeneath(); ok {
		return f, nil
	}
	if err := v.stateFolder(); err != nil {
		return nil, err
	}
	return v.openLock()
}

// stateFolder makes sure .kessho is a real folder of the vault, made
// when missing: Kessho's lock, journal and index live there, and are
// never written through a symbolic link (git and sync clients carry
// links: one at .kessho would put them in a folder of notes).
func (v *Vault) stateFolder() error {
	info, err := v.root.Lstat(stateDir)
	if absentErr(err) {
		if err = v.root.Mkdir(stateDir, 0o755); err == nil || errors.Is(err, fs.ErrExist) {
			info, err = v.root.Lstat(stateDir)
		}
	}
	if err != nil {
		return fault.Internalf("making %s: %v", stateDir, err)
	}
	if !info.IsDir() {
		return hostlogic.NotOurs(stateDir, true)
	}
	return nil
}

// openLock opens .kessho/lock, made when missing (O_EXCL: never through
// a link), else opened for reading alone (a flock needs no more) once
// its Lstat shows a regular file, and refused if the file opened is not
// that one: a link planted there never opens a note, let alone for
// writing.
func (v *Vault) openLock() (*os.File, error) {
	f, err := v.root.OpenFile(lockFile, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err == nil || !errors.Is(err, fs.ErrExist) {
		if err != nil {
			return nil, fault.Internalf("opening %s: %v", lockFile, err)
		}
		return f, nil
	}
	li, err := v.root.Lstat(lockFile)
	if err != nil {
		return nil, fault.Internalf("opening %s: %v", lockFile, err)
	}
	if !li.Mode().IsRegular() {
		return nil, hostlogic.NotOurs(lockFile, false)
	}
	if f, err = v.root.OpenFile(lockFile, os.O_RDONLY|syscall.O_NONBLOCK, 0); err != nil {
		return nil, fault.Internalf("opening %s: %v", lockFile, err)
	}
	if info, err := f.Stat(); err != nil || !os.SameFile(li, info) {
		f.Close()
		return nil, hostlogic.NotOurs(lockFile, false)
	}
	return f, nil
}

func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	closeMark(l)
	err := unlock(l.f)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	<-l.sem
	return err
}
