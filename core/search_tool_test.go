package core

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
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
		if search.IsNote(p) || strings.HasPrefix(p, ".") { // a careless host lists dot-folders too
			out[p] = fmt.Sprintf("%x", sha256.Sum256([]byte(t)))[:12]
		}
	}
	return out
}

// indexHost is a host that keeps the index (nil: a host that does not).
type indexHost struct {
	index []byte
	id    string
	sent  bool // whether the last search sent the index's bytes
}

func listingOf(notes map[string]string) string {
	keys := slices.Sorted(maps.Keys(notes))
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s\x00%s\n", k, notes[k])
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// searchRun runs mem_search for host h (nil: no Carry), returning the
// files it asked for and its result; h stores the index answered.
func (m memVault) searchRun(t *testing.T, h *indexHost, args string) (read []string, result string) {
	t.Helper()
	req := Request{Tool: "mem_search", Args: json.RawMessage(args), Now: "2026-11-30T10:15:00+01:00", Lang: "en"}
	if h != nil {
		h.sent = false
		req.Search = &search.Carry{Listing: listingOf(m.versions()), ID: h.id}
	}
	for range 8 {
		b, _ := json.Marshal(req)
		if req.Search != nil {
			b = search.Join(b, req.Search.Index)
		}
		text, index := search.Split(Handle(b))
		var ans Answer
		if err := json.Unmarshal(text, &ans); err != nil {
			t.Fatal(err)
		}
		if ans.Search != nil {
			ans.Search.Index = index
		}
		if ans.Need == nil {
			if ans.OK == nil || !*ans.OK {
				t.Fatalf("refused: %+v", ans.Error)
			}
			if ans.Search != nil {
				if h == nil || ans.Search.ID != search.ID(ans.Search.Index) {
					t.Fatalf("index answered to host %v with id %q", h != nil, ans.Search.ID)
				}
				h.index, h.id = ans.Search.Index, ans.Search.ID
			}
			slices.Sort(read)
			return read, string(ans.Result)
		}
		if ans.Need.Search != "" {
			if h == nil || req.Search.Full {
				t.Fatalf("search index needed again, or from a host that sent no Carry")
			}
			req.Search.Full, req.Search.Notes = true, m.versions()
			if ans.Need.Search == "index" {
				req.Search.Index, h.sent = h.index, len(h.index) > 0
			}
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
	h := &indexHost{}
	read, first := m.searchRun(t, h, args)
	if len(read) != 41 || h.index == nil {
		t.Fatalf("first search read %d files (want the 41 notes) and stored an index: %v", len(read), h.index != nil)
	}
	stored := h.id
	read, again := m.searchRun(t, h, args)
	if extra := notHits(t, read, again); len(extra) != 0 || h.sent || h.id != stored || again != first {
		t.Fatalf("up to date, warm: read %v besides the hits, index sent %v, new index %v, same result %v", extra, h.sent, h.id != stored, again == first)
	}
	m.searchRun(t, nil, args) // the warm index is now another mode's: the next call decodes the stored one
	read, again = m.searchRun(t, h, args)
	if extra := notHits(t, read, again); len(extra) != 0 || !h.sent || again != first {
		t.Fatalf("up to date, cold: read %v besides the hits, index sent %v, same result %v", extra, h.sent, again == first)
	}
	m["20-knowledge/note 07.md"] = "---\nsubject: webhook retries again\n---\nChanged.\n"
	delete(m, "20-knowledge/note 00.md")
	read, changed := m.searchRun(t, h, args)
	if extra := notHits(t, read, changed); len(extra) > 1 || !slices.Contains(read, "20-knowledge/note 07.md") || h.sent {
		t.Fatalf("after one edit and one removal: read %v, index sent %v", read, h.sent)
	}
	if h.id == stored || changed == first {
		t.Fatalf("the edit changed neither the index nor the result")
	}
	_, fresh := m.searchRun(t, &indexHost{}, args)
	_, content := m.searchRun(t, nil, args)
	if changed != fresh || content != fresh {
		t.Errorf("incremental, fresh and no-carry results differ:\n%s\n%s\n%s", changed, fresh, content)
	}
}

func TestSearchCorruptIndexRebuilt(t *testing.T) {
	m := searchVault(12)
	args := `{"query":"budget"}`
	good := &indexHost{}
	_, want := m.searchRun(t, good, args)
	idx := good.index
	flipped := slices.Clone(idx)
	flipped[len(flipped)/2] ^= 0x10
	for name, bad := range map[string][]byte{"truncated": idx[:len(idx)-7], "flipped": flipped, "foreign": []byte(`{"not":"an index"}`)} {
		m.searchRun(t, nil, args) // leave the warm index
		h := &indexHost{index: bad, id: good.id}
		read, got := m.searchRun(t, h, args)
		if got != want || !h.sent || h.id != good.id || len(read) != 13 {
			t.Errorf("%s index: result same %v, rebuilt %v, read %d", name, got == want, h.id == good.id, len(read))
		}
	}
}

func TestSearchNeverReadsDotFolders(t *testing.T) {
	m := searchVault(4)
	m[".obsidian/webhook.md"] = "webhook"
	m["a/.trash/webhook.md"] = "webhook"
	for _, h := range []*indexHost{nil, {}} {
		read, res := m.searchRun(t, h, `{"query":"webhook"}`)
		for _, p := range append(read, hitPaths(t, res)...) {
			if p == ".obsidian/webhook.md" || p == "a/.trash/webhook.md" {
				t.Errorf("carry %v: read or found %s", h != nil, p)
			}
		}
	}
}
