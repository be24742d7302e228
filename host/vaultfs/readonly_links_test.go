//go:build unix

package vaultfs

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kessho/kessho/core/hostlogic"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/tools"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/internal/enginetest"
)

// readOnlyProjects are readOnlyVault's projects the tools' examples act
// on (catalog.Tool.ExampleOn): each read-only tool is called with its
// example (mem_search's words are in fact.md).
var readOnlyProjects = map[string]string{"alpha": "a", "beta": "b"}

// readOnlyVault is a project with a history and an archive, and notes.
var readOnlyVault = map[string]string{
	"10-episodes/projects/a/context.md":                         "---\nkind: project\nphase: build\n---\n# A\n\nThe context of a.\n",
	"10-episodes/projects/a/history.md":                         "- [2026-01-02 10h00 — Fin](archives/2026-01-02-10h00-a-fin.md)\n",
	"10-episodes/projects/a/archives/2026-01-02-10h00-a-fin.md": "---\nsubject: Fin\n---\nThe context was read.\n",
	"10-episodes/projects/b/context.md":                         "---\nkind: project\nphase: build\n---\n# B\n\nThe context of b.\n",
	"20-knowledge/fact.md":                                      "a fact about the context: the parser cache release\n",
}

// TestReadOnlyToolsNeverWriteThroughLinks: every tool of the catalogue
// that never writes, on both engines, with symbolic links to notes (and
// to a folder of notes) planted at every name under .kessho — the
// folder itself, the lock, the kept mark, the journal folder, a
// journal's files and a mark, the index folder, its files and every
// temporary name, the undo records' folders and files — leaves every
// note's bytes as they were and makes no note. The calls may be
// refused (a link at the lock, say, names what to remove); searches
// through a linked index folder answer, and say the index is not kept.
func TestReadOnlyToolsNeverWriteThroughLinks(t *testing.T) {
	a, b, fact := "10-episodes/projects/a/context.md", "10-episodes/projects/b/context.md", "20-knowledge/fact.md"
	j := hostlogic.NewJournal(plan.Plan{plan.CheckOp(fact, h(readOnlyVault[fact]))}, time.Now(), "abcd1234")
	journal, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	setups := map[string]func(t *testing.T, dir string){
		".kessho":         func(t *testing.T, dir string) { plant(t, dir, ".kessho", "20-knowledge") },
		".kessho/journal": func(t *testing.T, dir string) { plant(t, dir, ".kessho/journal", "10-episodes/projects/a") },
		".kessho/index":   func(t *testing.T, dir string) { plant(t, dir, ".kessho/index", "10-episodes/projects/b") },
		"the lock":        func(t *testing.T, dir string) { plant(t, dir, ".kessho/lock", a) },
		"the kept mark":   func(t *testing.T, dir string) { plant(t, dir, ".kessho/mark", a) },
		"the journal's files": func(t *testing.T, dir string) {
			for i, name := range []string{"x.json", "x.done", "x.conflict", "orphan.done", ".kessho-tmp-0011223344556677"} {
				plant(t, dir, ".kessho/journal/"+name, []string{a, b, fact}[i%3])
			}
		},
		"a journal's progress": func(t *testing.T, dir string) {
			makeTree(t, dir, map[string]string{".kessho/journal/" + j.ID + ".json": string(journal)})
			plant(t, dir, ".kessho/journal/"+j.ID+".done", a)
		},
		"a journal's conflict record": func(t *testing.T, dir string) {
			makeTree(t, dir, map[string]string{".kessho/journal/" + j.ID + ".json": string(journal)})
			plant(t, dir, ".kessho/journal/"+j.ID+".conflict", b)
		},
		".kessho/undo":   func(t *testing.T, dir string) { plant(t, dir, ".kessho/undo", "10-episodes/projects") },
		".kessho/undo/a": func(t *testing.T, dir string) { plant(t, dir, ".kessho/undo/a", "10-episodes/projects/a") },
		"the undo records": func(t *testing.T, dir string) {
			for i, name := range []string{"rollback.json", "2026-01-02-10h00-a-fin.json"} {
				plant(t, dir, ".kessho/undo/a/"+name, []string{a, b}[i])
			}
		},
		"the index's files": func(t *testing.T, dir string) {
			for i, name := range []string{"search.idx", "search.id", "search.idx.tmp", "search.id.tmp", ".kessho-tmp-8899aabbccddeeff", "obsidian.idx", "obsidian.id"} {
				plant(t, dir, ".kessho/index/"+name, []string{a, b, fact}[i%3])
			}
		},
	}
	// refused names the setups whose calls are all refused, with the place
	// each names: a link where Kessho keeps its lock or its journal.
	refused := map[string]string{
		".kessho": ".kessho", "the lock": ".kessho/lock", ".kessho/journal": ".kessho/journal",
		"the journal's files": ".kessho/journal/x.json", "a journal's progress": ".kessho/journal/" + j.ID + ".done",
		"a journal's conflict record": ".kessho/journal/" + j.ID + ".conflict",
	}
	for engName, eng := range enginetest.Both(t) {
		for setup, plantLinks := range setups {
			t.Run(engName+"/"+setup, func(t *testing.T) {
				dir := t.TempDir()
				makeTree(t, dir, readOnlyVault)
				plantLinks(t, dir)
				before := readTree(t, dir)
				v := openVault(t, dir)
				for _, spec := range tools.Specs() {
					if spec.Writes {
						continue
					}
					for round := range 2 {
						args, _ := spec.ExampleOn(readOnlyProjects)
						out, err := call.Run(context.Background(), v, eng, spec.Name, args, raceOpts)
						if err != nil {
							t.Fatalf("%s: %v", spec.Name, err)
						}
						if d := diffTree(readTree(t, dir), before); d != "" {
							t.Fatalf("%s (call %d) changed the vault:\n%s", spec.Name, round+1, d)
						}
						if p, ok := refused[setup]; ok && (out.OK || out.Error.Code != "CONFLICT" || out.Error.Details["path"] != p) {
							t.Errorf("%s: %s; want a CONFLICT naming %s", spec.Name, out.Answer, p)
						}
						if setup == ".kessho/index" && spec.Name == "mem_search" && (!out.OK || !strings.Contains(string(out.Answer), "is not kept")) {
							t.Errorf("search through a linked index folder: %s", out.Answer)
						}
					}
				}
				for _, p := range []string{a, b, fact} {
					if got, _ := os.ReadFile(filepath.Join(dir, p)); string(got) != readOnlyVault[p] {
						t.Errorf("%s now holds %q", p, got)
					}
				}
			})
		}
	}
}
