package conformance

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/vaultfs"
)

// memoryKit lays testdata/vaults/memory-kit.txtar out in a temp folder.
func memoryKit(t *testing.T) string { return fixtureVault(t, "memory-kit") }

// openVault opens the vault in dir, closed when the test ends.
func openVault(t *testing.T, dir string) *vaultfs.Vault {
	t.Helper()
	v, err := vaultfs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return v
}

// fixtureVault lays testdata/vaults/<name>.txtar out in a temp folder.
func fixtureVault(t *testing.T, name string) string {
	t.Helper()
	a, err := txtar.ParseFile("../../../testdata/vaults/" + name + ".txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range a.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type session struct {
	t   *testing.T
	v   *vaultfs.Vault
	eng call.Engine
	now time.Time
}

func (s *session) call(tool, args string) map[string]any {
	s.t.Helper()
	out, err := call.Run(context.Background(), s.v, s.eng, tool, json.RawMessage(args),
		call.Options{Now: s.now, TZ: "Europe/Paris", Lang: "fr"})
	if err != nil {
		s.t.Fatal(err)
	}
	var ans map[string]any
	if err := json.Unmarshal(out.Answer, &ans); err != nil {
		s.t.Fatal(err)
	}
	if ans["ok"] != true {
		s.t.Fatalf("%s %s: %s", tool, args, out.Answer)
	}
	s.now = s.now.Add(time.Minute)
	return ans["result"].(map[string]any)
}

func engines(t *testing.T) map[string]call.Engine {
	w, err := engine.NewWasm(context.Background(), engine.WasmOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(context.Background()) })
	return map[string]call.Engine{"native": engine.Native(), "wasm": w}
}

// TestMemoryKitVault runs the session tools on a memory-kit vault as it
// is: archive then rollback leaves history.md byte-identical; historize
// then revive leaves context.md byte-identical; nothing outside the
// project is touched.
func TestMemoryKitVault(t *testing.T) {
	for name, eng := range engines(t) {
		t.Run(name, func(t *testing.T) {
			dir := memoryKit(t)
			v := openVault(t, dir)
			before, err := ReadTree(dir)
			if err != nil {
				t.Fatal(err)
			}
			s := &session{t: t, v: v, eng: eng, now: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}
			proj := "10-episodes/projects/site-perso/"

			list := s.call("mem_list", `{}`)["projects"].([]any)
			if len(list) != 3 {
				t.Fatalf("mem_list found %d projects; want 3: %v", len(list), list)
			}

			r := s.call("mem_archive", `{"slug":"site-perso","mode":"full","archive_subject":"Articles 13 à 25","archive_body_md":"Migré 13 à 25 dans /Users/ada/dev/site-perso/content/.","no_derived_because":"migration"}`)
			arch := r["archive"].(string)
			if !strings.HasPrefix(arch, proj+"archives/2026-11-30-10h01-site-perso-articles-13-a-25") {
				t.Errorf("archive path %s", arch)
			}
			after, _ := ReadTree(dir)
			hist := string(after[proj+"history.md"])
			// Its entries are separated by blank lines: so is the new one.
			wantHist := strings.Replace(string(before[proj+"history.md"]), "- [2026-11-26", "- [2026-11-30 10h01 — Articles 13 à 25](archives/2026-11-30-10h01-site-perso-articles-13-a-25.md)\n\n- [2026-11-26", 1)
			if hist != wantHist {
				t.Errorf("history.md after archive:\n%s\nwant:\n%s", hist, wantHist)
			}
			if !strings.Contains(string(after[arch]), "<repo>/content/.") {
				t.Errorf("archive body lacks the <repo> sigil:\n%s", after[arch])
			}

			s.call("mem_rollback_archive", `{"slug":"site-perso"}`)
			after, _ = ReadTree(dir)
			if string(after[proj+"history.md"]) != string(before[proj+"history.md"]) {
				t.Errorf("archive then rollback changed history.md:\n%s", after[proj+"history.md"])
			}
			if _, ok := after[arch]; ok {
				t.Errorf("rollback left %s", arch)
			}

			ctxBefore := string(after[proj+"context.md"])
			s.call("mem_historize", `{"slug":"site-perso"}`)
			s.call("mem_historize", `{"slug":"site-perso","revive":true}`)
			after, _ = ReadTree(dir)
			if string(after[proj+"context.md"]) != ctxBefore {
				t.Errorf("historize then revive changed context.md:\n%s\nwant:\n%s", after[proj+"context.md"], ctxBefore)
			}
			for p, data := range before {
				if strings.HasPrefix(p, proj) {
					continue
				}
				if string(after[p]) != string(data) {
					t.Errorf("%s changed though no tool should touch it", p)
				}
			}
		})
	}
}
