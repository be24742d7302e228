package mcp_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kessho/kessho/host/mcp"
)

// progressLog keeps the progress notifications a client receives.
type progressLog struct {
	mu    sync.Mutex
	notes []*sdk.ProgressNotificationParams
	seen  chan struct{} // one value per notification
}

func newProgressLog() *progressLog { return &progressLog{seen: make(chan struct{}, 100)} }

func (p *progressLog) handle(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
	p.mu.Lock()
	p.notes = append(p.notes, req.Params)
	p.mu.Unlock()
	p.seen <- struct{}{}
}

func (p *progressLog) all() []*sdk.ProgressNotificationParams {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*sdk.ProgressNotificationParams(nil), p.notes...)
}

// connectWith runs srv over the SDK's in-memory transports and returns a
// session of a client with opts on it, closed when the test ends.
func connectWith(t testing.TB, srv *sdk.Server, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, opts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// TestProgressColdStart checks that a call made while the engine is still
// starting, with a progress token, is told so at once, then told when the
// engine is ready, then once per round of the call, with its token and an
// increasing progress; and that a call without a token gets none.
func TestProgressColdStart(t *testing.T) {
	srv, cs, log, start := heldServer(t)
	done := callAside(cs, "warm", "tok-1")
	// The first notification comes while the engine is still starting.
	select {
	case <-log.seen:
	case <-time.After(hang):
		t.Fatal("no progress notification while the call waits for the engine")
	}
	if n := log.all(); len(n) != 1 || !strings.Contains(n[0].Message, "engine") {
		t.Fatalf("notifications while waiting = %+v; want one about the engine", n)
	}
	start()
	if err := <-done; err != nil {
		t.Fatalf("the call failed: %v", err)
	}
	notes := waitNotes(t, log, 3)
	var last float64
	for i, n := range notes {
		if n.ProgressToken != "tok-1" {
			t.Errorf("notification %d has token %v; want tok-1", i, n.ProgressToken)
		}
		if n.Progress <= last {
			t.Errorf("notification %d has progress %v after %v; want it increasing", i, n.Progress, last)
		}
		last = n.Progress
		if n.Message == "" {
			t.Errorf("notification %d has no message", i)
		}
	}
	if !strings.Contains(notes[1].Message, "ready") || !strings.Contains(notes[2].Message, "round 1") {
		t.Errorf("messages %q, %q; want the engine ready, then round 1", notes[1].Message, notes[2].Message)
	}

	// On a warm engine, a new session: no token, no notification; with
	// one, the rounds but no word of the engine.
	log2 := newProgressLog()
	cs2 := connectWith(t, srv, &sdk.ClientOptions{ProgressNotificationHandler: log2.handle})
	call(t, cs2, "mem_update_phase", map[string]any{"slug": "alpha", "phase": "again"})
	params := &sdk.CallToolParams{Name: "mem_update_phase", Arguments: map[string]any{"slug": "alpha", "phase": "third"}}
	params.SetProgressToken(7)
	if _, err := cs2.CallTool(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	for _, n := range waitNotes(t, log2, 1) {
		if n.ProgressToken != float64(7) {
			t.Errorf("a call without a token, or with token 7, got notification %+v", n)
		}
		if strings.Contains(n.Message, "engine") {
			t.Errorf("a warm engine's call got %q", n.Message)
		}
	}
}

// heldServer serves a vault holding project alpha on an engine (native)
// whose start waits until start is called (at the latest when the test
// ends, before its session closes), to a client whose progress
// notifications go to log.
func heldServer(t *testing.T) (srv *sdk.Server, cs *sdk.ClientSession, log *progressLog, start func()) {
	t.Helper()
	dir := newVault(t, "alpha")
	release := make(chan struct{})
	eng := mcp.Background(func(ctx context.Context) (mcp.Engine, error) {
		select {
		case <-release:
			return nativeCloser{}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	t.Cleanup(func() { eng.Close(context.Background()) })
	log = newProgressLog()
	srv = mcp.NewServer(openVault(t, dir), eng, mcp.Options{})
	cs = connectWith(t, srv, &sdk.ClientOptions{ProgressNotificationHandler: log.handle})
	var once sync.Once
	start = func() { once.Do(func() { close(release) }) }
	t.Cleanup(start)
	return srv, cs, log, start
}

// callAside sets alpha's phase to phase with progress token token in a
// goroutine, and gives the call's error (a refusal is one) on the channel.
func callAside(cs *sdk.ClientSession, phase string, token any) <-chan error {
	done := make(chan error, 1)
	go func() {
		params := &sdk.CallToolParams{Name: "mem_update_phase", Arguments: map[string]any{"slug": "alpha", "phase": phase}}
		params.SetProgressToken(token)
		res, err := cs.CallTool(context.Background(), params)
		if err == nil && res.IsError {
			err = errorText(res)
		}
		done <- err
	}()
	return done
}

// waitNotes waits until log holds at least n notifications and returns them.
func waitNotes(t testing.TB, log *progressLog, n int) []*sdk.ProgressNotificationParams {
	t.Helper()
	for {
		if notes := log.all(); len(notes) >= n {
			return notes
		}
		select {
		case <-log.seen:
		case <-time.After(hang):
			t.Fatalf("got %d progress notifications; want %d: %+v", len(log.all()), n, log.all())
		}
	}
}

// errorText is the text of a refused call, as an error.
func errorText(res *sdk.CallToolResult) error {
	return &textError{res.Content[0].(*sdk.TextContent).Text}
}

type textError struct{ s string }

func (e *textError) Error() string { return e.s }

// handTicker is a ticker the test ticks by hand: each tick is received by
// the call's progress before tick returns.
type handTicker struct {
	ticks   chan time.Time
	mu      sync.Mutex
	periods []time.Duration // one per ticker started
	stopped int
}

func newHandTicker(t *testing.T) *handTicker {
	h := &handTicker{ticks: make(chan time.Time)}
	t.Cleanup(mcp.SetTicker(func(d time.Duration) (<-chan time.Time, func()) {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.periods = append(h.periods, d)
		return h.ticks, func() {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.stopped++
		}
	}))
	return h
}

func (h *handTicker) started() (periods []time.Duration, stopped int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.periods), h.stopped
}

// TestProgressHeartbeat checks that a call with a progress token that
// takes long (here: it waits for an engine that starts when the test
// says) gets a "still running" notification at each tick of a ticker of
// at most 5 s, started for it and stopped before its result, after which
// a tick finds no one; and that a call without a token starts none.
func TestProgressHeartbeat(t *testing.T) {
	h := newHandTicker(t)
	_, cs, log, start := heldServer(t)
	done := callAside(cs, "slow", "hb")
	waitNotes(t, log, 1) // waiting for the engine
	if periods, _ := h.started(); len(periods) != 1 || periods[0] <= 0 || periods[0] > 5*time.Second || periods[0] != mcp.ProgressEvery {
		t.Fatalf("tickers started %v; want one of ProgressEvery, at most 5 s", periods)
	}
	const beats = 3
	for i := range beats {
		h.ticks <- time.Now()
		notes := waitNotes(t, log, 2+i)
		if last := notes[1+i]; !strings.Contains(last.Message, "mem_update_phase: still running") || last.ProgressToken != "hb" {
			t.Errorf("notification after tick %d: %+v; want mem_update_phase still running, token hb", i+1, last)
		}
	}
	start()
	if err := <-done; err != nil {
		t.Fatalf("the call failed: %v", err)
	}
	if _, stopped := h.started(); stopped != 1 {
		t.Errorf("the ticker was stopped %d times before the result; want once", stopped)
	}
	select {
	case h.ticks <- time.Now():
		t.Error("a tick after the result was received: the call's progress still runs")
	default:
	}
	notes := waitNotes(t, log, beats+3) // + the engine ready, round 1
	var last float64
	for i, n := range notes {
		if n.Progress <= last {
			t.Errorf("notification %d has progress %v after %v; want it increasing", i, n.Progress, last)
		}
		last = n.Progress
	}

	// No token: no ticker.
	call(t, cs, "mem_update_phase", map[string]any{"slug": "alpha", "phase": "quick"})
	if periods, _ := h.started(); len(periods) != 1 {
		t.Errorf("a call without a progress token started a ticker (%d in all)", len(periods))
	}
}
