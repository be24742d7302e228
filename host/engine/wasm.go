package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kessho/kessho/core/wire"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"
)

// Defaults for WasmOptions' zero fields.
const (
	// DefaultMemoryLimitPages is 384 MiB: the last call of a first
	// index build at 100,000 notes peaks at 281–291 MiB (a decoded 45 MB
	// index, a batch, the index handed back whole), so 256 MiB ran it out
	// of memory on every retry past some 76,000 notes
	// (BenchmarkFirstBuildCalls). The limit is a cap, not a reservation.
	DefaultMemoryLimitPages = 6144
	DefaultCallTimeout      = 10 * time.Second
	DefaultMaxRequest       = 64 << 20
	DefaultMaxAnswer        = 64 << 20
)

// WasmOptions configures NewWasm. The zero value means the defaults.
type WasmOptions struct {
	// CacheDir holds wazero's compilation cache, so that only the first run
	// compiles the module (5–7 s of CPU on a 2-CPU machine, its wall time
	// stretched by the load: docs/PERFORMANCE.md); later runs load it
	// (about a quarter of a second). "" means CacheDir(), or memory only
	// if that cannot be used; "-" means memory only.
	CacheDir string
	// MemoryLimitPages caps each instance's memory, in 64 KiB pages.
	// 0 means DefaultMemoryLimitPages. The module declares a minimum (74
	// pages today, growing with the core); NewWasm fails below it.
	MemoryLimitPages uint32
	// CallTimeout bounds each call. 0 means DefaultCallTimeout. It is the
	// engine's own bound on one run of the core; a tool call of several
	// rounds is bounded as a whole by its host (call.Options.Timeout),
	// through the context's deadline.
	CallTimeout time.Duration
	// MaxRequest and MaxAnswer bound the request and the answer, in bytes.
	// 0 means DefaultMaxRequest and DefaultMaxAnswer. A call over either
	// fails with an error wrapping ErrLimit.
	MaxRequest, MaxAnswer int
	// PoolSize is the most idle instances kept for reuse. 0 means
	// runtime.NumCPU(). More calls than that at once still run, each on an
	// instance of its own; the extra instances are dropped afterwards.
	PoolSize int
	// RecyclePages is the memory, in 64 KiB pages, past which an instance
	// is dropped after its call rather than kept for the next: a Go heap
	// in wasm never gives its pages back, so an instance that once held a
	// large call's garbage would meet the next large call near its limit
	// (MemoryLimitPages) and run out. The next call starts a fresh
	// instance (a few milliseconds, and its search index decoded again
	// from the host's copy). 0 means three quarters of MemoryLimitPages,
	// the heap the module's collector works to stay under (wasm/memory.go).
	RecyclePages uint32
	// Interrupt compiles the module with wazero's termination checks
	// (WithCloseOnContextDone), so that the deadline stops any call at its
	// next loop iteration. With wazero v1.12 they make every call 5 to 10
	// times slower. Without them the deadline is enforced in three layers
	// that cost nothing until used; see "Deadlines" on Wasm.
	Interrupt bool
}

// CallTimeout is the engine's bound on one run of the core
// (WasmOptions.CallTimeout, defaults applied).
func (w *Wasm) CallTimeout() time.Duration { return w.opts.CallTimeout }

func (o WasmOptions) withDefaults() WasmOptions {
	if o.MemoryLimitPages == 0 {
		o.MemoryLimitPages = DefaultMemoryLimitPages
	}
	if o.RecyclePages == 0 {
		o.RecyclePages = o.MemoryLimitPages / 4 * 3
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	if o.MaxRequest <= 0 {
		o.MaxRequest = DefaultMaxRequest
	}
	if o.MaxAnswer <= 0 {
		o.MaxAnswer = DefaultMaxAnswer
	}
	if o.PoolSize <= 0 {
		o.PoolSize = runtime.NumCPU()
	}
	return o
}

// CacheDir returns the default directory of the compilation cache:
// kessho/wazero under the user's cache directory (os.UserCacheDir). Each
// core module gets its own folder in it, and the folders of other modules
// are pruned to the two most recently used (see moduleCacheDir).
func CacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("engine: finding the cache directory: %w", err)
	}
	return filepath.Join(dir, "kessho", "wazero"), nil
}

