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
	"testing"

	"github.com/kessho/kessho/host/engine"
)

// Faulty runs requests through Inner, except those naming a phase it
// knows: "timed-out" fails at once as an engine fails at its own
// deadline; "blocks" waits until the call's context ends, as a call that
// runs away does; "crashes" fails as an engine that died.
type Faulty struct{ Inner engine.Engine }

func (e Faulty) Call(ctx context.Context, req []byte) ([]byte, error) {
	switch {
	case bytes.Contains(req, []byte(`"phase":"timed-out"`)):
		return nil, fmt.Errorf("engine: call: %w", context.DeadlineExceeded)
	case bytes.Contains(req, []byte(`"phase":"blocks"`)):
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
