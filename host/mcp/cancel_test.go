package mcp_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/mcp"
)

// tapped is a client transport that hands every response the server sends
// to seen, besides the client.
type tapped struct {
	sdk.Transport
	seen chan *jsonrpc.Response
}

func (t tapped) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	return tapConn{c, t.seen}, err
}

type tapConn struct {
	sdk.Connection
	seen chan *jsonrpc.Response
}

func (c tapConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if r, ok := m.(*jsonrpc.Response); ok {
		c.seen <- r
	}
	return m, err
}

// stalling is the native engine, but its second round (the one that
// answers the plan of mem_update_phase) waits until its call is
// cancelled, and entered says when it started waiting.
type stalling struct {
	rounds  atomic.Int32
	entered chan struct{}
}

func (s *stalling) Call(ctx context.Context, req []byte) ([]byte, error) {
	if s.rounds.Add(1) == 2 {
		close(s.entered)
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return engine.Native().Call(ctx, req)
}

// TestCancel cancels a call while the engine works on the round that
// would answer its plan: the client's call ends at once, the server sends
// no result for it (no INTERNAL answer: the SDK's error response, which
// the client has already forgotten, is all), the vault is as it was, and
// the next call runs (the lock was released).
func TestCancel(t *testing.T) {
	dir := newVault(t, "alpha")
	before := contextOf(t, dir, "alpha")
	eng := &stalling{entered: make(chan struct{})}
	srv := mcp.NewServer(openVault(t, dir), eng, mcp.Options{})
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := make(chan *jsonrpc.Response, 10)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), tapped{ct, seen}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	<-seen // initialize

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "mem_update_phase", Arguments: map[string]any{"slug": "alpha", "phase": "never"}})
		done <- err
	}()
	select {
	case <-eng.entered:
	case <-time.After(hang):
		t.Fatal("the engine never reached its second round")
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled call returned %v; want context.Canceled", err)
	}
	select {
	case r := <-seen:
		if r.Result != nil || r.Error == nil || !strings.Contains(r.Error.Error(), "cancel") {
			t.Errorf("the server answered the cancelled call: result %s, error %v; want no result", r.Result, r.Error)
		}
	case <-time.After(hang):
		t.Fatal("the server never ended the cancelled call")
	}
	if after := contextOf(t, dir, "alpha"); after != before {
		t.Errorf("a cancelled call changed context.md:\n%s", after)
	}
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "mem_update_phase", Arguments: map[string]any{"slug": "alpha", "phase": "next"}})
	if err != nil || res.IsError {
		t.Fatalf("the call after a cancel: %v %v", err, res)
	}
	if got := phaseOf(contextOf(t, dir, "alpha")); got != "next" {
		t.Errorf("phase = %q; want next", got)
	}
}
