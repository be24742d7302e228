//lint:file-ignore SA1019 logging is deprecated from protocol 2026-07-28 on, and still served: the interim engine is logged through it

package mcp_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/mcp"
)

// counted is an engine that counts the calls it runs.
type counted struct {
	mcp.Engine
	calls atomic.Int64
}

func (c *counted) Call(ctx context.Context, req []byte) ([]byte, error) {
	c.calls.Add(1)
	return c.Engine.Call(ctx, req)
}

// lockedBuffer is a bytes.Buffer safe for concurrent writes.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestInterimColdStart is the first call of a server whose sandbox starts
// on an empty compilation cache, as `kessho mcp` serves without
// --engine: the wasm engine compiles in the background (held back here
// until the test releases it, so that the calls before are surely made
// during the compilation), and the calls made meanwhile answer at once on
// the native engine, their progress and the server's log (once, on its
// Log and to the client at level notice) saying so. Once the sandbox has
// started, calls run on it, with the same answers, and the log says that
// too.
func TestInterimColdStart(t *testing.T) {
	dir := newVault(t, "alpha")
	cache := t.TempDir() // empty: the sandbox compiles
	release := make(chan struct{})
	var once sync.Once
	start := func() { once.Do(func() { close(release) }) }
	t.Cleanup(start)
	wasm := &counted{}
	native := &counted{Engine: engine.Native()}
	eng := mcp.Interim(func(ctx context.Context) (mcp.Engine, error) {
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		w, err := engine.NewWasm(ctx, engine.WasmOptions{CacheDir: cache})
		if err != nil {
			return nil, err
		}
		wasm.Engine = w
		return wasm, nil
	}, native)
	defer eng.Close(context.Background())
	var stderr lockedBuffer
	srv := mcp.NewServer(openVault(t, dir), eng, mcp.Options{Now: func() time.Time { return fixedNow }, Log: &stderr})
	progress := newProgressLog()
	logs := make(chan *sdk.LoggingMessageParams, 10)
	cs := connectWith(t, srv, &sdk.ClientOptions{ProgressNotificationHandler: progress.handle,
		LoggingMessageHandler: func(_ context.Context, req *sdk.LoggingMessageRequest) { logs <- req.Params }})

	// The first call, with a progress token and a log level.
	params := &sdk.CallToolParams{Name: "mem_update_phase", Arguments: map[string]any{"slug": "alpha", "phase": "cold"},
		Meta: sdk.Meta{sdk.MetaKeyLogLevel: "notice"}}
	params.SetProgressToken("first")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil {
		t.Fatal(err)
	}
	if a := decode(t, res); !a.OK {
		t.Fatalf("the first call, on a compiling sandbox: %+v; want it answered", a.Error)
	}
	if eng.Started() {
		t.Fatal("the sandbox started before the test released it")
	}
	if n, w := native.calls.Load(), wasm.calls.Load(); n == 0 || w != 0 {
		t.Fatalf("the first call made %d native and %d wasm calls; want it native only", n, w)
	}
	if notes := waitNotes(t, progress, 1); !strings.Contains(notes[0].Message, "native engine") {
		t.Errorf("the first call's first progress: %q; want it to say the call runs on the native engine", notes[0].Message)
	}
	select {
	case m := <-logs:
		if text := fmt.Sprint(m.Data); m.Level != "notice" || m.Logger != "kessho" || !strings.Contains(text, "native engine") {
			t.Errorf("log message %+v; want a notice from kessho that calls run on the native engine", m)
		}
	case <-time.After(hang):
		t.Fatal("no log message about the native engine")
	}

	// A second one, still compiling: native, and no second log line.
	_, before := call(t, cs, "mem_read_context", map[string]any{"slug": "alpha"})
	if got := strings.Count(stderr.String(), "\n"); got != 1 || !strings.Contains(stderr.String(), "native engine") {
		t.Errorf("the server's log: %q; want one line saying calls run on the native engine", stderr.String())
	}
	if w := wasm.calls.Load(); w != 0 {
		t.Fatalf("%d wasm calls before the sandbox started", w)
	}

	start()
	if err := eng.Wait(context.Background()); err != nil {
		t.Fatalf("the sandbox did not start: %v", err)
	}
	nativeCalls := native.calls.Load()
	_, after := call(t, cs, "mem_read_context", map[string]any{"slug": "alpha"})
	if w, n := wasm.calls.Load(), native.calls.Load(); w == 0 || n != nativeCalls {
		t.Errorf("a call after the sandbox started made %d wasm and %d more native calls; want it on wasm only", w, n-nativeCalls)
	}
	if !bytes.Equal(before.Result, after.Result) {
		t.Errorf("mem_read_context answered %s natively, %s on wasm; want the same", before.Result, after.Result)
	}
	if log := stderr.String(); strings.Count(log, "\n") != 2 || !strings.Contains(log, "ready") {
		t.Errorf("the server's log: %q; want a second line saying the sandbox is ready", log)
	}
}

