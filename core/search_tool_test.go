package core

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/search"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/core/wire"
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

// sizedVersions is versions written "size:hash", as a host's "size:mtime":
// the core reads the size to bound its batches.
func (m memVault) sizedVersions() map[string]string {
	out := m.versions()
	for p, v := range out {
		out[p] = fmt.Sprintf("%d:%s", len(m[p]), v)
	}
	return out
}

// indexHost is a host that keeps the index (nil: a host that does not).
type indexHost struct {
	index []byte
	id    string
	sent  bool // whether the last search sent the index's bytes
	// batch is the Carry's Batch; with it the host sends sized versions.
	batch int64
	// cut, when not 0, ends the call (as a kill would) once that many
	// batches were stored.
	cut int
	// batches counts the batch needs of the last search, backs those that
	// handed the index back, backBytes the bytes they handed back;
	// storedRead is what the search had read when it handed the index
	// back last. maxText is the most note text one of its requests held,
	// maxSince the most it read between two hand-backs.
	batches, backs, backBytes int
	storedRead, cutStored     []string
	maxText, maxSince         int
	sinceBack                 int
	// stored counts the last search's rounds that asked for the stored
	// index alone; versions tells whether it sent the notes' versions.
	stored   int
	versions bool
	// vary, when set, changes Batch at every round (a host sizing
	// batches by time); hand sets Hand in every request; once sends the
	// versions with the round that answers the need alone, as hosts do.
	// progress is each batch need's Indexed and Left, and searches the
	// rounds that asked for the versions.
	vary, hand, once bool
	progress         [][2]int
	searches         int
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
	return m.toolRun(t, h, "mem_search", args, nil)
}

