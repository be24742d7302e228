package call_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kessho/kessho/core"
	"github.com/kessho/kessho/core/wire"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
)

// batchVault is n notes of about 350 bytes, a few words shared by many.
func batchVault(n int) map[string]string {
	files := map[string]string{}
	for i := range n {
		topic := []string{"webhook retries", "budget review", "schema migration", "été à la plage"}[i%4]
		files[fmt.Sprintf("20-knowledge/n%03d.md", i)] = fmt.Sprintf("---\nsubject: %s %d\n---\n%s\n", topic, i, strings.Repeat(topic+" and other words. ", 9))
	}
	return files
}

// batchWatch is an engine that records, for each call, the note text
// its request holds, the files its need names and whether it is a batch;
// with cut set, it fails the call (as a kill or a lost instance would)
// once that many batches were answered.
type batchWatch struct {
	eng      call.Engine
	cut      int
	batches  int
	files    []string
	biggest  int // the most note text a request held
	requests int
	// stored is files as it was at the last batch need that handed the
	// index back: the notes the stored index holds.
	stored []string
}

var errCut = errors.New("cut")

func (w *batchWatch) Call(ctx context.Context, req []byte) ([]byte, error) {
	if w.cut > 0 && w.batches >= w.cut {
		return nil, errCut
	}
	w.requests++
	var r core.Request
	if text, _ := wire.Split(req); json.Unmarshal(text, &r) == nil {
		n := 0
		for _, f := range r.Files {
			if f.Text != nil {
				n += len(*f.Text)
			}
		}
		w.biggest = max(w.biggest, n)
	}
	out, err := w.eng.Call(ctx, req)
	text, index := wire.Split(out)
	var ans core.Answer
	if err == nil && json.Unmarshal(text, &ans) == nil && ans.Need != nil {
		if ans.Need.Search == "batch" {
			w.batches++
			if len(index) > 0 {
				w.stored = slices.Clone(w.files)
			}
		}
		w.files = append(w.files, ans.Need.Files...)
	}
	return out, err
}

func batchEngines(t *testing.T) map[string]func() call.Engine {
	return map[string]func() call.Engine{
		"native": func() call.Engine { return engine.Native() },
		"wasm": func() call.Engine {
			w, err := engine.NewWasm(context.Background(), engine.WasmOptions{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { w.Close(context.Background()) })
			return w
		},
	}
}

// TestSearchIndexInBatches: a first build on the Go host reads the notes
// in batches of Options.IndexBatch bytes of text (far more rounds than
// MaxRounds), each request holding one batch, the index stored after
// the first and every few from then on (core/tools.handBack); the answer
// is the one a build in one round gives, on both engines.
func TestSearchIndexInBatches(t *testing.T) {
	files := batchVault(200) // about 70 KB
	args := json.RawMessage(`{"query":"webhook retries","limit":5}`)
	_, whole := newVault(t, files)
	want, err := call.Run(context.Background(), whole, engine.Native(), "mem_search", args, call.Options{})
	if err != nil || !want.OK {
		t.Fatalf("%s %v", want.Answer, err)
	}
	for name, eng := range batchEngines(t) {
		t.Run(name, func(t *testing.T) {
			dir, v := newVault(t, files)
			w := &batchWatch{eng: eng()}
			out, err := call.Run(context.Background(), v, w, "mem_search", args, call.Options{IndexBatch: 4000})
			if err != nil || string(out.Answer) != string(want.Answer) {
				t.Fatalf("batched build answered\n%s\nnot\n%s (%v)", out.Answer, want.Answer, err)
			}
			// One batch of text, and the hits' files in the last request.
			if w.batches < 15 || w.biggest > 4000+5*400 {
				t.Errorf("%d batches (want ≥ 15), a request held %d bytes of note text", w.batches, w.biggest)
			}
			if _, err := os.Stat(filepath.Join(dir, ".kessho", "index", "search.idx")); err != nil {
				t.Errorf("no index stored: %v", err)
			}
		})
	}
}

// TestSearchResumesAfterCut: a build cut after a few batches (the engine
// fails: a kill, a deadline, a lost instance) leaves the index of those
// batches stored, and the next search, on a fresh engine, reads only the
// notes it lacks. A call without a deadline is cut after 5 batches (the
// core hands back as soon as the text indexed reaches the index's size);
// one with a deadline, which paces the build (search.Carry.Paced: the
// core waits for four batches too), after 8.
func TestSearchResumesAfterCut(t *testing.T) {
	files := batchVault(120)
	args := json.RawMessage(`{"query":"budget review","limit":3}`)
	_, whole := newVault(t, files)
	want, _ := call.Run(context.Background(), whole, engine.Native(), "mem_search", args, call.Options{})
	for name, eng := range batchEngines(t) {
		for _, timeout := range []time.Duration{-1, 0} {
			t.Run(fmt.Sprintf("%s/timeout=%v", name, timeout), func(t *testing.T) { resumeAfterCut(t, eng, files, args, timeout, want.Answer) })
		}
	}
}

// resumeAfterCut is TestSearchResumesAfterCut for one engine and timeout.
func resumeAfterCut(t *testing.T, eng func() call.Engine, files map[string]string, args json.RawMessage, timeout time.Duration, want []byte) {
	_, v := newVault(t, files)
	opts := call.Options{IndexBatch: 3000, Timeout: timeout}
	cut := &batchWatch{eng: eng(), cut: 5}
	if timeout >= 0 {
		cut.cut = 8
	}
	if _, err := call.Run(context.Background(), v, cut, "mem_search", args, opts); !errors.Is(err, errCut) {
		t.Fatalf("the call was not cut: %v", err)
	}
	// The first batches were read, those up to the last hand-back
	// stored; the call was cut before reading the next, the last
	// need's files.
	read, stored := map[string]bool{}, map[string]bool{}
	for _, p := range cut.files {
		read[p] = true
	}
	for _, p := range cut.stored {
		stored[p] = true
	}
	next := &batchWatch{eng: eng()}
	out, err := call.Run(context.Background(), v, next, "mem_search", args, opts)
	if err != nil || string(out.Answer) != string(want) {
		t.Fatalf("resumed build answered\n%s\nnot\n%s (%v)", out.Answer, want, err)
	}
	again := 0
	for _, p := range next.files {
		if stored[p] {
			again++
		}
		read[p] = true
	}
	// Read again of those stored: the hits alone.
	if len(read) != len(files) || again > 3 || len(cut.files) < 30 || len(cut.stored) < 20 {
		t.Errorf("cut call read %d notes, stored %d, the next %d (%d of the stored again), %d of %d in all",
			len(cut.files), len(cut.stored), len(next.files), again, len(read), len(files))
	}
}
