//go:build unix

package call_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/wire"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/internal/enginetest"
)

// TestBuildProgressSurvivesDeadline: a first build whose every round
// takes 1 s of a 10 s deadline (the clock moved by the test) answers
// LIMIT_EXCEEDED at the deadline saying how
// far the stored index got (details "indexed" and "left", the notes of
// the vault between them, in the message too), and the next call reads
// only the notes that index lacks; on both engines.
func TestBuildProgressSurvivesDeadline(t *testing.T) {
	files := batchVault(200)
	args := json.RawMessage(`{"query":"webhook retries","limit":5}`)
	for name, eng := range enginetest.Both(t) {
		t.Run(name, func(t *testing.T) {
			dir, v := newVault(t, files)
			clock := enginetest.NewClock(deadlineNow)
			s := &stubEngine{inner: eng, before: func(ctx context.Context, round int, req []byte) ([]byte, error) {
				clock.Advance(time.Second)
				return nil, nil
			}}
			opts := call.Options{Now: deadlineNow, IndexBatch: 4000, Timeout: 10 * time.Second, Clock: clock}
			out, err := call.Run(context.Background(), v, s, "mem_search", args, opts)
			if err != nil || out.Error == nil || out.Error.Code != string(fault.LimitExceeded) {
				t.Fatalf("answer %s (%v); want LIMIT_EXCEEDED", out.Answer, err)
			}
			var got struct {
				Error struct{ Details struct{ Indexed, Left int } }
			}
			if err := json.Unmarshal(out.Answer, &got); err != nil {
				t.Fatal(err)
			}
			indexed, left := got.Error.Details.Indexed, got.Error.Details.Left
			if indexed <= 0 || indexed+left != 200 || !strings.Contains(out.Error.Message, "of 200 notes") {
				t.Fatalf("details %v, message %q; want how far the stored index got", out.Error.Details, out.Error.Message)
			}
			if _, err := os.Stat(filepath.Join(dir, ".kessho", "index", "search.idx")); err != nil {
				t.Fatalf("no index stored: %v", err)
			}
			next := &batchWatch{eng: freshEngine(t, name)}
			if out, err := call.Run(context.Background(), v, next, "mem_search", args, call.Options{Now: deadlineNow, IndexBatch: 4000}); err != nil || !out.OK {
				t.Fatalf("next call: %s %v", out.Answer, err)
			}
			if read := len(next.files); read > left+5 {
				t.Errorf("the next call read %d notes; the stored index lacked %d (and 5 hits)", read, left)
			}
		})
	}
}

// freshEngine is a new engine of that name: no warm index from an
// earlier call.
func freshEngine(t *testing.T, name string) call.Engine {
	return batchEngines(t)[name]()
}

// lateBatch is an engine whose answers take no time, but the first batch
// need after the third that hands back an index comes after the deadline
// (the test's clock moved past it): id is that need's index id.
type lateBatch struct {
	inner call.Engine
	clock *enginetest.Clock
	n     int
	id    string
}

func (e *lateBatch) Call(ctx context.Context, req []byte) ([]byte, error) {
	out, err := e.inner.Call(ctx, req)
	text, index := wire.Split(out)
	var ans wire.Answer
	if err == nil && e.id == "" && len(index) > 0 && json.Unmarshal(text, &ans) == nil && ans.Need != nil && ans.Search != nil {
		if e.n++; e.n > 3 {
			e.id = ans.Search.ID
			e.clock.Advance(time.Minute)
		}
	}
	return out, err
}

// TestLateBatchIsStored: a batch need that comes after the deadline
// still has its index stored, and the call's LIMIT_EXCEEDED says how far
// that index got; on both engines.
func TestLateBatchIsStored(t *testing.T) {
	files := batchVault(200)
	args := json.RawMessage(`{"query":"webhook retries","limit":5}`)
	for name, eng := range enginetest.Both(t) {
		t.Run(name, func(t *testing.T) {
			dir, v := newVault(t, files)
			clock := enginetest.NewClock(deadlineNow)
			late := &lateBatch{inner: eng, clock: clock}
			opts := call.Options{Now: deadlineNow, IndexBatch: 4000, Timeout: 10 * time.Second, Clock: clock}
			out, err := call.Run(context.Background(), v, late, "mem_search", args, opts)
			if err != nil || out.Error == nil || out.Error.Code != string(fault.LimitExceeded) || late.id == "" {
				t.Fatalf("answer %s (%v, late need %q); want LIMIT_EXCEEDED", out.Answer, err, late.id)
			}
			id, err := os.ReadFile(filepath.Join(dir, ".kessho", "index", "search.id"))
			if err != nil || strings.TrimSpace(string(id)) != late.id {
				t.Fatalf("stored id %q (%v); want the late need's %q", id, err, late.id)
			}
			if !strings.Contains(out.Error.Message, "of 200 notes") {
				t.Errorf("message %q does not say how far the index got", out.Error.Message)
			}
		})
	}
}
