// Package engine runs Kessho's core. It has one interface, Engine, and two
// implementations: Wasm runs the core compiled to WebAssembly in a wazero
// sandbox (the MCP server's default); Native calls core.Core.Handle in-process
// (the default of the CLI's one-shot commands, whose whole process is the
// engine's start-up). Both give byte-identical answers.
//
//	e, err := engine.NewWasm(ctx, engine.WasmOptions{})
//	if err != nil { … }
//	defer e.Close(ctx)
//	answer, err := e.Call(ctx, []byte(`{"tool":"mem_update_phase",…}`))
//
// An error from Call means the engine could not get an answer; a refusal by
// the core (a tool error, a need) is an answer, not an error.
package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/kessho/kessho/core"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/wire"
)

// Engine runs requests through the core: JSON in, JSON out (see core.Core.Handle).
// Call is safe for concurrent use.
type Engine interface {
	// Call returns the core's answer to request. It fails when the engine
	// cannot produce an answer: the context ends, a limit is exceeded
	// (the error wraps ErrLimit), the sandbox traps, or the engine is closed.
	Call(ctx context.Context, request []byte) ([]byte, error)
	// Close releases the engine. Calls made after it fail with ErrClosed.
	Close(ctx context.Context) error
}

// ErrLimit is wrapped by the errors of calls that exceed a bound: request or
// answer size, or the sandbox's memory. Hosts answer LIMIT_EXCEEDED.
//
// It is a LIMIT_EXCEEDED refusal, so hosts answer it as one (SPEC section 7).
var ErrLimit error = fault.New(fault.LimitExceeded, nil,
	"the call went over one of the engine's bounds (request, answer or memory size)",
	"l'appel a dépassé une des limites du moteur (taille de la requête, de la réponse ou de la mémoire)")

// ErrClosed is returned by calls on a closed engine.
var ErrClosed = errors.New("engine closed")

// Native returns an engine that calls core.Core.Handle in the host process. It
// has no sandbox and no limits: a call, once started, runs to its end.
//
// It keeps a core (core.New) for each call running at once, as the wasm
// engine keeps an instance: a core holds a warm search index and what a
// call's rounds hand on to the next, which another call's rounds must not
// replace half-way (host/call pins one core for a call's rounds: Pin). A
// call takes the core that served last, so calls one after another share
// one warm index.
func Native() Engine { return &native{} }

type native struct {
	mu     sync.Mutex
	idle   []*core.Core // last served last
	closed atomic.Bool
}

func (n *native) Call(ctx context.Context, request []byte) ([]byte, error) {
	c := n.take()
	defer n.put(c)
	return n.run(ctx, c, request)
}

// Pin implements host/call's Pinner: the calls run on one core until
// release.
func (n *native) Pin() (func(context.Context, []byte) ([]byte, error), func()) {
	call, _, release := n.PinDirect()
	return call, release
}

// PinDirect is Pin, with the pinned core also taking a request as a
// value and giving the answer as one beside its JSON (host/call's
// DirectPinner): in the host's process a request's JSON would be
// written only to be read back at once, and a need's too.
func (n *native) PinDirect() (call func(context.Context, []byte) ([]byte, error), direct func(context.Context, wire.Request) (wire.Answer, []byte, error), release func()) {
	c := n.take()
	call = func(ctx context.Context, request []byte) ([]byte, error) { return n.run(ctx, c, request) }
	direct = func(ctx context.Context, req wire.Request) (wire.Answer, []byte, error) {
		if err := n.usable(ctx); err != nil {
			return wire.Answer{}, nil, err
		}
		ans, raw := c.HandleRequest(req)
		return ans, raw, nil
	}
	return call, direct, func() { n.put(c) }
}

// usable is why the engine cannot take a call now: closed, or ctx ended.
func (n *native) usable(ctx context.Context) error {
	if n.closed.Load() {
		return fmt.Errorf("engine: call: %w", ErrClosed)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("engine: call: %w", err)
	}
	return nil
}

func (n *native) run(ctx context.Context, c *core.Core, request []byte) ([]byte, error) {
	if err := n.usable(ctx); err != nil {
		return nil, err
	}
	return c.Handle(request), nil
}

// take takes the core that served last, or a new one when all are busy.
func (n *native) take() *core.Core {
	n.mu.Lock()
	defer n.mu.Unlock()
	if k := len(n.idle); k > 0 {
		c := n.idle[k-1]
		n.idle = n.idle[:k-1]
		return c
	}
	return core.New()
}

// put gives a core back; at most maxIdle stay (each may hold a vault's
// index), the coldest dropped.
func (n *native) put(c *core.Core) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.idle) == maxIdle() {
		n.idle = slices.Delete(n.idle, 0, 1)
	}
	n.idle = append(n.idle, c)
}

// maxIdle is the most idle cores or instances an engine keeps: the
// wasm engine's default pool (WasmOptions.PoolSize).
func maxIdle() int { return runtime.NumCPU() }

func (n *native) Close(context.Context) error {
	n.closed.Store(true)
	return nil
}
