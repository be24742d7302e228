// Package enginetest holds an engine for tests of the hosts: it passes
// calls to a real engine, except those whose request names one of a few
// phases, which fail the way an engine fails at its deadline, runs away,
// or dies. Only tests import it.
package enginetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/kessho/kessho/host/engine"
)

// Faulty runs requests through Inner, except those naming a phase it
// knows: "timed-out" fails at once as an engine fails at its own
// deadline; "blocks" waits until the call's context ends, as a call that
// runs away does, calling Blocks (when set) once it waits; "crashes"
// fails as an engine that died.
type Faulty struct {
	Inner engine.Engine
	// Blocks is called when a "blocks" call starts waiting: a test with
	// a [Clock] moves it past the deadline there.
	Blocks func()
}

func (e Faulty) Call(ctx context.Context, req []byte) ([]byte, error) {
	switch {
	case bytes.Contains(req, []byte(`"phase":"timed-out"`)):
		return nil, fmt.Errorf("engine: call: %w", context.DeadlineExceeded)
	case bytes.Contains(req, []byte(`"phase":"blocks"`)):
		if e.Blocks != nil {
			e.Blocks()
		}
		<-ctx.Done()
		return nil, fmt.Errorf("engine: call: %w", ctx.Err())
	case bytes.Contains(req, []byte(`"phase":"crashes"`)):
		return nil, errors.New("engine: call: the core failed: wasm error: unreachable")
	}
	return e.Inner.Call(ctx, req)
}

func (e Faulty) Close(ctx context.Context) error { return e.Inner.Close(ctx) }

// Both returns the native engine and a wasm one, by name; the wasm engine
// is closed when the test ends.
func Both(t testing.TB) map[string]engine.Engine {
	t.Helper()
	ctx := context.Background()
	w, err := engine.NewWasm(ctx, engine.WasmOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(ctx) })
	return map[string]engine.Engine{"native": engine.Native(), "wasm": w}
}

// Clock is a call.Clock that moves only when told (Advance): a test's
// deadlines pass when it says, whatever the machine's speed.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*clockTimer
}

type clockTimer struct {
	at      time.Time
	f       func()
	stopped bool
}

// NewClock returns a Clock at now.
func NewClock(now time.Time) *Clock { return &Clock{now: now} }

func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *Clock) AfterFunc(d time.Duration, f func()) (stop func() bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &clockTimer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !t.stopped
		t.stopped = true
		return was
	}
}

// Advance moves the clock on by d, and runs (each in its own goroutine)
// the functions whose time has come.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.timers[:0]
	for _, t := range c.timers {
		switch {
		case t.stopped:
		case !c.now.Before(t.at):
			t.stopped = true
			go t.f()
		default:
			kept = append(kept, t)
		}
	}
	c.timers = kept
}
