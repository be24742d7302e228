//go:build linux

package vaultfs

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
)

// TestInPlaceSaveUnderWay: an editor that saves in place has truncated
// the file and not yet written it when Kessho reads and re-checks it. The
// bytes Kessho sees (nothing) are not what the editor means to save, and
// its write would go to the file Kessho replaces: the call answers
// CONFLICT, and the editor's save lands whole.
func TestInPlaceSaveUnderWay(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, map[string]string{"notes/a.md": "A\n"})
	v := openVault(t, dir)
	full := filepath.Join(dir, "notes", "a.md")
	w, err := os.OpenFile(full, os.O_WRONLY|os.O_TRUNC, 0) // the editor, half-way through its save
	if err != nil {
		t.Fatal(err)
	}
	err = v.Apply(lock(t, v), plan.Plan{write("notes/a.md", h(""), "Kessho's version\n")})
	if _, werr := w.Write([]byte("A\nthe editor's line\n")); werr != nil {
		t.Fatal(werr)
	}
	w.Close()
	wantCode(t, err, fault.Conflict)
	if b, _ := os.ReadFile(full); string(b) != "A\nthe editor's line\n" {
		t.Errorf("notes/a.md = %q: the editor's save was lost", b)
	}
}

// TestInPlaceSaveStartsDuringTheSwap: an editor starts an in-place save
// after Kessho's re-check and before its exchange. Its open looked the
// path up before the exchange, so its bytes would go to the old file,
// which Kessho then removes. The read lease makes that open wait, Kessho
// sees the lease breaking, gives the old file back and answers CONFLICT;
// the editor's save lands whole.
func TestInPlaceSaveStartsDuringTheSwap(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, map[string]string{"notes/a.md": "A\n"})
	v := openVault(t, dir)
	full := filepath.Join(dir, "notes", "a.md")
	var editor *exec.Cmd
	crashHook = func(s string) {
		if s != "write notes/a.md: re-checked" || editor != nil {
			return
		}
		editor = exec.Command("sh", "-c", `printf 'A\nthe editor line\n' > "$0"`, full)
		if err := editor.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait until the editor's open is held by Kessho's lease.
		for deadline := time.Now().Add(2 * time.Minute); ; {
			if b, _ := os.ReadFile("/proc/locks"); strings.Contains(string(b), "BREAKING") {
				return
			}
			if time.Now().After(deadline) {
				t.Fatal("the editor's open never waited on Kessho's lease")
			}
			runtime.Gosched()
		}
	}
	err := v.Apply(lock(t, v), plan.Plan{write("notes/a.md", h("A\n"), "Kessho's version\n")})
	crashHook = nil
	if editor == nil {
		t.Fatal("no step write notes/a.md: re-checked")
	}
	if werr := editor.Wait(); werr != nil {
		t.Fatal(werr)
	}
	wantCode(t, err, fault.Conflict)
	if b, _ := os.ReadFile(full); string(b) != "A\nthe editor line\n" {
		t.Errorf("notes/a.md = %q: the editor's save was lost", b)
	}
}
