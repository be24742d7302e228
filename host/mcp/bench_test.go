package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	hostcall "github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/mcp"
)

// BenchmarkMCPCall measures the warm cost of one call through the MCP
// server (JSON-RPC framing over the in-memory transport, then the same
// call.Run) against a direct call.Run, with each engine.
//
// "same" sets the phase the project already has: lock, read, engine,
// answer, no write; it is the server's overhead in full. "write" sets a
// new phase each time, so the plan is applied (journal, fsyncs, rename).
func BenchmarkMCPCall(b *testing.B) {
	ctx := context.Background()
	wasm, err := engine.NewWasm(ctx, engine.WasmOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer wasm.Close(ctx)
	engines := []struct {
		name string
		eng  hostcall.Engine
	}{{"native", engine.Native()}, {"wasm", wasm}}

	phases := map[string][2]string{"same": {"steady", "steady"}, "write": {"left", "right"}}
	for _, op := range []string{"same", "write"} {
		for _, e := range engines {
			dir := newVault(b, "alpha")
			v := openVault(b, dir)
			args := func(i int) map[string]any {
				return map[string]any{"slug": "alpha", "phase": phases[op][i%2]}
			}
			b.Run(op+"/direct/"+e.name, func(b *testing.B) {
				for i := 0; b.Loop(); i++ {
					raw, _ := json.Marshal(args(i))
					out, err := hostcall.Run(ctx, v, e.eng, "mem_update_phase", raw, hostcall.Options{})
					if err != nil || !out.OK {
						b.Fatalf("%s %v", out.Answer, err)
					}
				}
			})
			cs := connect(b, mcp.NewServer(v, e.eng, mcp.Options{}))
			b.Run(op+"/mcp/"+e.name, func(b *testing.B) {
				for i := 0; b.Loop(); i++ {
					res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "mem_update_phase", Arguments: args(i)})
					if err != nil || res.IsError {
						b.Fatalf("%v %v", res, err)
					}
				}
			})
		}
	}
}

// BenchmarkHTTPAbandonedSessions opens 10,000 sessions over streamable
// HTTP (each an initialize, then nothing), 8 at a time, on a server whose
// idle sessions expire after 10 s, and waits until they have all expired:
// the heap must be back where it was, give or take 1 KiB a session (a
// session's state is some 13 KiB: what stays is the tables' grown
// capacity, not the sessions). TestHTTPSessionsExpire checks the same
// with 2,000 sessions in every `make test`; 10,000 take longer to open
// than a short expiry on a busy machine, and run here, in `make bench`.
// It reports the most sessions seen open at once, and the heap at the
// end of the initializations and after the expiry, against the start.
func BenchmarkHTTPAbandonedSessions(b *testing.B) {
	const abandoned, workers = 10000, 8
	srv := mcp.NewServer(openVault(b, newVault(b, "alpha")), engine.Native(), mcp.Options{})
	hs := httptest.NewServer(mcp.Handler(srv, mcp.HTTPOptions{SessionIdle: 10 * time.Second}))
	b.Cleanup(hs.Close)
	sessions := func() int {
		n := 0
		for range srv.Sessions() {
			n++
		}
		return n
	}
	for b.Loop() {
		before := heap()
		var next atomic.Int64
		var ids sync.Map
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for next.Add(1) <= abandoned {
					if id := openSession(b, hs.URL+mcp.Path); id != "" {
						ids.Store(id, true)
					}
				}
			})
		}
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		peak := 0
		for waiting := true; waiting; {
			select {
			case <-done:
				waiting = false
			case <-time.After(100 * time.Millisecond):
				peak = max(peak, sessions())
			}
		}
		opened := 0
		ids.Range(func(any, any) bool { opened++; return true })
		if opened != abandoned {
			b.Fatalf("%d sessions opened; want %d", opened, abandoned)
		}
		during := heap()
		for end := time.Now().Add(time.Minute); sessions() > 0; time.Sleep(100 * time.Millisecond) {
			if time.Now().After(end) {
				b.Fatalf("%d sessions left a minute after the last request", sessions())
			}
		}
		after := heap()
		if after > before+abandoned<<10 {
			b.Errorf("heap %d KiB after the expiry; want at most %d KiB (%d KiB at the start, %d KiB with the sessions)", after>>10, (before+abandoned<<10)>>10, before>>10, during>>10)
		}
		b.ReportMetric(float64(peak), "sessions-peak")
		b.ReportMetric(float64(int64(during)-int64(before))/1024, "KiB-opened")
		b.ReportMetric(float64(int64(after)-int64(before))/1024, "KiB-kept")
	}
}

// openSession sends an initialize to url and returns the session's id
// ("" on a failure, reported to b).
func openSession(b *testing.B, url string) string {
	req, err := http.NewRequest("POST", url, strings.NewReader(initialize))
	if err != nil {
		b.Error(err)
		return ""
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Error(err)
		return ""
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Errorf("initialize: status %d", resp.StatusCode)
	}
	return resp.Header.Get("Mcp-Session-Id")
}
