package call_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/internal/fsyncs"
	"github.com/kessho/kessho/host/vaultfs"
)

// counting is a vault that counts what the host reads for the core: the
// entries it lists, the files it reads and the paths it reports missing.
type counting struct {
	*vaultfs.Vault
	read int
}

func (c *counting) AnswerContext(ctx context.Context, need vault.Need, snap *vault.Snapshot, maxBytes int64) error {
	before := snapSize(snap)
	err := c.Vault.AnswerContext(ctx, need, snap, maxBytes)
	c.read += snapSize(snap) - before
	return err
}

func snapSize(s *vault.Snapshot) int {
	n := len(s.Files) + len(s.Missing)
	for _, e := range s.Dirs {
		n += 1 + len(e)
	}
	for _, e := range s.Matches {
		n += 1 + len(e)
	}
	return n
}

// manyProjects is a vault of n projects (a context.md each), two domains
// and two archived projects; "alpha" is one of the projects.
func manyProjects(n int) map[string]string {
	files := map[string]string{}
	for i := range n {
		slug := fmt.Sprintf("p%05d", i)
		if i == n/2 {
			slug = "alpha"
		}
		files[vault.Dir(vault.KindProject, slug)+"/context.md"] = "---\nkind: project\nphase: build\n---\n# " + slug + "\n"
	}
	for _, k := range []string{vault.KindDomain, vault.KindArchived} {
		for _, slug := range []string{"d1", "d2"} {
			files[vault.Dir(k, k+slug)+"/context.md"] = "---\nkind: project\n---\n# " + slug + "\n"
		}
	}
	return files
}

// TestOneProjectToolsAreFlat: a tool that touches one project makes the
// host read as much of a vault of 2,000 projects as of one of 10 (the
// slug is resolved by probing its three possible folders, never by
// listing every project).
func TestOneProjectToolsAreFlat(t *testing.T) {
	calls := []struct{ tool, args string }{
		{"mem_update_phase", `{"slug":"alpha","phase":"review"}`},
		{"mem_set_summary", `{"slug":"alpha","summary":"What alpha is."}`},
		{"mem_read_context", `{"slug":"alpha"}`},
		{"mem_historize", `{"slug":"alpha"}`},
		{"mem_init_project", `{"slug":"brand-new"}`},
	}
	opts := call.Options{Now: time.Date(2026, 11, 30, 9, 15, 0, 0, time.UTC), TZ: "Europe/Paris"}
	read := map[int]map[string]int{}
	for _, n := range []int{10, 2000} {
		read[n] = map[string]int{}
		for _, c := range calls {
			_, v := newVault(t, manyProjects(n))
			cv := &counting{Vault: v}
			out, err := call.Run(context.Background(), cv, engine.Native(), c.tool, json.RawMessage(c.args), opts)
			if err != nil || !out.OK {
				t.Fatalf("%s on %d projects: %v %s", c.tool, n, err, out.Answer)
			}
			read[n][c.tool] = cv.read
		}
	}
	for _, c := range calls {
		if small, large := read[10][c.tool], read[2000][c.tool]; small != large {
			t.Errorf("%s: the host read %d entries of a vault of 10 projects, %d of one of 2,000; want the same", c.tool, small, large)
		}
	}
}

// TestSyncsPerTool pins the fsyncs of whole calls, one tool per shape of
// plan (RATIONALE.md, "Why does a one-file plan need no journal?"): a
// one-file write takes 2, a plan of several files a journal.
func TestSyncsPerTool(t *testing.T) {
	opts := call.Options{Now: time.Date(2026, 11, 30, 9, 15, 0, 0, time.UTC), TZ: "Europe/Paris"}
	for _, c := range []struct {
		tool, args string
		syncs      int64
	}{
		// The temporary file, its folder.
		{"mem_update_phase", `{"slug":"alpha","phase":"review"}`, 2},
		{"mem_set_summary", `{"slug":"alpha","summary":"What alpha is."}`, 2},
		{"mem_read_context", `{"slug":"alpha"}`, 0},
		// The journal folder made (1), the journal (2), its progress (1);
		// the folder's absence checked, its progress line (1); the
		// project's folder made (1); two files (2 each) and their
		// progress lines (1 each); the journal removed (1).
		{"mem_init_project", `{"slug":"brand-new"}`, 1 + 2 + 1 + 1 + 1 + 2*(2+1) + 1},
	} {
		_, v := newVault(t, manyProjects(10))
		start := fsyncs.Count()
		out, err := call.Run(context.Background(), v, engine.Native(), c.tool, json.RawMessage(c.args), opts)
		if err != nil || !out.OK {
			t.Fatalf("%s: %v %s", c.tool, err, out.Answer)
		}
		if got := fsyncs.Count() - start; got != c.syncs {
			t.Errorf("%s: %d fsyncs; want %d", c.tool, got, c.syncs)
		}
	}
}
