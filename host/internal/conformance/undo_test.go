package conformance

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/host/call"
)

// kitSession opens a copy of the kit-conventions vault for a session of
// calls on eng, from 2026-11-30 09:00 UTC.
func kitSession(t *testing.T, eng call.Engine) (string, *session) {
	t.Helper()
	dir := fixtureVault(t, "kit-conventions")
	v := openVault(t, dir)
	return dir, &session{t: t, v: v, eng: eng, now: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}
}

// TestRollbackUndoesWholeArchive archives a session that replaces the
// context, derives atoms into a zone with the kit's index.md, then rolls
// it back with restore_context: every note is again byte for byte what it
// was, on both engines; only Kessho's rollback record is new.
func TestRollbackUndoesWholeArchive(t *testing.T) {
	for name, eng := range engines(t) {
		t.Run(name, func(t *testing.T) {
			dir, s := kitSession(t, eng)
			before, _ := ReadTree(dir)
			r := s.call("mem_archive", `{"slug":"webshop","mode":"full","context_md":"# Webshop\n\nAll new.\n","archive_subject":"release 1.6","archive_body_md":"Publiée.","derive":[{"fact":"Purge twice","body":"Once is not enough.","kind":"knowledge"},{"fact":"Release on Tuesdays","body":"Never on Fridays.","kind":"principle"}]}`)
			if atoms := r["atoms_created"].([]any); len(atoms) != 2 {
				t.Fatalf("atoms_created %v; want 2", atoms)
			}
			mid, _ := ReadTree(dir)
			if d := diffTrees(mid, before); d == "" {
				t.Fatal("the archive wrote nothing")
			}
			r = s.call("mem_rollback_archive", `{"slug":"webshop","restore_context":true}`)
			if r["context_kept"] != false || len(r["removed"].([]any)) != 3 {
				t.Errorf("rollback answered %v; want the context restored and the archive and 2 atoms removed", r)
			}
			after, _ := ReadTree(dir)
			rec, ok := after[plan.UndoDir+"/webshop/rollback.json"]
			if !ok {
				t.Fatal("no rollback record")
			}
			delete(after, plan.UndoDir+"/webshop/rollback.json")
			if d := diffTrees(after, before); d != "" {
				t.Errorf("archive then rollback with restore_context left the vault changed:\n%s", d)
			}
			var last struct{ Archive, At string }
			if err := json.Unmarshal(rec, &last); err != nil || !strings.HasSuffix(last.Archive, "-webshop-release-1-6.md") {
				t.Errorf("rollback record %s (%v)", rec, err)
			}
		})
	}
}

// TestRetriedRollbackRemovesNothing is the agent whose client timed out:
// it sends the same rollback again a minute later. The second call
// answers ROLLBACK_REPEATED and the older, real archive stays; named,
// it goes.
func TestRetriedRollbackRemovesNothing(t *testing.T) {
	for name, eng := range engines(t) {
		t.Run(name, func(t *testing.T) {
			dir, s := kitSession(t, eng)
			first := s.call("mem_archive", `{"slug":"infra","mode":"full","archive_subject":"one","archive_body_md":"One.","no_derived_because":"routine"}`)["archive"].(string)
			second := s.call("mem_archive", `{"slug":"infra","mode":"full","archive_subject":"two","archive_body_md":"Two.","no_derived_because":"routine"}`)["archive"].(string)
			if got := s.call("mem_rollback_archive", `{"slug":"infra"}`)["archive"]; got != second {
				t.Fatalf("first rollback removed %v; want %s", got, second)
			}
			mid, _ := ReadTree(dir)
			out, err := call.Run(context.Background(), s.v, eng, "mem_rollback_archive", json.RawMessage(`{"slug":"infra"}`),
				call.Options{Now: s.now, TZ: "Europe/Paris", Lang: "en"})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(out.Answer), `"code":"ROLLBACK_REPEATED"`) || !strings.Contains(string(out.Answer), first) {
				t.Fatalf("retried rollback answered %s; want ROLLBACK_REPEATED naming %s", out.Answer, first)
			}
			after, _ := ReadTree(dir)
			if d := diffTrees(after, mid); d != "" {
				t.Errorf("the refused retry changed the vault:\n%s", d)
			}
			name := strings.TrimPrefix(first, "10-episodes/projects/infra/archives/")
			if got := s.call("mem_rollback_archive", `{"slug":"infra","archive":"`+name+`"}`)["archive"]; got != first {
				t.Errorf("named rollback removed %v; want %s", got, first)
			}
		})
	}
}

// TestUndoRecordsNeverThroughALink plants a symbolic link at each place on
// the way to a project's undo records (.kessho, .kessho/undo, its slug's
// folder, a record, the rollback record), pointing at a note or a note's
// folder, then archives and rolls back on both engines: each call that
// would read or write there is refused, CONFLICT naming the link, and no
// note changes, appears or goes.
func TestUndoRecordsNeverThroughALink(t *testing.T) {
	const proj = "10-episodes/domains/infra"
	archive := `{"slug":"infra","mode":"full","archive_subject":"one","archive_body_md":"One.","no_derived_because":"routine"}`
	cases := []struct {
		link, target, tool, args string
	}{
		{".kessho", "10-episodes", "mem_archive", archive},
		{".kessho/undo", "../10-episodes/projects", "mem_archive", archive},
		{".kessho/undo/infra", "../../" + proj, "mem_archive", archive},
		{".kessho/undo/infra/2026-11-30-10h00-infra-one.json", "../../../" + proj + "/context.md", "mem_archive", archive},
		{".kessho/undo/infra/rollback.json", "../../../" + proj + "/context.md", "mem_rollback_archive", `{"slug":"infra"}`},
	}
	for name, eng := range engines(t) {
		for _, c := range cases {
			t.Run(name+"/"+c.link, func(t *testing.T) {
				dir, s := kitSession(t, eng)
				if c.tool == "mem_rollback_archive" {
					s.call("mem_archive", archive)
				}
				full := filepath.Join(dir, filepath.FromSlash(c.link))
				if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
					t.Fatal(err)
				}
				os.RemoveAll(full)
				before, err := ReadTree(dir)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(filepath.FromSlash(c.target), full); err != nil {
					t.Fatal(err)
				}
				out, err := call.Run(context.Background(), s.v, eng, c.tool, json.RawMessage(c.args),
					call.Options{Now: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC), TZ: "Europe/Paris", Lang: "en"})
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(out.Answer), `"code":"CONFLICT"`) || !strings.Contains(string(out.Answer), "symbolic link") {
					t.Errorf("%s with a link at %s answered %s; want CONFLICT naming the link", c.tool, c.link, out.Answer)
				}
				if err := os.Remove(full); err != nil {
					t.Fatal(err)
				}
				after, err := ReadTree(dir)
				if err != nil {
					t.Fatal(err)
				}
				if d := diffTrees(after, before); d != "" {
					t.Errorf("%s with a link at %s changed the vault:\n%s", c.tool, c.link, d)
				}
			})
		}
	}
}
