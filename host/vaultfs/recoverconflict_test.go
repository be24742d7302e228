package vaultfs

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/hostlogic"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
)

// copyRE matches a conflict copy's name, for x = stem + ".md".
func copyRE(stem string) *regexp.Regexp {
	return regexp.MustCompile(`^` + regexp.QuoteMeta(stem) + `\.kessho-conflict-\d{8}T\d{6}Z\.md$`)
}

// wantRecoveryConflict checks err is RECOVERY_CONFLICT naming p and a copy
// whose name matches re, and returns the copy's path. A write's (write
// true) says what to copy from the copy before it is deleted: the lines
// Kessho's version has and p lacks; a delete's or a move's, whose copy is
// a note, says to make the change by hand if wanted.
func wantRecoveryConflict(t *testing.T, err error, p string, re *regexp.Regexp, write bool) string {
	t.Helper()
	e := wantCode(t, err, fault.RecoveryConflict)
	cp, _ := e.Details["copy"].(string)
	if e.Details["path"] != p || !re.MatchString(cp) || !strings.HasPrefix(e.Details["journal"].(string), ".kessho/journal/") {
		t.Fatalf("RECOVERY_CONFLICT details %v; want path %s, a copy matching %s", e.Details, p, re)
	}
	wantEn := "an interrupted change could not be finished: " + p + " was changed after it began; your version is kept and Kessho's is in " + cp + "; copy into " + p + " every line of Kessho's version that yours lacks (the change's other files may need them: a history line names its archive, an index its notes), then delete " + cp + " and run the call again"
	wantFr := "une modification interrompue n'a pas pu être terminée : " + p + " a été modifié depuis son début ; votre version est gardée et celle de Kessho est dans " + cp + " ; reportez dans " + p + " chaque ligne de la version de Kessho qui manque à la vôtre (les autres fichiers de la modification peuvent en avoir besoin : une ligne d'historique nomme son archive, un index ses notes), puis supprimez " + cp + " et relancez l'appel"
	if !write {
		wantEn = "an interrupted change could not be finished: " + p + " was changed after it began; it is kept as it is, and " + cp + " says what Kessho's change was: make it by hand if you want it, then delete " + cp + " and run the call again"
		wantFr = "une modification interrompue n'a pas pu être terminée : " + p + " a été modifié depuis son début ; il est gardé tel quel, et " + cp + " dit quelle était la modification de Kessho : faites-la à la main si vous la voulez, puis supprimez " + cp + " et relancez l'appel"
	}
	if e.En != wantEn || e.Fr != wantFr {
		t.Errorf("messages:\n%s\n%s", e.En, e.Fr)
	}
	return cp
}

// A write whose target was edited after the crash: the edit is kept,
// Kessho's text goes to the copy, every call refuses until the copy is
// deleted, and then the rest of the plan is finished.
func TestRecoverWriteConflict(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, map[string]string{"notes/a.md": "A", "notes/b.md": "B"})
	p := plan.Plan{
		write("notes/a.md", h("A"), "A by Kessho"),
		write("c.md", plan.Absent, "C"),
		{Op: plan.Delete, Path: "notes/b.md", Expect: h("B")},
	}
	crashed(t, dir, p, map[string]string{"notes/a.md": "A edited after the crash"}, "")
	err := recoverVault(t, dir)
	cp := wantRecoveryConflict(t, err, "notes/a.md", copyRE("notes/a"), true)
	mid := treeOf(map[string]string{"notes/a.md": "A edited after the crash", "notes/b.md": "B", cp: "A by Kessho"})
	if d := diffTree(readTree(t, dir), mid); d != "" {
		t.Fatalf("after the conflict:\n%s", d)
	}
	j := journalFiles(t, dir)
	var rec hostlogic.Record
	for _, n := range j {
		if strings.HasSuffix(n, ".conflict") {
			b, _ := os.ReadFile(filepath.Join(dir, ".kessho", "journal", n))
			json.Unmarshal(b, &rec)
		}
	}
	if rec != (hostlogic.Record{Op: 0, Path: "notes/a.md", Copy: cp}) {
		t.Errorf("conflict record %+v in %q", rec, j)
	}

	// Every later call, read-only ones too, refuses; no second copy.
	v := openVault(t, dir)
	for _, tool := range []string{"mem_list", "mem_set_summary"} {
		out, err := call.Run(context.Background(), v, engine.Native(), tool, json.RawMessage(`{"slug":"x","summary":"s"}`), call.Options{})
		if err != nil || out.OK || !strings.Contains(string(out.Answer), `"code":"RECOVERY_CONFLICT"`) || !strings.Contains(string(out.Answer), cp) {
			t.Errorf("%s during the conflict: %s, %v", tool, out.Answer, err)
		}
	}
	wantRecoveryConflict(t, recoverVault(t, dir), "notes/a.md", copyRE("notes/a"), true)
	if d := diffTree(readTree(t, dir), mid); d != "" {
		t.Fatalf("a refused call changed the vault:\n%s", d)
	}

	// The user resolves: the copy deleted, their version wins, the rest
	// of the plan lands.
	os.Remove(filepath.Join(dir, filepath.FromSlash(cp)))
	if err := recoverVault(t, dir); err != nil {
		t.Fatalf("Recover once resolved: %v", err)
	}
	if d := diffTree(readTree(t, dir), treeOf(map[string]string{"notes/a.md": "A edited after the crash", "c.md": "C", "notes/": ""})); d != "" {
		t.Errorf("after the resolution:\n%s", d)
	}
	if j := journalFiles(t, dir); len(j) != 0 {
		t.Errorf("journal left: %q", j)
	}
}

