// Package vaultfs is the Go host's access to a vault on disk: it answers the
// core's needs from the files, and applies the plans the core returns.
//
// Every access goes through an [os.Root] opened on the vault's folder, so no
// path, "..", absolute name or symbolic link can lead a read or a write
// outside the vault. Every path the core sends is checked with
// [plan.CheckPath] before it is used, so dot-folders (.obsidian, .git, and
// Kessho's own .kessho) are never read or written on the core's behalf.
//
// A call, in the order github.com/kessho/kessho/host/call makes it for every Go host:
//
//	v, err := vaultfs.Open(dir)
//	defer v.Close()
//	l, err := v.Lock(ctx)    // the cross-process writer lock
//	defer l.Unlock()
//	err = v.Recover(l)       // finish a plan a crash interrupted
//	err = v.AnswerContext(ctx, need, &snap, maxBytes) // as often as the core asks
//	err = v.Apply(l, p)      // all of p, or nothing
//
// # Crash safety
//
// Apply writes the plan to a journal before it touches the vault, applies
// it, then removes the journal. A crash at any instant leaves either no
// journal (and the vault as it was before) or a journal that Recover rolls
// forward to the state after. The journal lives in the vault, in
// .kessho/journal/, so that either host (this one or the Obsidian plugin)
// can finish what the other began. The journal's files and version, and
// the rules of applying and recovering a plan (re-check before each op,
// undo, roll forward, conflict copies), are the host contract, written
// once for both hosts in docs/HOSTS.md; core/hostlogic makes the
// decisions, this package does the I/O.
//
// A host that writes journals (the plugin) must record progress the same
// way: append the op's index and a newline once the op's effects are on
// disk.
//
// # Notes
//
// Kessho's writers are serialised by [Vault.Lock]. Writers outside Kessho
// (an editor, git, a sync client) are not; the preconditions catch what
// they wrote before the check, and each op re-reads its target right
// before it lands, so a write made while the plan is applied stops the
// plan (CONFLICT) and what landed is undone, but for the files edited
// since and the files the plan made, which they may name (the answer says
// which). The window that remains is
// described in RATIONALE.md ("Why re-check each file right before its
// rename?").
//
// A crash test kills a process applying a plan at every internal step and
// at random instants, and checks the vault is then exactly as before or
// exactly as after. It kills processes, not machines: the fsyncs are there
// for power loss, but the test cannot prove they are enough.
package vaultfs

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/hostlogic"
	"github.com/kessho/kessho/host/internal/fsyncs"
)

// Kessho's own places in the vault. They are dot-paths: plans can never
// name them.
const (
	stateDir   = ".kessho"
	journalDir = ".kessho/journal"
	lockFile   = ".kessho/lock"
	tempPrefix = ".kessho-tmp-"
)

// defaultLockWait is how long Lock waits for another writer when
// Vault.LockWait is zero.
const defaultLockWait = 10 * time.Second

// Vault is an open vault folder.
//
// A Vault is safe for use by several goroutines; writers among them take
// the lock, as writers in other processes do.
type Vault struct {
	// LockWait bounds how long Lock waits for another writer before it
	// gives up with VAULT_LOCKED. Zero means 10 s (defaultLockWait).
	LockWait time.Duration

	root *os.Root
	// handle is the vault's folder open, which Linux's reads open files
	// and folders beneath with openat2 (nil where it could not be opened:
	// every read then goes through root).
	handle *os.File
	dir    string // absolute
	key    string // identifies the folder for the in-process lock
	notes  listingCache

	lookup *nameLookup // nil: the platform's (see lookups)
}

// Open opens the vault in folder dir. It creates nothing: a vault is a
// folder that exists, and Kessho's own files (.kessho/) appear on the
// first write.
func Open(dir string) (*Vault, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open vault %s: %w", dir, err)
	}
	info, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("open vault: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("open vault %s: not a folder", dir)
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("open vault: %w", err)
	}
	key := abs
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		key = real
	}
	handle, err := root.Open(".")
	if err != nil {
		handle = nil
	}
	return &Vault{root: root, handle: handle, dir: abs, key: key}, nil
}

// Close closes the vault. A Lock taken from it must be released first.
func (v *Vault) Close() error {
	v.notes.close()
	if v.handle != nil {
		v.handle.Close()
	}
	return v.root.Close()
}

// crashHook, when set (by the crash test only), is called after every step
// of Apply and Recover that changes the disk, with the step's name.
var crashHook func(step string)

func step(format string, args ...any) {
	if crashHook != nil {
		crashHook(fmt.Sprintf(format, args...))
	}
}

// conflict is the refusal when the vault does not hold what a plan or a
// read relies on (hostlogic.Conflict).
var conflict = hostlogic.Conflict

// escapes reports whether err is os.Root's refusal of a path that leads
// outside the vault (through "..", an absolute name or a symbolic link).
// os does not export that error; its text is pinned by a test.
func escapes(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "path escapes from parent"
}

// absentErr reports whether err says nothing exists at the path: the path
// or one of its parents is missing, or a parent is a file.
func absentErr(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// readErr turns a failed read of p into the caller's error: a refusal
// for a path that leads outside the vault, INTERNAL otherwise.
func readErr(p string, err error) error {
	if escapes(err) {
		return conflict(p,
			p+" is or passes through a symbolic link that is absolute or leads outside the vault; Kessho never follows one: replace the link with a relative one inside the vault, or with the files",
			p+" est ou traverse un lien symbolique absolu ou qui sort du coffre ; Kessho n'en suit jamais : remplacez-le par un lien relatif dans le coffre, ou par les fichiers")
	}
	return fault.Internalf("reading %s: %v", p, err)
}

// randomName returns a fresh hidden name for a temporary file.
func randomName() string {
	var b [8]byte
	rand.Read(b[:])
	return tempPrefix + hex.EncodeToString(b[:])
}

// join is path.Join for vault paths where dir may be ".".
func join(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}

// fsync syncs f to its disk, counted (fsyncs.Count).
func fsync(f *os.File) error {
	fsyncs.Add()
	return f.Sync()
}
