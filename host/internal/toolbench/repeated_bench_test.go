package toolbench

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
)

// repeatedCalls is how many calls BenchmarkRepeated makes of each tool in
// one process, as a long-lived MCP server would.
const repeatedCalls = 20

// BenchmarkRepeated makes repeatedCalls calls of mem_recall, mem_search
// and mem_worklog collect in one process, on one engine and one Vault
// (BenchmarkRepeated/<size>/<tool>/<engine>), and fails when any does not
// answer. It reports the wall time a call (ms/call) and, for the wasm engine, the
// largest memory an instance held after a call (max-MiB) and how many
// instances it dropped for their memory (recycled, engine.WasmOptions'
// RecyclePages): a Go heap in wasm never shrinks, and an instance that
// kept a large call's pages met the next one near its limit.
func BenchmarkRepeated(b *testing.B) {
	for _, size := range Sizes {
		b.Run(size.Name, func(b *testing.B) {
			gv, _ := openSize(b, size)
			for _, name := range []string{"mem_recall", "mem_search", "mem_worklog.collect"} {
				s, ok := Lookup(name)
				if !ok {
					b.Fatalf("no scenario %s", name)
				}
				args := json.RawMessage(s.Args(gv.Manifest))
				b.Run(name, func(b *testing.B) {
					b.Run("native", func(b *testing.B) { repeated(b, gv.Dir, engine.Native(), nil, s.Tool, args) })
					b.Run("wasm", func(b *testing.B) {
						w, err := engine.NewWasm(context.Background(), engine.WasmOptions{CallTimeout: benchTimeout, PoolSize: 1})
						if err != nil {
							b.Fatal(err)
						}
						b.Cleanup(func() { w.Close(context.Background()) })
						repeated(b, gv.Dir, w, w, s.Tool, args)
					})
				})
			}
		})
	}
}

// repeated runs tool repeatedCalls times an iteration on a Vault of dir.
func repeated(b *testing.B, dir string, eng call.Engine, w *engine.Wasm, tool string, args json.RawMessage) {
	ctx := context.Background()
	v := openFresh(b, dir)
	var maxPages uint32
	calls := 0
	for b.Loop() {
		for i := range repeatedCalls {
			out, err := call.Run(ctx, v, eng, tool, args, opts)
			if err != nil || !out.OK {
				b.Fatalf("%s, call %d of the process: %.300s %v", tool, calls+i+1, out.Answer, err)
			}
			if w != nil {
				b.StopTimer()
				if p, err := w.MemoryPages(ctx); err == nil && p > maxPages {
					maxPages = p
				}
				b.StartTimer()
			}
		}
		calls += repeatedCalls
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(calls), "ms/call")
	if w != nil {
		b.ReportMetric(float64(maxPages)/16, "max-MiB")
		b.ReportMetric(float64(w.Recycled()), "recycled")
	}
}
