package core

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"kessho/core/search"
)

// searchVault is n notes, a few of them about webhooks.
func searchVault(n int) memVault {
	m := memVault{}
	for i := range n {
		topic := []string{"webhook retries", "budget review", "schema migration", "été à la plage"}[i%4]
		m[fmt.Sprintf("20-knowledge/note %02d.md", i)] = fmt.Sprintf("---\nsubject: %s %d\ndate: 2026-11-%02d\n---\nBody of note %d about %s.\n", topic, i, 1+i%28, i, topic)
	}
	m["10-episodes/projects/p/context.md"] = "---\nsummary: webhook project\n---\nContext.\n"
	m["10-episodes/projects/p/image.png"] = "\x89PNG not a note"
	return m
}

// versions is the Carry's Notes for m: a version per note, as a host
// derives one from size and mtime.
func (m memVault) versions() map[string]string {
	out := map[string]string{}
	for p, t := range m {
		if search.IsNote(p) {
			out[p] = fmt.Sprintf("%x", sha256.Sum256([]byte(t)))[:12]
		}
	}
	return out
}

// searchRun runs mem_search with carry (nil: none), returning the files
// it asked for, its result and the index its answer carried.
func (m memVault) searchRun(t *testing.T, carry *search.Carry, args string) (read []string, result string, index []byte) {
	t.Helper()
	req := Request{Tool: "mem_search", Args: json.RawMessage(args), Now: "2026-11-30T10:15:00+01:00", Lang: "en", Search: carry}
	for range 8 {
		b, _ := json.Marshal(req)
		var ans Answer
		if err := json.Unmarshal(Handle(b), &ans); err != nil {
			t.Fatal(err)
		}
		if ans.Need == nil {
			if ans.OK == nil || !*ans.OK {
				t.Fatalf("refused: %+v", ans.Error)
			}
			if ans.Search != nil {
				index = ans.Search.Index
			}
			slices.Sort(read)
			return read, string(ans.Result), index
		}
		read = append(read, ans.Need.Files...)
		m.answer(*ans.Need, &req.Snapshot)
	}
	t.Fatal("still needing after 8 rounds")
	return
}

func hitPaths(t *testing.T, result string) []string {
	var r struct{ Hits []struct{ Path string } }
	if err := json.Unmarshal([]byte(result), &r); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range r.Hits {
		out = append(out, h.Path)
	}
	return out
}

// notHits is read without the hits' files (read for their lines).
func notHits(t *testing.T, read []string, result string) []string {
	hits := hitPaths(t, result)
	out := []string{}
	for _, p := range read {
		if !slices.Contains(hits, p) {
			out = append(out, p)
		}
	}
	return out
}

func TestSearchCarryReadsOnlyWhatChanged(t *testing.T) {
	m := searchVault(40)
	args := `{"query":"webhook retries","limit":3}`
	read, first, idx := m.searchRun(t, &search.Carry{Notes: m.versions()}, args)
	if len(read) != 41 || idx == nil {
		t.Fatalf("first search read %d files (want the 41 notes) and carried index %v", len(read), idx != nil)
	}
	m.searchRun(t, nil, args) // the warm index is now another mode's: the next call decodes
	read, again, idx2 := m.searchRun(t, &search.Carry{Index: idx, Notes: m.versions()}, args)
	if extra := notHits(t, read, again); len(extra) != 0 || idx2 != nil || again != first {
		t.Fatalf("up to date: read %v besides the hits, new index %v, same result %v", extra, idx2 != nil, again == first)
	}
	m["20-knowledge/note 07.md"] = "---\nsubject: webhook retries again\n---\nChanged.\n"
	delete(m, "20-knowledge/note 00.md")
	read, changed, idx3 := m.searchRun(t, &search.Carry{Index: idx, Notes: m.versions()}, args)
	if extra := notHits(t, read, changed); !reflect.DeepEqual(extra, []string{}) && !reflect.DeepEqual(extra, []string{"20-knowledge/note 07.md"}) || !slices.Contains(read, "20-knowledge/note 07.md") {
		t.Fatalf("after one edit and one removal: read %v", read)
	}
	if idx3 == nil || changed == first {
		t.Fatalf("the edit changed neither the index nor the result")
	}
	_, fresh, _ := m.searchRun(t, &search.Carry{Notes: m.versions()}, args)
	_, content, _ := m.searchRun(t, nil, args)
	if changed != fresh || content != fresh {
		t.Errorf("incremental, fresh and no-carry results differ:\n%s\n%s\n%s", changed, fresh, content)
	}
}

func TestSearchCorruptIndexRebuilt(t *testing.T) {
	m := searchVault(12)
	args := `{"query":"budget"}`
	_, want, idx := m.searchRun(t, &search.Carry{Notes: m.versions()}, args)
	flipped := slices.Clone(idx)
	flipped[len(flipped)/2] ^= 0x10
	for name, bad := range map[string][]byte{"truncated": idx[:len(idx)-7], "flipped": flipped, "foreign": []byte(`{"not":"an index"}`)} {
		m.searchRun(t, nil, args) // leave the warm index
		read, got, rebuilt := m.searchRun(t, &search.Carry{Index: bad, Notes: m.versions()}, args)
		if got != want || rebuilt == nil || len(read) != 13 {
			t.Errorf("%s index: result same %v, rebuilt %v, read %d", name, got == want, rebuilt != nil, len(read))
		}
	}
}

func TestSearchNeverReadsDotFolders(t *testing.T) {
	m := searchVault(4)
	m[".obsidian/webhook.md"] = "webhook"
	m["a/.trash/webhook.md"] = "webhook"
	notes := m.versions()
	notes[".obsidian/webhook.md"] = "x" // a host that lists them anyway
	for _, carry := range []*search.Carry{nil, {Notes: notes}} {
		read, res, _ := m.searchRun(t, carry, `{"query":"webhook"}`)
		for _, p := range append(read, hitPaths(t, res)...) {
			if p == ".obsidian/webhook.md" || p == "a/.trash/webhook.md" {
				t.Errorf("carry %v: read or found %s", carry != nil, p)
			}
		}
	}
}
