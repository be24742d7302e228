package mcp

import (
	"context"
	"fmt"
)

// Engine runs core.Handle and holds resources until closed, as the
// engines of kessho/host/engine do.
type Engine interface {
	Call(ctx context.Context, request []byte) ([]byte, error)
	Close(ctx context.Context) error
}

// Pending is an engine being started in the background: the wasm engine
// compiles its module first, which takes a while the first time (before
// the compilation cache holds it). A server given a Pending answers
// initialize and tools/list at once; the first tool call waits for the
// engine.
//
//	eng := mcp.Background(func(ctx context.Context) (mcp.Engine, error) {
//		return engine.NewWasm(ctx, engine.WasmOptions{})
//	})
//	defer eng.Close(ctx)
//
// A Pending is safe for concurrent use when the engine it starts is.
type Pending struct {
	done   chan struct{}
	cancel context.CancelFunc
	eng    Engine
	err    error
}

// Background calls open in a new goroutine and returns at once.
func Background(open func(context.Context) (Engine, error)) *Pending {
	ctx, cancel := context.WithCancel(context.Background())
	p := &Pending{done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(p.done)
		p.eng, p.err = open(ctx)
	}()
	return p
}

// Wait waits until the engine has started, or failed to (its error), or
// ctx is done.
//
// The server waits before it takes the vault's writer lock: a call that
// waited under the lock would hold up every other writer of the vault
// (another agent's server, the CLI) for as long as the compilation takes.
func (p *Pending) Wait(ctx context.Context) error {
	select {
	case <-p.done:
	case <-ctx.Done():
		return fmt.Errorf("waiting for the engine to start: %w", ctx.Err())
	}
	if p.err != nil {
		return fmt.Errorf("starting the engine: %w", p.err)
	}
	return nil
}

// Started reports whether the start has ended, the engine started or
// failed to: a Wait then returns at once.
func (p *Pending) Started() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Call waits for the engine (see Wait) and runs request on it.
func (p *Pending) Call(ctx context.Context, request []byte) ([]byte, error) {
	if err := p.Wait(ctx); err != nil {
		return nil, err
	}
	return p.eng.Call(ctx, request)
}

// Close stops a start still running, waits for it, and closes the engine.
func (p *Pending) Close(ctx context.Context) error {
	select {
	case <-p.done:
	default:
		p.cancel()
		<-p.done
	}
	defer p.cancel()
	if p.err != nil { // p.eng may then be a typed nil
		return nil
	}
	return p.eng.Close(ctx)
}