// Wasm runs the core compiled to WebAssembly, sandboxed by wazero: no
// files, no environment, no arguments, no network, fixed clocks and
// randomness, bounded memory, bounded request and answer, and a deadline
// on every call.
//
// It compiles the module once and keeps a pool of started instances; each
// serves one call at a time, so calls from many goroutines run in parallel
// on different instances. An instance that fails in any way (a trap, the
// deadline, running out of memory, a malformed answer) is discarded, never
// reused: the Go runtime inside it may be in any state. The next call
// starts a fresh one (about 10 ms).
//
// # Deadlines
//
// A call ends at the earlier of its context's deadline and CallTimeout.
// With WasmOptions.Interrupt, wazero checks for it at every loop iteration
// of the module, at a large cost. Without it (the default):
//
//  1. Call returns at the deadline whatever the module is doing; the call
//     goes on in the background and its instance is discarded when it ends.
//     (This needs a free CPU: with GOMAXPROCS=1 the timer waits for layer 2.)
//  2. The module's clocks and its scheduler's yields fail once the deadline
//     has passed, which kills the call: the Go runtime inside reads the clock
//     at every garbage collection and every scheduling, so a call that keeps
//     allocating stops within a few collections.
//  3. Memory is capped, so a call that keeps growing traps.
//
// What no layer stops is a loop that neither allocates nor calls out: it
// keeps one OS thread, and holds up the host's garbage collector, until it
// ends. RATIONALE.md weighs that against the cost of Interrupt.
type Wasm struct {
	opts     WasmOptions
	rt       wazero.Runtime
	cache    wazero.CompilationCache
	compiled wazero.CompiledModule
	idle     []*instance // under mu; the one that served last, last

	base context.Context    // done once Close starts
	stop context.CancelFunc // ends base

	mu         sync.Mutex
	closed     bool
	calls      sync.WaitGroup // Calls that have not returned
	background int            // calls still running after their Call returned

	started   atomic.Int64  // instances started, for tests
	recycled  atomic.Int64  // instances dropped for their memory (RecyclePages)
	peakPages atomic.Uint32 // the largest memory after a round (PeakPages)
	// abandoned counts the calls Call returned without at their deadline,
	// left to end on their own (background counts those still running).
	abandoned atomic.Int64
}

// NewWasm compiles the core module (embedded, or built on demand: see
// module), or loads it from the compilation cache, and starts a first
// instance. It fails if the module cannot run
// under opts, e.g. with a memory limit below the module's minimum.
func NewWasm(ctx context.Context, opts WasmOptions) (*Wasm, error) {
	opts = opts.withDefaults()
	if opts.MemoryLimitPages > 65536 {
		return nil, fmt.Errorf("engine: a memory limit of %d pages is over the 65536 (4 GiB) WebAssembly allows", opts.MemoryLimitPages)
	}
	if opts.MaxRequest > 1<<31 || opts.MaxAnswer > 1<<31 {
		return nil, errors.New("engine: request and answer limits must be at most 2 GiB")
	}
	if _, err := module(); err != nil {
		return nil, err
	}
	w, err := newWasm(ctx, opts, opts.CacheDir)
	if err != nil && opts.CacheDir == "" {
		// The default cache is a convenience: without a usable one, compile
		// in memory rather than fail. (Other errors, such as a memory limit
		// below the module's minimum, come back at once the second time.)
		w, err = newWasm(ctx, opts, "-")
	}
	return w, err
}

func newWasm(ctx context.Context, opts WasmOptions, cacheDir string) (*Wasm, error) {
	var cache wazero.CompilationCache
	switch cacheDir {
	case "-":
		cache = wazero.NewCompilationCache()
	case "":
		dir, err := CacheDir()
		if err != nil {
			return nil, err
		}
		cacheDir = moduleCacheDir(dir)
		fallthrough
	default:
		c, err := wazero.NewCompilationCacheWithDir(cacheDir)
		if err != nil {
			return nil, fmt.Errorf("engine: opening the compilation cache: %w", err)
		}
		bufferCacheReads(c)
		cache = c
	}
	cfg := wazero.NewRuntimeConfig().
		WithCompilationCache(cache).
		WithMemoryLimitPages(opts.MemoryLimitPages).
		WithCloseOnContextDone(opts.Interrupt)
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	w := &Wasm{opts: opts, rt: rt, cache: cache}
	w.base, w.stop = context.WithCancel(context.Background())
	fail := func(err error) (*Wasm, error) {
		w.stop()
		_ = rt.Close(ctx)
		_ = cache.Close(ctx)
		return nil, err
	}
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		return fail(fmt.Errorf("engine: instantiating WASI: %w", err))
	}
	mod, _ := module() // NewWasm checked its error
	compiled, err := rt.CompileModule(ctx, mod)
	if err != nil {
		return fail(fmt.Errorf("engine: compiling the core with a memory limit of %d pages: %w", opts.MemoryLimitPages, err))
	}
	w.compiled = compiled
	exports := compiled.ExportedFunctions()
	for _, name := range exportsUsed {
		if _, ok := exports[name]; !ok {
			return fail(fmt.Errorf("engine: the core module does not export %s; build it with -buildmode=c-shared", name))
		}
	}
	in, err := w.instantiate(ctx)
	if err != nil {
		return fail(err)
	}
	w.idle = append(w.idle, in)
	return w, nil
}

