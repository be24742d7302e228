package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kessho/kessho/core/wire"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/sys"
)

// stderrMax bounds what an instance may write to stderr (the Go runtime
// inside writes there when it dies); it goes into the call's error.
const stderrMax = 16 << 10

// exportsUsed are the functions of the module an instance calls: the
// reactor's start, then the module's two exports (wasm/main.go).
var exportsUsed = []string{"_initialize", "alloc", "call"}

// instance is one started module and what a call needs of it. One
// goroutine uses it at a time.
type instance struct {
	mod         api.Module
	mem         api.Memory
	alloc, call api.Function // the module's two exports (wasm/main.go)
	stderr      *boundedBuffer
	guard       *guard
	stack       [2]uint64
}

func (w *Wasm) instantiate(ctx context.Context) (*instance, error) {
	stderr := &boundedBuffer{max: stderrMax}
	g := newGuard()
	// No FS, no env, no args, stdout discarded: wazero's defaults. The
	// clocks are wazero's fake ones, wrapped by the guard.
	cfg := wazero.NewModuleConfig().
		WithName("").
		WithStartFunctions("_initialize").
		WithStderr(stderr).
		WithWalltime(g.walltime, sys.ClockResolution(time.Microsecond)).
		WithNanotime(g.nanotime, sys.ClockResolution(1)).
		WithNanosleep(g.nanosleep).
		WithOsyield(g.osyield)
	mod, err := w.rt.InstantiateModule(experimental.WithMemoryAllocator(ctx, allocator), w.compiled, cfg)
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("engine: starting the core: %w\n%s", err, msg)
		}
		return nil, fmt.Errorf("engine: starting the core: %w", err)
	}
	w.started.Add(1)
	in := &instance{
		mod:    mod,
		mem:    mod.Memory(),
		alloc:  mod.ExportedFunction("alloc"),
		call:   mod.ExportedFunction("call"),
		stderr: stderr,
		guard:  g,
	}
	if in.mem == nil {
		_ = mod.Close(ctx)
		return nil, errors.New("engine: starting the core: the module exports no memory")
	}
	return in, nil
}

func (in *instance) close() { _ = in.mod.Close(context.Background()) }

// exchange writes input into the instance after entry's tag (wasm/main.go),
// runs the module's call on it and copies the answer out: the module drops
// its input itself, and the answer at the next call. Any error leaves the
// instance unfit for reuse.
func (in *instance) exchange(ctx context.Context, entry wire.Entry, input []byte, maxAnswer int) ([]byte, error) {
	in.stderr.Reset()
	defer in.guard.arm(ctx)()
	s := in.stack[:]

	n := uint64(1 + len(input))
	s[0] = n
	if err := in.alloc.CallWithStack(ctx, s[:1]); err != nil {
		return nil, fmt.Errorf("alloc: %w", err)
	}
	reqPtr := uint32(s[0])
	if !in.mem.WriteByte(reqPtr, byte(entry)) || !in.mem.Write(reqPtr+1, input) {
		return nil, fmt.Errorf("alloc gave %d bytes at %#x, outside the module's %d bytes of memory", n, reqPtr, in.mem.Size())
	}

	s[0], s[1] = uint64(reqPtr), n
	if err := in.call.CallWithStack(ctx, s); err != nil {
		return nil, fmt.Errorf("call: %w", err)
	}
	ansPtr, ansLen := uint32(s[0]>>32), uint32(s[0])

	if ansPtr == 0 {
		return nil, errors.New("call returned no answer")
	}
	if uint64(ansPtr)+uint64(ansLen) > uint64(in.mem.Size()) {
		return nil, fmt.Errorf("call returned %d bytes at %#x, outside the module's %d bytes of memory", ansLen, ansPtr, in.mem.Size())
	}
	if int64(ansLen) > int64(maxAnswer) {
		// The instance is sound, but its memory grew to hold the answer and
		// never shrinks: discarding it gives the memory back.
		return nil, fmt.Errorf("the answer is %d bytes, over the limit of %d: %w", ansLen, maxAnswer, ErrLimit)
	}
	view, _ := in.mem.Read(ansPtr, ansLen)
	return bytes.Clone(view), nil
}

// A guard gives the module wazero's fake clocks (each reading 1 ms after
// the last, from a fixed epoch) and no-op sleep and yield, and makes each
// of them kill the call once the call's deadline has passed or its context
// ended. The Go runtime inside calls them at every garbage collection and
// every scheduling, so a runaway call that allocates is stopped even when
// nothing else can interrupt it.
type guard struct {
	deadline atomic.Int64                    // Unix ns; 0 between calls
	done     atomic.Pointer[<-chan struct{}] // the call's ctx.Done(); nil between calls
	wall     atomic.Int64                    // fake clocks, ns
	mono     atomic.Int64
}

// fakeEpoch is wazero's: midnight UTC, 2022-01-01.
const fakeEpoch = int64(1640995200) * int64(time.Second)

func newGuard() *guard {
	g := &guard{}
	g.wall.Store(fakeEpoch - int64(time.Millisecond))
	g.mono.Store(-int64(time.Millisecond))
	return g
}

// arm makes the guard watch ctx until the returned function is called.
// The guard reads ctx's Done channel itself at each check (a closed channel
// is seen at once, where a flag set by context.AfterFunc would wait for
// its goroutine to run).
func (g *guard) arm(ctx context.Context) (disarm func()) {
	if d, ok := ctx.Deadline(); ok {
		g.deadline.Store(d.UnixNano())
	}
	done := ctx.Done()
	g.done.Store(&done)
	return func() {
		g.done.Store(nil)
		g.deadline.Store(0)
	}
}

// check panics with an exit error, which wazero turns into the call's
// error, when the call must end. The deadline is compared with the clock
// rather than waited for: the host's timers may not run while the module
// holds the thread.
func (g *guard) check() {
	if done := g.done.Load(); done != nil {
		select {
		case <-*done:
			panic(sys.NewExitError(sys.ExitCodeContextCanceled))
		default:
		}
	}
	if d := g.deadline.Load(); d != 0 && time.Now().UnixNano() > d {
		panic(sys.NewExitError(sys.ExitCodeDeadlineExceeded))
	}
}

func (g *guard) walltime() (sec int64, nsec int32) {
	g.check()
	t := g.wall.Add(int64(time.Millisecond))
	return t / 1e9, int32(t % 1e9)
}

func (g *guard) nanotime() int64 {
	g.check()
	return g.mono.Add(int64(time.Millisecond))
}

func (g *guard) nanosleep(int64) { g.check() }

func (g *guard) osyield() { g.check() }

// boundedBuffer keeps the first max bytes written to it and drops the rest.
type boundedBuffer struct {
	mu        sync.Mutex
	buf       bytes.Buffer
	max       int
	truncated bool
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.max - b.buf.Len(); len(p) > room {
		b.buf.Write(p[:max(room, 0)])
		b.truncated = true
	} else {
		b.buf.Write(p)
	}
	return len(p), nil
}

func (b *boundedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.truncated {
		return b.buf.String() + "\n[stderr truncated]"
	}
	return b.buf.String()
}

func (b *boundedBuffer) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Reset()
	b.truncated = false
}
