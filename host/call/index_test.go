package call_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kessho/kessho/core"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/vaultfs"
)

// fileCounting is an engine (the test's native one), recording the files
// each call's needs name.
type fileCounting struct {
	inner engine.Engine
	files []string
}

func (c *fileCounting) Call(ctx context.Context, req []byte) ([]byte, error) {
	out, err := c.inner.Call(ctx, req)
	var ans core.Answer
	if err == nil && json.Unmarshal(out, &ans) == nil && ans.Need != nil {
		c.files = append(c.files, ans.Need.Files...)
	}
	return out, err
}

// hits is the paths of a mem_search result.
func hits(t *testing.T, out call.Outcome) []string {
	t.Helper()
	var r struct{ Hits []struct{ Path string } }
	if !out.OK || json.Unmarshal(out.Result, &r) != nil {
		t.Fatalf("search refused: %s", out.Answer)
	}
	var ps []string
	for _, h := range r.Hits {
		ps = append(ps, h.Path)
	}
	return ps
}

// TestSearchKeepsIndex: the Go host stores the index under .kessho/index,
// and the next search reads no note but the hits it shows (limit 1 here),
// then only the note changed since; a damaged index is rebuilt silently
// when the running core has no index of the vault warm.
func TestSearchKeepsIndex(t *testing.T) {
	files := map[string]string{}
	for i := range 30 {
		files[fmt.Sprintf("20-knowledge/n%02d.md", i)] = fmt.Sprintf("note %d about topic%d\n", i, i%3)
	}
	dir, v := newVault(t, files)
	defer v.Close()
	native := engine.Native() // the running core, whose warm index the calls share
	search := func(q string) (call.Outcome, []string) {
		eng := &fileCounting{inner: native}
		out, err := call.Run(context.Background(), v, eng, "mem_search", json.RawMessage(`{"query":"`+q+`","limit":1}`), call.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return out, eng.files
	}
	first, read := search("topic1")
	if len(read) != 30 {
		t.Fatalf("first search read %d notes, want 30", len(read))
	}
	idx := filepath.Join(dir, ".kessho", "index", "search.idx")
	stored, err := os.ReadFile(idx)
	if err != nil {
		t.Fatalf("no index stored: %v", err)
	}
	again, read := search("topic1")
	if !slices.Equal(read, hits(t, again)) || string(again.Answer) != string(first.Answer) {
		t.Fatalf("up-to-date index: read %v for hits %v", read, hits(t, again))
	}
	p := filepath.Join(dir, "20-knowledge", "n05.md")
	if err := os.WriteFile(p, []byte("note 5 now about topic1 topic1 topic1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	os.Chtimes(p, later, later)
	out, read := search("topic1")
	if h := hits(t, out); !slices.Equal(h, []string{"20-knowledge/n05.md"}) || !slices.Equal(read, []string{"20-knowledge/n05.md"}) {
		t.Fatalf("after one edit: hits %v, read %v (want only n05.md)", h, read)
	}
	_, other := newVault(t, map[string]string{"a.md": "topic1"})
	defer other.Close()
	for _, damaged := range [][]byte{stored[:len(stored)/2], append([]byte("x"), stored[1:]...)} {
		if err := os.WriteFile(idx, damaged, 0o644); err != nil {
			t.Fatal(err)
		}
		// another vault's search leaves the running core's warm index
		if _, err := call.Run(context.Background(), other, native, "mem_search", json.RawMessage(`{"query":"x"}`), call.Options{}); err != nil {
			t.Fatal(err)
		}
		out, read = search("topic1")
		if h := hits(t, out); !slices.Equal(h, []string{"20-knowledge/n05.md"}) || len(read) != 30 {
			t.Errorf("damaged index: hits %v, read %d notes", h, len(read))
		}
	}
	entries, _ := os.ReadDir(filepath.Join(dir, ".kessho", "index"))
	if len(entries) != 2 {
		t.Errorf(".kessho/index holds %d entries, want the index and its id", len(entries))
	}
}

// TestSearchAfterArchiveReadsOnlyItsFiles: after one mem_archive, the next
// search on the Go host reads the notes the archive wrote (its new
// archive, the context, the history, its atom) and the hits it shows,
// nothing else of the vault.
func TestSearchAfterArchiveReadsOnlyItsFiles(t *testing.T) {
	files := map[string]string{
		"10-episodes/projects/alpha/context.md": "---\nslug: alpha\nkind: project\nphase: build\nsummary: The webhook service.\n---\n# Alpha\n\n## Decisions\n- Keep retries.\n\n## Next\n- Ship.\n",
		"10-episodes/projects/alpha/history.md": "# History — alpha\n",
	}
	for i := range 40 {
		files[fmt.Sprintf("20-knowledge/fact %02d.md", i)] = fmt.Sprintf("---\nsummary: fact %d\n---\nAbout topic%d.\n", i, i%4)
	}
	_, v := newVault(t, files)
	defer v.Close()
	native := engine.Native()
	search := func() (call.Outcome, []string) {
		eng := &fileCounting{inner: native}
		out, err := call.Run(context.Background(), v, eng, "mem_search", json.RawMessage(`{"query":"zeppelin","limit":2}`), call.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return out, eng.files
	}
	if _, read := search(); len(read) != 42 {
		t.Fatalf("first search read %d notes, want 42", len(read))
	}
	before, _, _ := v.SearchNotes(context.Background())
	time.Sleep(10 * time.Millisecond) // a new mtime for what the archive rewrites
	arch, err := call.Run(context.Background(), v, engine.Native(), "mem_archive", json.RawMessage(
		`{"slug":"alpha","mode":"full","archive_subject":"Zeppelin launch","archive_body_md":"The zeppelin flew.",`+
			`"derive":[{"fact":"zeppelins need helium","body":"b","kind":"knowledge"}]}`), call.Options{TZ: "Europe/Paris"})
	if err != nil || !arch.OK {
		t.Fatalf("mem_archive: %v %s", err, arch.Answer)
	}
	after, _, _ := v.SearchNotes(context.Background())
	var changed []string
	for p, ver := range after {
		if before[p] != ver {
			changed = append(changed, p)
		}
	}
	slices.Sort(changed)
	if len(changed) < 3 || len(changed) > 6 {
		t.Fatalf("the archive changed %v", changed)
	}
	out, read := search()
	found := hits(t, out)
	var others []string
	for _, p := range read {
		if !slices.Contains(changed, p) && !slices.Contains(found, p) {
			others = append(others, p)
		}
	}
	for _, p := range changed {
		if !slices.Contains(read, p) {
			others = append(others, "not read: "+p)
		}
	}
	if len(others) != 0 || len(found) == 0 {
		t.Fatalf("after mem_archive: read %v, hits %v, changed %v: %v", read, found, changed, others)
	}
}

// requestWatch is the native engine, recording the needs' "search" and
// how many requests carried the notes' versions.
type requestWatch struct {
	inner    engine.Engine
	searches []string
	versions int
}

func (w *requestWatch) Call(ctx context.Context, req []byte) ([]byte, error) {
	if text, _, _ := bytes.Cut(req, []byte{0}); bytes.Contains(text, []byte(`"notes":{`)) {
		w.versions++
	}
	out, err := w.inner.Call(ctx, req)
	var ans core.Answer
	if text, _, _ := bytes.Cut(out, []byte{0}); err == nil && json.Unmarshal(text, &ans) == nil && ans.Need != nil && ans.Need.Search != "" {
		w.searches = append(w.searches, ans.Need.Search)
	}
	return out, err
}

// TestSearchUnchangedListingSendsNoVersions: a core that holds no index
// of the vault (a new process; here, another vault searched in between)
// whose host's listing is the one the stored index was built from asks
// for the stored index alone, and the host sends no version; after a
// hand edit the listing differs, the versions are sent and the edit is
// seen.
func TestSearchUnchangedListingSendsNoVersions(t *testing.T) {
	files := map[string]string{}
	for i := range 20 {
		files[fmt.Sprintf("20-knowledge/n%02d.md", i)] = fmt.Sprintf("note %d about topic%d\n", i, i%3)
	}
	dir, v := newVault(t, files)
	defer v.Close()
	_, other := newVault(t, map[string]string{"a.md": "topic1"})
	defer other.Close()
	native := engine.Native() // the running core: the other vault's search displaces its warm index
	search := func(q string) (call.Outcome, *requestWatch) {
		if _, err := call.Run(context.Background(), other, native, "mem_search", json.RawMessage(`{"query":"x"}`), call.Options{}); err != nil {
			t.Fatal(err)
		}
		w := &requestWatch{inner: native}
		out, err := call.Run(context.Background(), v, w, "mem_search", json.RawMessage(`{"query":"`+q+`","limit":3}`), call.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return out, w
	}
	first, _ := search("topic1")
	again, w := search("topic1")
	if string(again.Answer) != string(first.Answer) || !slices.Equal(w.searches, []string{"stored"}) || w.versions != 0 {
		t.Fatalf("unchanged listing: needs %v, %d requests with versions, same answer %v", w.searches, w.versions, string(again.Answer) == string(first.Answer))
	}
	p := filepath.Join(dir, "20-knowledge", "n07.md")
	if err := os.WriteFile(p, []byte("note 7 now about zeppelins\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	os.Chtimes(p, later, later)
	out, w := search("zeppelins")
	if h := hits(t, out); !slices.Equal(h, []string{"20-knowledge/n07.md"}) || !slices.Equal(w.searches, []string{"index"}) || w.versions != 1 {
		t.Fatalf("after a hand edit: hits %v, needs %v, %d requests with versions", h, w.searches, w.versions)
	}
}

// TestRecallKeepsIndex: mem_recall on the Go host stores the search index
// too, and the next recall lists no folder and reads, of the principles
// and goals, only the one that links to the project.
func TestRecallKeepsIndex(t *testing.T) {
	files := map[string]string{
		"10-episodes/projects/alpha/context.md": "---\nslug: alpha\nkind: project\n---\n# Alpha\n",
		"40-principles/Linked.md":               "Learned on [[alpha]].\n",
	}
	for i := range 30 {
		files[fmt.Sprintf("40-principles/p%02d.md", i)] = fmt.Sprintf("Principle %d, from [[beta]].\n", i)
	}
	dir, v := newVault(t, files)
	defer v.Close()
	native := engine.Native()
	recall := func() (call.Outcome, *treeCounting) {
		eng := &treeCounting{fileCounting: fileCounting{inner: native}}
		out, err := call.Run(context.Background(), v, eng, "mem_recall", json.RawMessage(`{"slug":"alpha"}`), call.Options{})
		if err != nil || !out.OK {
			t.Fatalf("mem_recall: %v %s", err, out.Answer)
		}
		return out, eng
	}
	first, _ := recall()
	if _, err := os.Stat(filepath.Join(dir, ".kessho", "index", "search.idx")); err != nil {
		t.Fatalf("no index stored: %v", err)
	}
	again, eng := recall()
	if string(again.Answer) != string(first.Answer) || len(eng.trees) != 0 || !slices.Contains(eng.files, "40-principles/Linked.md") {
		t.Fatalf("warm recall: same answer %v, trees %v, files %v", string(again.Answer) == string(first.Answer), eng.trees, eng.files)
	}
	for _, f := range eng.files {
		if strings.HasPrefix(f, "40-principles/p") {
			t.Errorf("warm recall read %s", f)
		}
	}
}

// treeCounting is fileCounting that also records the trees needs name.
type treeCounting struct {
	fileCounting
	trees []string
}

func (c *treeCounting) Call(ctx context.Context, req []byte) ([]byte, error) {
	out, err := c.fileCounting.Call(ctx, req)
	var ans core.Answer
	if text, _, _ := bytes.Cut(out, []byte{0}); err == nil && json.Unmarshal(text, &ans) == nil && ans.Need != nil {
		for _, tr := range ans.Need.Trees {
			c.trees = append(c.trees, tr.Root)
		}
	}
	return out, err
}

// TestKeptIndexStoresFewChanges: a host that keeps its engine between
// calls (Options.KeepIndex, a running MCP server) stores no index after a
// search that follows a write, until the changes it holds outgrow
// search.KeepBound; every search finds the archive just written; and a
// new process (a new core and Vault) that finds the stored index behind
// reads the notes changed since and finds them too.
func TestKeptIndexStoresFewChanges(t *testing.T) {
	files := map[string]string{
		"10-episodes/projects/alpha/context.md": "---\nslug: alpha\nkind: project\nphase: build\nsummary: The webhook service.\n---\n# Alpha\n\n## Next\n- Ship.\n",
		"10-episodes/projects/alpha/history.md": "# History — alpha\n",
	}
	for i := range 20 {
		files[fmt.Sprintf("20-knowledge/fact %02d.md", i)] = fmt.Sprintf("About topic%d.\n", i%4)
	}
	dir, v := newVault(t, files)
	native := engine.Native()
	at := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	kept := call.Options{KeepIndex: true, Now: at}
	search := func(v *vaultfs.Vault, eng call.Engine, q string) []string {
		out, err := call.Run(context.Background(), v, eng, "mem_search", json.RawMessage(`{"query":"`+q+`"}`), kept)
		if err != nil {
			t.Fatal(err)
		}
		return hits(t, out)
	}
	search(v, native, "topic1")
	if v.IndexID() == "" {
		t.Fatal("the first build stored no index")
	}
	unstored, stored := 0, false
	for i := 0; i < 30 && !stored; i++ {
		kept.Now = at.Add(time.Duration(i) * time.Hour)
		subject := fmt.Sprintf("Zeppelin%c launch", 'a'+i)
		arch, err := call.Run(context.Background(), v, native, "mem_archive", json.RawMessage(
			`{"slug":"alpha","mode":"full","archive_subject":"`+subject+`","archive_body_md":"It flew.","no_derived_because":"a test"}`), kept)
		if err != nil || !arch.OK {
			t.Fatalf("mem_archive %d: %v %s", i, err, arch.Answer)
		}
		id := v.IndexID()
		found := search(v, native, strings.Fields(subject)[0])
		if len(found) == 0 || !strings.Contains(found[0], "/archives/") {
			t.Fatalf("archive %d: search found %v", i, found)
		}
		if stored = v.IndexID() != id; !stored {
			unstored++
		}
	}
	if !stored || unstored < 3 {
		t.Fatalf("%d searches after a write stored nothing, then stored: %v (want a few kept, then one stored)", unstored, stored)
	}
	// The last archives were kept in the first core's memory alone.
	kept.Now = kept.Now.Add(time.Hour)
	arch, err := call.Run(context.Background(), v, native, "mem_archive", json.RawMessage(
		`{"slug":"alpha","mode":"full","archive_subject":"Dirigible test","archive_body_md":"It floated.","no_derived_because":"a test"}`), kept)
	if err != nil || !arch.OK {
		t.Fatalf("mem_archive: %v %s", err, arch.Answer)
	}
	id := v.IndexID()
	if found := search(v, native, "dirigible"); len(found) == 0 || v.IndexID() != id {
		t.Fatalf("kept search: %v, stored %v", found, v.IndexID() != id)
	}
	v.Close()
	v2, err := vaultfs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v2.Close()
	if found := search(v2, engine.Native(), "dirigible"); len(found) == 0 || !strings.Contains(found[0], "dirigible") {
		t.Fatalf("a new process: search found %v", found)
	}
}
