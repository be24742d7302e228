//go:build unix

package call_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/internal/conformance"
	"github.com/kessho/kessho/host/internal/enginetest"
	"github.com/kessho/kessho/host/vaultfs"
)

// newVault writes files (vault path: text) into a new folder and opens
// it, closed when the test ends.
func newVault(t *testing.T, files map[string]string) (string, *vaultfs.Vault) {
	t.Helper()
	dir := t.TempDir()
	for p, text := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v, err := vaultfs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return dir, v
}

// unchanged fails the test unless dir holds exactly files (Kessho's own
// .kessho/ aside).
func unchanged(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	got, err := conformance.ReadTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{}
	for p, text := range files {
		want[p] = []byte(text)
	}
	if !maps.EqualFunc(got, want, bytes.Equal) {
		t.Errorf("the vault changed: %q; want %q", got, want)
	}
}

// slowWalk is a vault whose reads begin only once ctx's deadline has
// passed, as a walk of a large vault does.
type slowWalk struct {
	*vaultfs.Vault
	wait func(ctx context.Context)
}

func (s slowWalk) AnswerContext(ctx context.Context, need vault.Need, snap *vault.Snapshot, maxBytes int64) error {
	s.wait(ctx)
	return s.Vault.AnswerContext(ctx, need, snap, maxBytes)
}

// stubEngine runs each round through inner after before has run, and
// records the deadline of each round's context.
type stubEngine struct {
	inner  call.Engine
	before func(ctx context.Context, round int, req []byte) ([]byte, error) // nil, nil: go on to inner
	mu     sync.Mutex
	rounds []time.Time // each round's deadline; zero when none
}

func (s *stubEngine) Call(ctx context.Context, req []byte) ([]byte, error) {
	s.mu.Lock()
	d, _ := ctx.Deadline()
	s.rounds = append(s.rounds, d)
	round := len(s.rounds)
	s.mu.Unlock()
	if s.before != nil {
		if raw, err := s.before(ctx, round, req); raw != nil || err != nil {
			return raw, err
		}
	}
	return s.inner.Call(ctx, req)
}

var deadlineVault = map[string]string{
	"10-episodes/projects/alpha/context.md": "---\nkind: project\nphase: build\n---\n# Alpha\n",
	"10-episodes/projects/alpha/history.md": "# History\n",
	"20-knowledge/Note.md":                  "A note.\n",
}

const (
	phaseArgs   = `{"slug":"alpha","phase":"review"}`
	archiveArgs = `{"slug":"alpha","mode":"full","archive_subject":"S","archive_body_md":"See [[Note]].\n","no_derived_because":"test"}`
)

var deadlineNow = time.Date(2026, 11, 30, 9, 15, 0, 0, time.UTC)

// answerOf decodes an answer's code ("" for ok).
func answerOf(t *testing.T, out call.Outcome) string {
	t.Helper()
	var ans struct {
		OK    bool
		Error struct{ Code string }
	}
	if err := json.Unmarshal(out.Answer, &ans); err != nil {
		t.Fatalf("answer %q: %v", out.Answer, err)
	}
	if ans.OK != out.OK {
		t.Fatalf("answer %s; Outcome.OK %v", out.Answer, out.OK)
	}
	if out.Error != nil && out.Error.Code != ans.Error.Code {
		t.Fatalf("answer %s; Outcome.Error %+v", out.Answer, out.Error)
	}
	return ans.Error.Code
}

// TestDeadlineSharedAcrossRounds: every round of a call gets the one
// deadline made when the call started (the default one included), not a
// new one each round.
func TestDeadlineSharedAcrossRounds(t *testing.T) {
	for name, eng := range enginetest.Both(t) {
		t.Run(name, func(t *testing.T) {
			_, v := newVault(t, deadlineVault)
			s := &stubEngine{inner: eng}
			start := time.Now()
			out, err := call.Run(context.Background(), v, s, "mem_archive", json.RawMessage(archiveArgs), call.Options{Now: deadlineNow})
			end := time.Now()
			if err != nil || !out.OK {
				t.Fatalf("answer %s, %v; want ok", out.Answer, err)
			}
			if len(s.rounds) < 2 {
				t.Fatalf("the call took %d rounds; the test needs 2 or more", len(s.rounds))
			}
			for i, d := range s.rounds {
				// Made while the call ran, however long it took to start.
				if d.IsZero() || d.Before(start.Add(call.DefaultTimeout)) || d.After(end.Add(call.DefaultTimeout)) {
					t.Errorf("round %d had deadline %v; want %v after a time between %v and %v", i+1, d, call.DefaultTimeout, start, end)
				}
				if !d.Equal(s.rounds[0]) {
					t.Errorf("round %d had deadline %v, round 1 %v: each round got its own", i+1, d, s.rounds[0])
				}
			}
		})
	}
}