// toolRun is searchRun for any tool that speaks the index's protocol;
// trees, when not nil, gets the roots of the trees it asked for.
func (m memVault) toolRun(t *testing.T, h *indexHost, tool, args string, trees *[]string) (read []string, result string) {
	t.Helper()
	req := Request{Tool: tool, Args: json.RawMessage(args), Now: "2026-11-30T10:15:00+01:00", Lang: "en"}
	versions := m.versions
	if h != nil {
		if h.batch > 0 {
			versions = m.sizedVersions
		}
		h.sent, h.batches, h.maxText, h.stored, h.versions = false, 0, 0, 0, false
		h.backs, h.backBytes, h.storedRead, h.maxSince, h.sinceBack = 0, 0, nil, 0, 0
		h.progress, h.searches = nil, 0
		req.Search = &search.Carry{Listing: listingOf(versions()), ID: h.id, Batch: h.batch}
	}
	// A round that answers a batch need is not counted (docs/HOSTS.md,
	// section 6); the others are, up to 8.
	carried := false // the last request carried the versions
	for rounds, sent := 0, 0; rounds < 8; sent++ {
		if h != nil {
			if h.vary {
				req.Search.Batch = 300 + int64(sent%4)*500
			}
			req.Search.Hand = h.hand
			if h.once && carried {
				req.Search.Full, req.Search.Notes = false, nil
			}
			carried = req.Search.Full
			text := 0
			for _, f := range req.Files {
				if f.Text != nil {
					text += len(*f.Text)
				}
			}
			h.maxText = max(h.maxText, text)
			h.sinceBack += text
			h.maxSince = max(h.maxSince, h.sinceBack)
		}
		b, _ := json.Marshal(req)
		if req.Search != nil {
			b = wire.Join(b, req.Search.Index)
		}
		text, index := wire.Split(Handle(b))
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
		if ans.Need.Search == "batch" {
			if h == nil || ans.Search == nil {
				t.Fatalf("a batch need without its carry, or to a host that sent no Carry: %+v", ans.Search)
			}
			if len(ans.Search.Index) > 0 {
				if ans.Search.ID != search.ID(ans.Search.Index) {
					t.Fatalf("a batch need's index under id %q", ans.Search.ID)
				}
				h.index, h.id = ans.Search.Index, ans.Search.ID
				h.backs++
				h.backBytes += len(ans.Search.Index)
				h.storedRead = slices.Clone(read)
				h.sinceBack = 0
			} else if ans.Search.ID != h.id {
				t.Fatalf("a batch need that hands nothing back names index %q, not the stored %q", ans.Search.ID, h.id)
			}
			req.Search.ID = ans.Search.ID
			h.batches++
			h.progress = append(h.progress, [2]int{ans.Search.Indexed, ans.Search.Left})
			if h.batches == h.cut {
				h.cutStored = h.storedRead
				slices.Sort(read)
				return read, ""
			}
			req.Snapshot = vault.Snapshot{} // indexed: sent no more
			read = append(read, ans.Need.Files...)
			m.answer(*ans.Need, &req.Snapshot)
			continue
		}
		rounds++
		if ans.Search != nil {
			t.Fatalf("an index beside a need that is no batch: %+v", ans.Need)
		}
		switch ans.Need.Search {
		case "":
		case "stored":
			// The stored index alone: its id records the listing sent.
			if h == nil || req.Search.Full || len(req.Search.Index) > 0 {
				t.Fatalf("stored index needed again, or from a host that sent no Carry")
			}
			req.Search.Index, h.sent = h.index, len(h.index) > 0
			h.stored++
		default:
			if h == nil || req.Search.Full {
				t.Fatalf("search index needed again, or from a host that sent no Carry")
			}
			h.searches++
			req.Search.Full, req.Search.Notes, h.versions = true, versions(), true
			if ans.Need.Search == "index" {
				req.Search.Index, h.sent = h.index, len(h.index) > 0
			}
		}
		read = append(read, ans.Need.Files...)
		for _, tr := range ans.Need.Trees {
			if trees != nil {
				*trees = append(*trees, tr.Root)
			}
		}
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
	// The listing is the one the stored index was built from: the core
	// asks for the index alone, and the host sends no version.
	if h.stored != 1 || h.versions {
		t.Fatalf("up to date, cold: %d rounds asked for the stored index alone, versions sent %v", h.stored, h.versions)
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

// bigVault is n notes of about 300 bytes each, about webhooks.
func bigVault(n int) memVault {
	m := memVault{}
	for i := range n {
		topic := []string{"webhook retries", "budget review", "schema migration", "été à la plage"}[i%4]
		m[fmt.Sprintf("20-knowledge/n%03d.md", i)] = fmt.Sprintf("---\nsubject: %s %d\n---\n%s\n", topic, i, strings.Repeat(topic+" and more words. ", 8))
	}
	return m
}

// TestSearchBuildsInBatches checks that a first build reads the notes in
// batches bounded by the host's Batch (sizes from the versions), each
// request holding one batch of text, far more batches than the 8 rounds a
// call may take, and the same answer as a build in one round; and that
// the index is handed back at the cadence handBack keeps: the bytes
// handed back at most the text indexed plus the last index (after every
// batch they grew with the square of the vault), never more than four
// batches and one more read between two hand-backs.
func TestSearchBuildsInBatches(t *testing.T) {
	m := bigVault(60) // about 19 KB
	args := `{"query":"webhook retries","limit":5}`
	_, want := m.searchRun(t, &indexHost{}, args)
	h := &indexHost{batch: 1000}
	read, got := m.searchRun(t, h, args)
	if got != want {
		t.Fatalf("batched build answered\n%s\nnot\n%s", got, want)
	}
	// A request holds one batch (a note is about 330 bytes), and the last
	// one the hits' files (read for their lines) beside it.
	if h.batches < 15 || h.maxText > 1000+5*400 || len(notHits(t, read, got)) != 60-len(hitPaths(t, got)) {
		t.Fatalf("%d batches (want ≥ 15), a request held %d bytes of text (bound 1000 + 5 hits), read %d files", h.batches, h.maxText, len(read))
	}
	text := 0
	for _, t := range m {
		text += len(t)
	}
	if h.backs < 2 || h.backs >= h.batches || h.backBytes > text+len(h.index) || h.maxSince > 5*1000+5*400 {
		t.Fatalf("%d of %d batch needs handed back %d bytes (the vault holds %d, the index is %d), %d bytes read between two",
			h.backs, h.batches, h.backBytes, text, len(h.index), h.maxSince)
	}
	m.searchRun(t, nil, args) // leave the warm index: the next call decodes the stored one
	read, again := m.searchRun(t, h, args)
	if again != want || h.batches != 0 || len(notHits(t, read, again)) != 0 || !h.sent {
		t.Fatalf("after the build: same answer %v, %d batches, read %v besides the hits", again == want, h.batches, notHits(t, read, again))
	}
}

// TestSearchBatchesAsTheHostSizesThem checks that a build indexes the
// batch the host read whatever bound it read it by, the host changing
// Batch at every round (as the Go host sizes batches by their time): the
// same answer, no note read twice; that Hand hands the index back with
// every batch need; that each batch need says how far the build got
// (Indexed and Left, of the 60 notes, Left falling); and that a host
// that sends the versions once is asked for them once.
func TestSearchBatchesAsTheHostSizesThem(t *testing.T) {
	m := bigVault(60)
	args := `{"query":"webhook retries","limit":5}`
	_, want := m.searchRun(t, &indexHost{}, args)
	m.searchRun(t, nil, args) // no warm index of this mode
	h := &indexHost{batch: 1000, vary: true, hand: true, once: true}
	read, got := m.searchRun(t, h, args)
	if got != want {
		t.Fatalf("build answered\n%s\nnot\n%s", got, want)
	}
	seen := map[string]int{}
	for _, p := range notHits(t, read, got) {
		if seen[p]++; seen[p] > 1 {
			t.Errorf("%s read twice", p)
		}
	}
	if h.batches < 10 || h.backs != h.batches || h.searches != 1 {
		t.Fatalf("%d batches, %d handed back (want all), versions asked %d times (want 1)", h.batches, h.backs, h.searches)
	}
	for i, p := range h.progress {
		if p[0]+p[1] != 60 || p[1] <= 0 || i > 0 && p[1] >= h.progress[i-1][1] {
			t.Fatalf("batch need %d said indexed %d, left %d (after %v)", i, p[0], p[1], h.progress[:i])
		}
	}
	h.hand = false
	m.searchRun(t, nil, args)
	h.index, h.id = nil, ""
	m.searchRun(t, h, args)
	if h.backs >= h.batches {
		t.Fatalf("without Hand, %d of %d batch needs handed back", h.backs, h.batches)
	}
}

// TestSearchResumesAfterCut checks that a build cut after a few batches
// (the call killed, the instance lost) resumes from the index stored with
// the last batch need that handed it back: the next call reads only the
// notes it lacks.
func TestSearchResumesAfterCut(t *testing.T) {
	m := bigVault(60)
	args := `{"query":"budget review","limit":5}`
	_, want := m.searchRun(t, &indexHost{}, args)
	h := &indexHost{batch: 1000, cut: 4}
	first, cut := m.searchRun(t, h, args)
	if cut != "" {
		t.Fatalf("the build was not cut: it read %d files in %d batches", len(first), h.batches)
	}
	m.searchRun(t, nil, args) // the instance lost: its warm index is another mode's
	h.cut = 0
	rest, got := m.searchRun(t, h, args)
	if got != want {
		t.Fatalf("resumed build answered\n%s\nnot\n%s", got, want)
	}
	// The cut call read 4 batches, those the index it handed back last
	// holds stored: the next one reads every other note once, none of
	// those.
	stored := map[string]bool{}
	for _, p := range h.cutStored {
		stored[p] = true
	}
	hits := hitPaths(t, got)
	seen := map[string]bool{}
	for _, p := range first {
		seen[p] = true
	}
	for _, p := range rest {
		if stored[p] && !slices.Contains(hits, p) {
			t.Errorf("%s read again after the cut", p)
		}
		seen[p] = true
	}
	if len(first) < 10 || len(stored) < 5 || len(seen) != 60 {
		t.Errorf("the cut call read %d notes, stored %d, both calls %d of 60", len(first), len(stored), len(seen))
	}
}