// Call implements Engine.
func (w *Wasm) Call(ctx context.Context, request []byte) ([]byte, error) {
	var in *instance
	answer, err := w.call(ctx, &in, request)
	if in != nil {
		w.put(in)
	}
	return answer, err
}

// Pin implements host/call's Pinner: the calls run on one instance (the
// one that served last when one is idle) until release gives it back. An
// instance that fails is discarded as by Call, and the next call takes
// another.
func (w *Wasm) Pin() (func(context.Context, []byte) ([]byte, error), func()) {
	var in *instance
	return func(ctx context.Context, request []byte) ([]byte, error) { return w.call(ctx, &in, request) },
		func() {
			if in != nil {
				w.put(in)
			}
		}
}

// call runs request on *held, first taking an idle instance (or starting
// one) when it is nil. A healthy instance stays in *held; a failed one is
// discarded, *held nil.
func (w *Wasm) call(ctx context.Context, held **instance, request []byte) ([]byte, error) {
	if len(request) > w.opts.MaxRequest {
		return nil, fmt.Errorf("engine: call: the request is %d bytes, over the limit of %d: %w", len(request), w.opts.MaxRequest, ErrLimit)
	}
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil, fmt.Errorf("engine: call: %w", ErrClosed)
	}
	w.calls.Add(1)
	w.mu.Unlock()
	defer w.calls.Done()

	ctx, cancel := context.WithTimeout(ctx, w.opts.CallTimeout)
	defer cancel()
	defer context.AfterFunc(w.base, cancel)()
	if err := ctx.Err(); err != nil {
		return nil, w.callError(ctx, err, nil)
	}
	if *held == nil {
		in, err := w.get(ctx)
		if err != nil {
			return nil, w.callError(ctx, err, nil)
		}
		*held = in
	}
	in := *held
	*held = nil // until it answers
	if w.opts.Interrupt {
		// wazero stops the call at the deadline.
		answer, err := in.exchange(ctx, wire.EntryHandle, request, w.opts.MaxAnswer)
		return w.finish(ctx, in, held, answer, err)
	}
	return w.aside(ctx, in, held, request)
}

// aside runs request on in in a goroutine of its own and waits for it or
// for ctx's deadline, whichever comes first: nothing stops compiled code
// from the outside. A call left running past the deadline closes its
// instance when it ends.
func (w *Wasm) aside(ctx context.Context, in *instance, held **instance, request []byte) ([]byte, error) {
	type result struct {
		answer []byte
		err    error
	}
	const running, returned, abandoned = 0, 1, 2
	var state atomic.Int32
	done := make(chan result, 1)
	go func() {
		answer, err := in.exchange(ctx, wire.EntryHandle, request, w.opts.MaxAnswer)
		if state.CompareAndSwap(running, returned) {
			done <- result{answer, err}
			return
		}
		// call has returned without it.
		in.close()
		w.backgroundDone()
	}()
	select {
	case r := <-done:
		return w.finish(ctx, in, held, r.answer, r.err)
	case <-ctx.Done():
		w.mu.Lock()
		w.background++
		w.mu.Unlock()
		if state.CompareAndSwap(running, abandoned) {
			w.abandoned.Add(1)
			// Returning cancels ctx, which arms the guard: the call stops at
			// its next clock or scheduler call, if it ever makes one.
			return nil, w.callError(ctx, ctx.Err(), nil)
		}
		w.backgroundDone()
		r := <-done
		return w.finish(ctx, in, held, r.answer, r.err)
	}
}

// backgroundDone counts off a call that went on after Call returned, and
// releases the runtime if it was the last thing Close waited for.
func (w *Wasm) backgroundDone() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.background--
	if w.closed && w.background == 0 {
		_ = w.release(context.Background())
	}
}