// TestStdioColdStartNative starts `kessho mcp` without --engine on an
// empty compilation cache: its first call answers without waiting for
// the sandbox to compile, on the native engine (its progress says so),
// and the server's standard error says so once.
func TestStdioColdStartNative(t *testing.T) {
	dir := newVault(t, "alpha")
	progress := newProgressLog()
	cmd := kesshoCmd(t, dir, "--now", "2026-11-30T10:15:00+01:00")
	cmd.Env = append(cmd.Env, coldCache(t)...)
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"},
		&sdk.ClientOptions{ProgressNotificationHandler: progress.handle}).
		Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("starting kessho mcp: %v", err)
	}
	params := &sdk.CallToolParams{Name: "mem_update_phase", Arguments: map[string]any{"slug": "alpha", "phase": "cold"}}
	params.SetProgressToken("cold")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil {
		t.Fatal(err)
	}
	if a := decode(t, res); !a.OK || !strings.Contains(string(a.Result), `"previous_phase":"start"`) {
		t.Errorf("the first call: %+v %s; want it answered", a.Error, a.Result)
	}
	if notes := waitNotes(t, progress, 1); !strings.Contains(notes[0].Message, "native engine") {
		t.Errorf("the first call's first progress: %q; want it to say the call runs on the native engine", notes[0].Message)
	}
	if err := cs.Close(); err != nil { // waits for the server to end: its standard error is all copied
		t.Logf("kessho mcp: %v", err)
	}
	if got := stderr.String(); strings.Count(got, "native engine") != 1 {
		t.Errorf("standard error: %q; want it to say once that calls run on the native engine", got)
	}
}

// closeRecorder is an engine whose Close is reported on closed.
type closeRecorder struct {
	mcp.Engine
	closed chan struct{}
}

func (c closeRecorder) Close(context.Context) error {
	close(c.closed)
	return nil
}

// TestPendingCloseMidStart closes a Pending whose start ignores its
// context, as a wasm compilation does: Close returns without waiting for
// it (the test would hang here otherwise), closes the interim engine, and
// the engine the start gives is closed once it has.
func TestPendingCloseMidStart(t *testing.T) {
	release := make(chan struct{})
	started := closeRecorder{Engine: engine.Native(), closed: make(chan struct{})}
	interim := closeRecorder{Engine: engine.Native(), closed: make(chan struct{})}
	eng := mcp.Interim(func(context.Context) (mcp.Engine, error) {
		<-release
		return started, nil
	}, interim)
	if err := eng.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-interim.closed:
	default:
		t.Error("Close left the interim engine open")
	}
	select {
	case <-started.closed:
		t.Fatal("the engine was closed before its start ended")
	default:
	}
	close(release)
	<-started.closed // the engine, once started, is closed
}

