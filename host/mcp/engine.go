package mcp

import (
	"context"
	"errors"
	"fmt"

	"github.com/kessho/kessho/host/call"
)

// Engine runs core.Core.Handle and holds resources until closed, as the
// engines of github.com/kessho/kessho/host/engine do.
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
	done    chan struct{}
	cancel  context.CancelFunc
	eng     Engine
	err     error
	interim Engine
	absent  error // why the engine cannot start in this binary (see Unavailable)
}

// Unavailable is an error an [Interim] start returns when its engine
// cannot start in this binary at all, rather than failed this time: a
// `go install`ed kessho holds no sandbox. The Pending then keeps its
// interim engine for good, and [Pending.Absent] returns Err.
type Unavailable struct{ Err error }

func (u Unavailable) Error() string { return u.Err.Error() }
func (u Unavailable) Unwrap() error { return u.Err }

// Background calls open in a new goroutine and returns at once.
func Background(open func(context.Context) (Engine, error)) *Pending {
	return start(open, nil)
}

// Interim is [Background] with an engine that serves the calls a server
// gets until open's has started: `kessho mcp` compiles its sandbox (the
// wasm engine) in the background and answers natively meanwhile, the
// same core with byte-identical answers, so that a first call on a cold
// cache does not wait for the compilation (a minute or more on a busy
// machine). Each call runs on the engine that was ready when it began,
// all its rounds through. A start that fails is not bridged: calls made
// after it are refused with its error, as [Background]'s are, unless
// the error is an [Unavailable], after which interim serves every call.
// Close closes interim too.
func Interim(open func(context.Context) (Engine, error), interim Engine) *Pending {
	return start(open, interim)
}

// Without is a Pending whose engine cannot start in this binary, for
// the reason why (the engine package's ErrNoSandbox): interim serves every
// call, and [Pending.Absent] returns why from the start.
func Without(interim Engine, why error) *Pending {
	p := &Pending{done: make(chan struct{}), cancel: func() {}, eng: interim, interim: interim, absent: why}
	close(p.done)
	return p
}

func start(open func(context.Context) (Engine, error), interim Engine) *Pending {
	ctx, cancel := context.WithCancel(context.Background())
	p := &Pending{done: make(chan struct{}), cancel: cancel, interim: interim}
	go func() {
		defer close(p.done)
		p.eng, p.err = open(ctx)
		var u Unavailable
		if p.err != nil && interim != nil && errors.As(p.err, &u) {
			p.eng, p.err, p.absent = interim, nil, u.Err
		}
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

// Absent returns why the engine cannot start in this binary, once its
// start has ended with an [Unavailable] and interim serves in its place;
// nil otherwise.
func (p *Pending) Absent() error {
	if !p.Started() {
		return nil
	}
	return p.absent
}

// Now returns the engine a call beginning now runs on: the interim
// engine (interim true) while the start goes on, if p has one, else p
// itself, whose Call waits for the start.
func (p *Pending) Now() (eng Engine, interim bool) {
	if p.interim != nil && !p.Started() {
		return p.interim, true
	}
	return p, false
}

// Call runs request on the engine, waiting for it to start (see Wait);
// while it starts, a Pending made by [Interim] runs it on the interim
// engine instead.
func (p *Pending) Call(ctx context.Context, request []byte) ([]byte, error) {
	if eng, interim := p.Now(); interim {
		return eng.Call(ctx, request)
	}
	if err := p.Wait(ctx); err != nil {
		return nil, err
	}
	return p.eng.Call(ctx, request)
}

// Pin implements call.Pinner: the engine's own Pin (the interim one's while
// the start goes on), or, before the engine has started, Call.
func (p *Pending) Pin() (func(context.Context, []byte) ([]byte, error), func()) {
	if eng, interim := p.Now(); interim {
		return call.Pin(eng)
	}
	if !p.Started() || p.err != nil {
		return p.Call, func() {} // it waits, or answers the start's failure
	}
	return call.Pin(p.eng) // the engine, or the interim one standing in for it (Without)
}

// Close closes the engine and the interim one. A start still running is
// told to stop (its context is cancelled) but not waited for: a wasm
// compilation does not stop when asked, and a server whose client leaves
// during one must exit at once, not when it ends. The engine it starts
// is closed as soon as it has.
func (p *Pending) Close(ctx context.Context) error {
	var err error
	if p.interim != nil {
		err = p.interim.Close(ctx)
	}
	select {
	case <-p.done:
	default:
		p.cancel()
		go func() {
			<-p.done
			if p.err == nil {
				_ = p.eng.Close(context.Background())
			}
		}()
		return err
	}
	defer p.cancel()
	if p.err != nil || p.absent != nil { // p.eng may then be a typed nil, or interim
		return err
	}
	if cerr := p.eng.Close(ctx); cerr != nil {
		err = cerr
	}
	return err
}