// finish keeps a healthy instance in *held, or discards a failed one and
// explains the failure.
func (w *Wasm) finish(ctx context.Context, in *instance, held **instance, answer []byte, err error) ([]byte, error) {
	if err != nil {
		err = w.callError(ctx, err, in)
		in.close()
		return nil, err
	}
	*held = in
	w.peak(in.mem.Size() / 65536)
	return answer, nil
}

// peak records pages, an instance's memory after a round, in peakPages.
func (w *Wasm) peak(pages uint32) {
	for {
		old := w.peakPages.Load()
		if pages <= old || w.peakPages.CompareAndSwap(old, pages) {
			return
		}
	}
}

// PeakPages is the largest memory, in 64 KiB pages, an instance held
// after any round that answered (a round cut at its deadline, or that
// ran out, is not counted). For tests and benchmarks.
func (w *Wasm) PeakPages() uint32 { return w.peakPages.Load() }

// callError explains why a call failed: the context ended, the engine was
// closed, a limit was hit, or the module died (with what its Go runtime
// wrote to stderr).
func (w *Wasm) callError(ctx context.Context, err error, in *instance) error {
	var stderr string
	if in != nil {
		stderr = strings.TrimSpace(in.stderr.String())
	}
	var exit *sys.ExitError
	errors.As(err, &exit)
	switch {
	case w.base.Err() != nil:
		return fmt.Errorf("engine: call: %w", ErrClosed)
	case ctx.Err() != nil:
		if errors.Is(err, ctx.Err()) {
			return fmt.Errorf("engine: call: %w", err)
		}
		return fmt.Errorf("engine: call: %w (%s)", ctx.Err(), firstLine(err.Error()))
	case exit != nil && exit.ExitCode() == sys.ExitCodeDeadlineExceeded:
		// The guard saw the deadline before the host's timer fired.
		return fmt.Errorf("engine: call: %w", context.DeadlineExceeded)
	case errors.Is(err, ErrLimit):
		return fmt.Errorf("engine: call: %w", err)
	case strings.Contains(stderr, "out of memory"):
		return fmt.Errorf("engine: call: the core ran out of memory (limit %d pages): %w", w.opts.MemoryLimitPages, ErrLimit)
	case stderr != "":
		return fmt.Errorf("engine: call: the core failed: %w\n%s", err, stderr)
	default:
		return fmt.Errorf("engine: call: the core failed: %w", err)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// get takes the idle instance that served last, or starts a new one.
func (w *Wasm) get(ctx context.Context) (*instance, error) {
	w.mu.Lock()
	if k := len(w.idle); k > 0 {
		in := w.idle[k-1]
		w.idle = w.idle[:k-1]
		w.mu.Unlock()
		return in, nil
	}
	w.mu.Unlock()
	return w.instantiate(ctx)
}

// put returns a healthy instance to the pool, or drops it when the pool is
// full (the coldest goes), the engine closed, or its memory grew past
// RecyclePages (counted in recycled).
func (w *Wasm) put(in *instance) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		in.close()
		return
	}
	if in.mem.Size()/65536 > w.opts.RecyclePages {
		w.recycled.Add(1)
		in.close()
		return
	}
	if len(w.idle) == w.opts.PoolSize {
		w.idle[0].close()
		w.idle = slices.Delete(w.idle, 0, 1)
	}
	w.idle = append(w.idle, in)
}

// Close implements Engine. It ends the calls in flight, waits for them to
// return, and releases the instances and the runtime. The disk cache stays.
//
// A call that could not be stopped (see "Deadlines") keeps its instance
// and the runtime until it ends; Close does not wait for it.
func (w *Wasm) Close(ctx context.Context) error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	w.mu.Unlock()
	w.stop()
	w.calls.Wait()
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, in := range w.idle {
		in.close()
	}
	w.idle = nil
	if w.background > 0 {
		return nil // the last one releases the runtime
	}
	return w.release(ctx)
}

// release closes the runtime and the cache.
func (w *Wasm) release(ctx context.Context) error {
	err := w.rt.Close(ctx)
	if cerr := w.cache.Close(ctx); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("engine: closing: %w", err)
	}
	return nil
}

// Recycled is how many instances were dropped for their memory
// (WasmOptions.RecyclePages). For tests and benchmarks.
func (w *Wasm) Recycled() int64 { return w.recycled.Load() }

// MemoryPages reports the memory, in 64 KiB pages, of an idle instance
// (started if none is idle). For tests and benchmarks.
func (w *Wasm) MemoryPages(ctx context.Context) (uint32, error) {
	in, err := w.get(ctx)
	if err != nil {
		return 0, err
	}
	pages := in.mem.Size() / 65536
	w.put(in)
	return pages, nil
}