// TestDeadlineSpansRounds: an engine that takes 60% of the deadline each
// round (and cannot be interrupted, like the native engine) makes the
// call fail on its second round, with LIMIT_EXCEEDED and nothing written,
// whether the deadline is the call's option or its context's. The first
// round ends once 60% of the time has gone, however much went before it;
// on a loaded machine the rest of it may go before the second round
// starts, and the call then stops before that round: never after it, as
// it would with a deadline for each round.
func TestDeadlineSpansRounds(t *testing.T) {
	const limit = time.Second
	for name, eng := range enginetest.Both(t) {
		for _, how := range []string{"option", "context"} {
			t.Run(name+"/"+how, func(t *testing.T) {
				dir, v := newVault(t, deadlineVault)
				s := &stubEngine{inner: eng, before: func(ctx context.Context, round int, req []byte) ([]byte, error) {
					if d, ok := ctx.Deadline(); ok && round == 1 {
						time.Sleep(time.Until(d) - limit*4/10)
					} else {
						time.Sleep(limit * 6 / 10)
					}
					return nil, nil
				}}
				ctx, opts := context.Background(), call.Options{Now: deadlineNow}
				if how == "option" {
					opts.Timeout = limit
				} else {
					c, cancel := context.WithTimeout(ctx, limit)
					defer cancel()
					ctx = c
				}
				out, err := call.Run(ctx, v, s, "mem_update_phase", json.RawMessage(phaseArgs), opts)
				if err != nil {
					t.Fatal(err)
				}
				if code := answerOf(t, out); code != string(fault.LimitExceeded) {
					t.Errorf("answer %s; want LIMIT_EXCEEDED", out.Answer)
				}
				if ms := fmt.Sprintf(`"timeout_ms":%d`, limit.Milliseconds()); how == "option" && !bytes.Contains(out.Answer, []byte(ms)) {
					t.Errorf("answer %s does not name the deadline", out.Answer)
				}
				if len(s.rounds) > 2 {
					t.Errorf("the engine ran %d rounds; want 2 at most", len(s.rounds))
				}
				unchanged(t, dir, deadlineVault)
			})
		}
	}
}

// TestDeadlineSameCode: however the overrun shows (the engine's deadline
// error, a trap after the deadline, a late answer, the round cap, the
// walk of the vault), the call answers the same LIMIT_EXCEEDED, byte for
// byte, on both engines; and a call given no time at all answers it too.
func TestDeadlineSameCode(t *testing.T) {
	const limit = 200 * time.Millisecond
	waitDeadline := func(ctx context.Context) {
		<-ctx.Done()
		for d, _ := ctx.Deadline(); time.Now().Before(d); {
			time.Sleep(time.Millisecond)
		}
	}
	type variant struct {
		name   string
		tool   string
		rounds int // MaxRounds; 0: the default
		before func(ctx context.Context, round int, req []byte) ([]byte, error)
		walk   bool // the walk of the vault sleeps past the deadline
	}
	variants := func(eng call.Engine) []variant {
		return []variant{
			{name: "engine deadline", tool: "mem_update_phase", before: func(ctx context.Context, round int, req []byte) ([]byte, error) {
				waitDeadline(ctx)
				return nil, nil // the real engine, given an ended context
			}},
			{name: "trap after the deadline", tool: "mem_update_phase", before: func(ctx context.Context, round int, req []byte) ([]byte, error) {
				waitDeadline(ctx)
				return nil, errors.New("engine: call: the core failed: wasm error: unreachable")
			}},
			{name: "bad answer after the deadline", tool: "mem_update_phase", before: func(ctx context.Context, round int, req []byte) ([]byte, error) {
				waitDeadline(ctx)
				return []byte("not json"), nil
			}},
			{name: "late answer", tool: "mem_update_phase", before: func(ctx context.Context, round int, req []byte) ([]byte, error) {
				waitDeadline(ctx)
				return eng.Call(context.Background(), req) // an engine that cannot be interrupted
			}},
			{name: "round cap", tool: "mem_update_phase", rounds: 1, before: func(ctx context.Context, round int, req []byte) ([]byte, error) {
				waitDeadline(ctx)
				return []byte(`{"need":{"files":["more.md"]}}`), nil
			}},
			{name: "walk", tool: "mem_archive", walk: true},
		}
	}
	var want []byte
	for name, eng := range enginetest.Both(t) {
		for _, vt := range variants(eng) {
			t.Run(name+"/"+vt.name, func(t *testing.T) {
				dir, v := newVault(t, deadlineVault)
				ctx, cancel := context.WithTimeout(context.Background(), limit)
				defer cancel()
				var disk call.Vault[*vaultfs.Lock] = v
				if vt.walk {
					disk = slowWalk{v, waitDeadline}
				}
				args := phaseArgs
				if vt.tool == "mem_archive" {
					args = archiveArgs
				}
				s := &stubEngine{inner: eng, before: vt.before}
				out, err := call.Run(ctx, disk, s, vt.tool, json.RawMessage(args), call.Options{Now: deadlineNow, MaxRounds: vt.rounds})
				if err != nil {
					t.Fatalf("Call: %v; want a LIMIT_EXCEEDED answer", err)
				}
				if code := answerOf(t, out); code != string(fault.LimitExceeded) {
					t.Fatalf("answer %s; want LIMIT_EXCEEDED", out.Answer)
				}
				// One message for every variant but the tool's name.
				got := bytes.ReplaceAll(out.Answer, []byte(vt.tool), []byte("TOOL"))
				if want == nil {
					want = got
				} else if !bytes.Equal(got, want) {
					t.Errorf("answer\n%s\nwant\n%s", got, want)
				}
				unchanged(t, dir, deadlineVault)
			})
		}
	}
}

// TestDeadlineNoTime: a call whose deadline has passed when it holds the
// lock runs no round of the engine, on either engine.
func TestDeadlineNoTime(t *testing.T) {
	for name, eng := range enginetest.Both(t) {
		t.Run(name, func(t *testing.T) {
			_, v := newVault(t, deadlineVault)
			s := &stubEngine{inner: eng}
			out, err := call.Run(context.Background(), v, s, "mem_update_phase", json.RawMessage(phaseArgs), call.Options{Now: deadlineNow, Timeout: time.Nanosecond})
			if err != nil {
				t.Fatal(err)
			}
			if code := answerOf(t, out); code != string(fault.LimitExceeded) {
				t.Errorf("answer %s; want LIMIT_EXCEEDED", out.Answer)
			}
			if len(s.rounds) != 0 {
				t.Errorf("the engine ran %d rounds", len(s.rounds))
			}
		})
	}
}
