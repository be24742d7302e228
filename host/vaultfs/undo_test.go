//go:build unix

package vaultfs

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"kessho/core/fault"
	"kessho/core/plan"
	"kessho/host/call"
	"kessho/host/conformance"
	"kessho/host/engine"
)

// Issue 24 item 7, through a whole mem_archive call on both engines: an
// editor re-saves history.md keeping Kessho's new line, then context.md
// changes before its op lands. The call answers CONFLICT saying what
// stayed: their history.md, and the archive its line names, which
// mem_read_archive then reads (it answered UNKNOWN_ARCHIVE when the undo
// removed it). Every outside edit is kept.
func TestArchiveConflictKeepsWhatHistoryNames(t *testing.T) {
	file := filepath.Join("..", "..", "testdata", "cases", "archive-full.txtar")
	c, err := conformance.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	now, _ := time.Parse(time.RFC3339, c.Call.Now)
	const proj = "10-episodes/projects/alpha/"
	archive := proj + "archives/2026-11-30-10h15-alpha-decision-ete-l-outil-d-archive.md"
	w, err := engine.NewWasm(context.Background(), engine.WasmOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(context.Background())
	answers := map[string]string{}
	for name, eng := range map[string]call.Engine{"native": engine.Native(), "wasm": w} {
		dir := t.TempDir()
		for p, b := range c.Vault {
			makeTree(t, dir, map[string]string{p: string(b)})
		}
		full := func(p string) string { return filepath.Join(dir, filepath.FromSlash(p)) }
		var theirs map[string]string
		crashHook = func(s string) {
			if s != "write "+proj+"context.md: temp synced" || theirs != nil {
				return
			}
			hist, _ := os.ReadFile(full(proj + "history.md")) // Kessho's, with its new line
			theirs = map[string]string{proj + "history.md": string(hist) + "- typed in the editor\n", proj + "context.md": "their context\n"}
			for p, text := range theirs {
				os.WriteFile(full(p), []byte(text), 0o644)
			}
		}
		v := openVault(t, dir)
		out, err := call.Run(context.Background(), v, eng, c.Call.Tool, c.Call.Args, call.Options{Now: now, TZ: c.Call.TZ, Lang: c.Call.Lang})
		crashHook = nil
		if err != nil {
			t.Fatal(err)
		}
		answers[name] = string(out.Answer)
		var a struct {
			Error struct{ Code, Message string }
		}
		json.Unmarshal(out.Answer, &a)
		if a.Error.Code != "CONFLICT" || !strings.Contains(a.Error.Message, "except "+proj+"history.md") || !strings.Contains(a.Error.Message, archive+": files Kessho made, kept") {
			t.Fatalf("%s: %s", name, out.Answer)
		}
		got := readTree(t, dir)
		for p, text := range theirs {
			if got[p] != text {
				t.Errorf("%s: %s = %q; want theirs, %q", name, p, got[p], text)
			}
		}
		if !strings.Contains(got[proj+"history.md"], "2026-11-30-10h15-alpha-decision-ete-l-outil-d-archive") || got[archive] != string(c.Want[archive]) {
			t.Errorf("%s: history.md names the archive, which is %q", name, got[archive])
		}
		read, err := call.Run(context.Background(), v, eng, "mem_read_archive", json.RawMessage(`{"slug":"alpha","archive":"latest"}`), call.Options{Now: now})
		if err != nil || !read.OK || !strings.Contains(string(read.Answer), "2026-11-30-10h15") {
			t.Errorf("%s: mem_read_archive latest: %s %v", name, read.Answer, err)
		}
		if j := journalFiles(t, dir); len(j) != 0 {
			t.Errorf("%s: journal left: %q", name, j)
		}
	}
	if answers["native"] != answers["wasm"] {
		t.Errorf("native %s\nwasm   %s", answers["native"], answers["wasm"])
	}
}

// A restore that loses its race (the file edited between the undo's look
// and its last-instant re-check) keeps that file, and the files the ops
// left to undo made, which it may name; the refusal names both.
func TestUndoRaceKeepsWhatItMayName(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, map[string]string{"b.md": "b0", "last.md": "l0"})
	p := plan.Plan{write("f/new.md", plan.Absent, "new"), write("b.md", h("b0"), "b1"), write("last.md", h("l0"), "l1")}
	crashHook = func(s string) {
		switch s {
		case "op 1: recorded done":
			os.WriteFile(filepath.Join(dir, "last.md"), []byte("their last"), 0o644)
		case "undo write b.md: re-checking":
			os.WriteFile(filepath.Join(dir, "b.md"), []byte("their b"), 0o644)
		}
	}
	defer func() { crashHook = nil }()
	v := openVault(t, dir)
	l := lock(t, v)
	defer l.Unlock()
	e := wantCode(t, v.Apply(l, p), fault.Conflict)
	want := "Kessho stopped its change at last.md (another program or person wrote it after Kessho read it) and undid what it had written, except b.md: changed since Kessho wrote it, and kept as it is; and f/new.md: files Kessho made, kept because a changed file may name them; look at them before you run the call again"
	if e.En != want || !slices.Equal(e.Details["edited"].([]string), []string{"b.md"}) || !slices.Equal(e.Details["kept"].([]string), []string{"f/new.md"}) {
		t.Errorf("%s\n%v", e.En, e.Details)
	}
	if d := diffTree(readTree(t, dir), treeOf(map[string]string{"b.md": "their b", "last.md": "their last", "f/new.md": "new"})); d != "" {
		t.Errorf("after:\n%s", d)
	}
}
