package toolbench

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/internal/cputime"
	"github.com/kessho/kessho/host/internal/genvault"
	"github.com/kessho/kessho/host/vaultfs"
)

// BenchmarkFirstBuildCalls is a first mem_search (or mem_recall of the
// target project, with $KESSHO_FIRST_BUILD_TOOL=mem_recall) on a vault with no
// stored index, retried with the default deadline (call.DefaultTimeout)
// until it answers: each call a fresh engine and a fresh Vault, as a
// `kessho search` run again after LIMIT_EXCEEDED. It reports calls/op,
// the calls the build took, and wall-ms and cpu-ms, their sums. The size
// is $KESSHO_FIRST_BUILD_NOTES (100,000 when unset).
func BenchmarkFirstBuildCalls(b *testing.B) {
	notes := 100000
	if s := os.Getenv("KESSHO_FIRST_BUILD_NOTES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			b.Fatal(err)
		}
		notes = n
	}
	gv, err := genvault.Cached(cacheRoot(b), genvault.Config{Notes: notes, Seed: Seed})
	if err != nil {
		b.Fatal(err)
	}
	index := filepath.Join(gv.Dir, ".kessho", "index")
	b.Cleanup(func() { os.RemoveAll(index) })
	tool, args := "mem_search", json.RawMessage(`{"query":"`+searchQuery+`"}`)
	if os.Getenv("KESSHO_FIRST_BUILD_TOOL") == "mem_recall" {
		tool, args = "mem_recall", json.RawMessage(`{"slug":"`+gv.Manifest.Target+`"}`)
	}
	for _, name := range []string{"native", "wasm"} {
		b.Run(name, func(b *testing.B) {
			calls, recycled := 0, int64(0)
			var maxPages uint32
			var wall, cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				if err := os.RemoveAll(index); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				for n := 1; ; n++ {
					w, c, ok, m := firstBuildCall(b, gv.Dir, name, tool, args)
					wall, cpu, calls = wall+w, cpu+c, calls+1
					maxPages, recycled = max(maxPages, m.pages), recycled+m.recycled
					if ok {
						break
					}
					if n == 20 {
						b.Fatalf("%s: no answer in %d calls", name, n)
					}
				}
			}
			b.ReportMetric(float64(calls)/float64(b.N), "calls/op")
			b.ReportMetric(float64(wall.Milliseconds())/float64(b.N), "wall-ms")
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms")
			if name == "wasm" {
				b.ReportMetric(float64(maxPages)/16, "max-MiB")
				b.ReportMetric(float64(recycled)/float64(b.N), "recycles/op")
			}
		})
	}
}

// buildMemory is what a wasm call of BenchmarkFirstBuildCalls measured
// of its instance: its largest memory after a round, in pages
// (engine.Wasm.PeakPages), and whether it was dropped for it after the
// call (engine.WasmOptions.RecyclePages).
type buildMemory struct {
	pages    uint32
	recycled int64
}

// firstBuildCall is one call of BenchmarkFirstBuildCalls: its wall and
// CPU time, whether it answered (else it answered LIMIT_EXCEEDED), and on
// wasm its instance's memory.
func firstBuildCall(b *testing.B, dir, name, tool string, args json.RawMessage) (wall, cpu time.Duration, ok bool, mem buildMemory) {
	ctx := context.Background()
	var eng call.Engine = engine.Native()
	var w *engine.Wasm
	if name == "wasm" {
		var err error
		if w, err = engine.NewWasm(ctx, engine.WasmOptions{PoolSize: 1}); err != nil {
			b.Fatal(err)
		}
		defer w.Close(ctx)
		eng = w
	}
	v, err := vaultfs.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	start, cpu0 := time.Now(), cputime.Process()
	out, err := call.Run(ctx, v, eng, tool, args, call.Options{Now: genvault.Now, TZ: "Europe/Paris"})
	wall, cpu = time.Since(start), cputime.Process()-cpu0
	if err != nil {
		b.Fatal(err)
	}
	if !out.OK && (out.Error == nil || out.Error.Code != "LIMIT_EXCEEDED") {
		b.Fatalf("%.300s", out.Answer)
	}
	if w != nil {
		mem.pages, mem.recycled = w.PeakPages(), w.Recycled()
	}
	b.Logf("%s: %v wall, %v cpu, %d MiB: %.200s", name, wall.Round(time.Millisecond), cpu.Round(time.Millisecond), mem.pages/16, out.Answer)
	return wall, cpu, out.OK, mem
}
