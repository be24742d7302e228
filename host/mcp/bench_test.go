package mcp_test

import (
	"context"
	"encoding/json"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	hostcall "kessho/host/call"
	"kessho/host/engine"
	"kessho/host/mcp"
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