// TestInterimUnavailable is a server whose sandbox cannot be had in this
// binary (a `go install`ed kessho with no go command: the start fails
// with an [mcp.Unavailable], or [mcp.Without] knows it from the start):
// every call answers on the native engine, and the server's log and the
// calling session are told once that there is no sandbox and how to get
// one, never that it is ready.
func TestInterimUnavailable(t *testing.T) {
	why := fmt.Errorf("%w (no go command)", engine.ErrNoSandbox)
	for name, start := range map[string]func(mcp.Engine) *mcp.Pending{
		"start fails": func(native mcp.Engine) *mcp.Pending {
			return mcp.Interim(func(context.Context) (mcp.Engine, error) { return nil, mcp.Unavailable{Err: why} }, native)
		},
		"known at once": func(native mcp.Engine) *mcp.Pending { return mcp.Without(native, why) },
	} {
		t.Run(name, func(t *testing.T) {
			native := &counted{Engine: engine.Native()}
			eng := start(native)
			defer eng.Close(context.Background())
			if err := eng.Wait(context.Background()); err != nil {
				t.Fatalf("Wait: %v; want the native engine serving", err)
			}
			if !errors.Is(eng.Absent(), engine.ErrNoSandbox) {
				t.Fatalf("Absent: %v; want why there is no sandbox", eng.Absent())
			}
			var stderr lockedBuffer
			srv := mcp.NewServer(openVault(t, newVault(t, "alpha")), eng, mcp.Options{Now: func() time.Time { return fixedNow }, Log: &stderr})
			logs := make(chan *sdk.LoggingMessageParams, 10)
			cs := connectWith(t, srv, &sdk.ClientOptions{
				LoggingMessageHandler: func(_ context.Context, req *sdk.LoggingMessageRequest) { logs <- req.Params }})
			for i := range 3 {
				params := &sdk.CallToolParams{Name: "mem_read_context", Arguments: map[string]any{"slug": "alpha"},
					Meta: sdk.Meta{sdk.MetaKeyLogLevel: "notice"}}
				res, err := cs.CallTool(context.Background(), params)
				if err != nil {
					t.Fatal(err)
				}
				if a := decode(t, res); !a.OK {
					t.Fatalf("call %d: %+v; want it answered natively", i, a.Error)
				}
			}
			if n := native.calls.Load(); n < 3 {
				t.Errorf("%d native calls for 3 tool calls", n)
			}
			if log := stderr.String(); strings.Count(log, "\n") != 1 || !strings.Contains(log, "no sandbox") || !strings.Contains(log, "make install") || strings.Contains(log, "ready") {
				t.Errorf("the server's log: %q; want one line saying there is no sandbox and how to get one", log)
			}
			select {
			case m := <-logs:
				if text := fmt.Sprint(m.Data); m.Level != "notice" || !strings.Contains(text, "no sandbox") {
					t.Errorf("log message %+v; want a notice that there is no sandbox", m)
				}
			case <-time.After(hang):
				t.Fatal("no log message saying there is no sandbox")
			}
			if len(logs) != 0 {
				t.Errorf("%d more log messages; want one", len(logs))
			}
		})
	}
}

// pinCounted is an engine (a call.Pinner) that counts its pins and the
// calls made through them.
type pinCounted struct {
	mcp.Engine
	pins, pinned, released atomic.Int64
}

func (p *pinCounted) Pin() (func(context.Context, []byte) ([]byte, error), func()) {
	p.pins.Add(1)
	return func(ctx context.Context, req []byte) ([]byte, error) {
			p.pinned.Add(1)
			return p.Engine.Call(ctx, req)
		}, func() {
			p.released.Add(1)
		}
}

// TestPendingPins: a Pending forwards Pin to the engine a call runs on
// (the interim one while the sandbox starts, the started one after), so
// that every round of a call runs on one core; before its start ends it
// pins nothing.
func TestPendingPins(t *testing.T) {
	ctx := context.Background()
	interim, started := &pinCounted{Engine: engine.Native()}, &pinCounted{Engine: engine.Native()}
	release := make(chan struct{})
	p := mcp.Interim(func(context.Context) (mcp.Engine, error) {
		<-release
		return started, nil
	}, interim)
	defer p.Close(ctx)
	req := []byte(`{"tool":"mem_list","args":{}}`)
	run := func() {
		c, done := p.Pin()
		defer done()
		if _, err := c(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	run()
	if interim.pins.Load() != 1 || interim.pinned.Load() != 1 || interim.released.Load() != 1 || started.pins.Load() != 0 {
		t.Fatalf("during the start: interim pins %d, calls %d, releases %d; started pins %d", interim.pins.Load(), interim.pinned.Load(), interim.released.Load(), started.pins.Load())
	}
	close(release)
	if err := p.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	run()
	if started.pins.Load() != 1 || started.pinned.Load() != 1 || started.released.Load() != 1 || interim.pins.Load() != 1 {
		t.Fatalf("once started: started pins %d, calls %d, releases %d; interim pins %d", started.pins.Load(), started.pinned.Load(), started.released.Load(), interim.pins.Load())
	}
}