// handMade writes journal text as .kessho/journal/<id>.json, as a person
// or a sync client from another machine could.
func handMade(t *testing.T, dir, id, text string) {
	t.Helper()
	makeTree(t, dir, map[string]string{".kessho/journal/" + id + ".json": text})
}

// A journal that names a file whose hash differs never deletes it, in
// either version; its note says what the change was.
func TestRecoverDeleteConflict(t *testing.T) {
	const id = "20260101T000000.000000000Z-abcdef01"
	del := `{"op":"delete","path":"notes/b.md","expect":"` + h("B") + `"}`
	for name, text := range map[string]string{
		"v1": `{"version":1,"id":"` + id + `","created":"2026-01-01T00:00:00Z","plan":[` + del + `]}`,
		"v2": `{"version":2,"id":"` + id + `","created":"2026-01-01T00:00:00Z","plan":[` + del + `],"states":[{"before":"` + h("B") + `","after":"absent"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			makeTree(t, dir, map[string]string{"notes/b.md": "not the B the journal knew"})
			handMade(t, dir, id, text)
			cp := wantRecoveryConflict(t, recoverVault(t, dir), "notes/b.md", copyRE("notes/b"), false)
			note := "Kessho's interrupted change (journal " + id + ") was to delete notes/b.md; it was changed since, so it was kept as it is. Delete this note once you have decided; Kessho then goes on with the rest of that change."
			if d := diffTree(readTree(t, dir), treeOf(map[string]string{"notes/b.md": "not the B the journal knew", cp: note})); d != "" {
				t.Fatalf("after the conflict:\n%s", d)
			}
			os.Remove(filepath.Join(dir, filepath.FromSlash(cp)))
			if err := recoverVault(t, dir); err != nil {
				t.Fatal(err)
			}
			if d := diffTree(readTree(t, dir), treeOf(map[string]string{"notes/b.md": "not the B the journal knew"})); d != "" {
				t.Errorf("after the resolution:\n%s", d)
			}
			if j := journalFiles(t, dir); len(j) != 0 {
				t.Errorf("journal left: %q", j)
			}
		})
	}
}

// Moves and deletes get a note; a copy name already taken gets "-2".
func TestRecoverMoveAndDeleteConflict(t *testing.T) {
	for _, c := range []struct {
		name  string
		op    plan.Op
		state map[string]string
		x     string // the target named
		what  string // in the note
	}{
		{"move, both ends there", plan.Op{Op: plan.Move, From: "proj/x", To: "done/x", Expect: plan.Absent},
			map[string]string{"proj/x/context.md": "c", "done/x/other.md": "someone's"}, "proj/x", "move proj/x to done/x"},
		{"delete, file changed", plan.Op{Op: plan.Delete, Path: "notes/d.md", Expect: h("d")},
			map[string]string{"notes/d.md": "d, edited"}, "notes/d.md", "delete notes/d.md"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			crashed(t, dir, plan.Plan{c.op}, c.state, "")
			stem := strings.TrimSuffix(c.x, ".md")
			first := wantRecoveryConflict(t, recoverVault(t, dir), c.x, copyRE(stem), false)
			// A crash before the record was written: the next recovery
			// writes another copy beside the first.
			for _, n := range journalFiles(t, dir) {
				if strings.HasSuffix(n, ".conflict") {
					os.Remove(filepath.Join(dir, ".kessho", "journal", n))
				}
			}
			second := wantRecoveryConflict(t, recoverVault(t, dir), c.x, regexp.MustCompile(`^`+regexp.QuoteMeta(stem)+`\.kessho-conflict-\d{8}T\d{6}Z(-2)?\.md$`), false)
			if second == first {
				t.Fatalf("the second copy overwrote the first: %s", first)
			}
			got := readTree(t, dir)
			if !strings.Contains(got[second], "was to "+c.what+"; it was changed since") {
				t.Errorf("note %q", got[second])
			}
			for p, text := range c.state {
				if got[p] != text {
					t.Errorf("%s = %q; want %q kept", p, got[p], text)
				}
			}
		})
	}
}

// A v1 journal left by an older Kessho is still rolled forward.
func TestRecoverVersion1(t *testing.T) {
	const id = "20260101T000000.000000000Z-abcdef01"
	dir := t.TempDir()
	makeTree(t, dir, map[string]string{"notes/a.md": "A", "notes/b.md": "B"})
	handMade(t, dir, id, `{"version":1,"id":"`+id+`","created":"2026-01-01T00:00:00Z","plan":[`+
		`{"op":"write","path":"notes/a.md","expect":"`+h("A")+`","text":"A2"},`+
		`{"op":"delete","path":"notes/b.md","expect":"`+h("B")+`"}]}`)
	if err := recoverVault(t, dir); err != nil {
		t.Fatal(err)
	}
	if d := diffTree(readTree(t, dir), treeOf(map[string]string{"notes/a.md": "A2"})); d != "" {
		t.Errorf("after Recover:\n%s", d)
	}
}
