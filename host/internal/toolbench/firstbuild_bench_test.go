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
			calls := 0
			var wall, cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				if err := os.RemoveAll(index); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				for n := 1; ; n++ {
					w, c, ok := firstBuildCall(b, gv.Dir, name, tool, args)
					wall, cpu, calls = wall+w, cpu+c, calls+1
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
		})
	}
}

// firstBuildCall is one call of BenchmarkFirstBuildCalls: its wall and
// CPU time, and whether it answered (else it answered LIMIT_EXCEEDED).
func firstBuildCall(b *testing.B, dir, name, tool string, args json.RawMessage) (wall, cpu time.Duration, ok bool) {
	ctx := context.Background()
	var eng call.Engine = engine.Native()
	if name == "wasm" {
		w, err := engine.NewWasm(ctx, engine.WasmOptions{PoolSize: 1})
		if err != nil {
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
	b.Logf("%s: %v wall, %v cpu: %.200s", name, wall.Round(time.Millisecond), cpu.Round(time.Millisecond), out.Answer)
	return wall, cpu, out.OK
}
