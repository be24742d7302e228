package toolbench

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/internal/cputime"
)

// BenchmarkAfterWrite is a search and a recall on a warm Vault and
// engine (as in a running MCP server, its calls run with
// call.Options.KeepIndex), each either again with nothing
// written since (warm) or right after one mem_archive of bench-target
// (after-archive): BenchmarkAfterWrite/<size>/<tool>/<when>/<engine>.
// Before each timed call, outside the timer, the last archive is undone
// by hand (an outside edit), one call brings the index up to date, and
// (after-archive) the archive is made again through call.Run. It
// reports the process's CPU time of the timed call (cpu-ms/op), which
// the machine's other load disturbs far less than its wall time; the
// garbage of the untimed calls is collected before it. The timed call
// runs under the pprof label part=timed, so that a -cpuprofile shows it
// alone (go tool pprof -tagfocus part=timed).
//
// Each wasm run has an instance of its own: a wasm heap never shrinks,
// and one instance through every size measured the largest vault in the
// memory the smaller ones left.
func BenchmarkAfterWrite(b *testing.B) {
	engines := map[string]func(*testing.B) call.Engine{
		"native": func(*testing.B) call.Engine { return engine.Native() },
		"wasm": func(b *testing.B) call.Engine {
			w, err := engine.NewWasm(context.Background(), engine.WasmOptions{CallTimeout: benchTimeout, PoolSize: 1})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { w.Close(context.Background()) })
			return w
		},
	}
	calls := map[string]json.RawMessage{
		"mem_search": json.RawMessage(`{"query":"` + searchQuery + `"}`),
		"mem_recall": json.RawMessage(`{"slug":"bench-target"}`),
	}
	for _, size := range Sizes {
		b.Run(size.Name, func(b *testing.B) {
			gv, _ := openSize(b, size)
			b.Cleanup(func() { os.RemoveAll(filepath.Join(gv.Dir, ".kessho", "index")) })
			full, _ := Lookup("mem_archive.full")
			archive := json.RawMessage(full.Args(gv.Manifest))
			for _, tool := range []string{"mem_search", "mem_recall"} {
				b.Run(tool, func(b *testing.B) {
					for _, when := range []string{"warm", "after-archive"} {
						b.Run(when, func(b *testing.B) {
							for _, name := range []string{"native", "wasm"} {
								b.Run(name, func(b *testing.B) {
									afterWrite(b, gv.Dir, engines[name](b), tool, calls[tool], archive, when == "after-archive")
								})
							}
						})
					}
				})
			}
		})
	}
}

// afterWrite times tool's call (args) on a fresh Vault of dir, each time
// after the index was brought up to date and, when write is set, one
// mem_archive (archive) was made.
func afterWrite(b *testing.B, dir string, eng call.Engine, tool string, args, archive json.RawMessage, write bool) {
	ctx := context.Background()
	v := openFresh(b, dir)
	kept := opts
	kept.KeepIndex = true // as kessho mcp runs its calls
	run := func(tool string, args json.RawMessage) {
		out, err := call.Run(ctx, v, eng, tool, args, kept)
		if err != nil || !out.OK {
			b.Fatalf("%s: %.300s %v", tool, out.Answer, err)
		}
	}
	p, err := DryRun(ctx, v, eng, "mem_archive", archive, opts)
	if err != nil {
		b.Fatal(err)
	}
	undo, err := Prepare(dir, p)
	if err != nil {
		b.Fatal(err)
	}
	run(tool, args)
	run(tool, args) // the listing kept from now on
	var spent time.Duration
	n, written := 0, false
	for b.Loop() {
		b.StopTimer()
		if written {
			if err := undo.Run(); err != nil {
				b.Fatal(err)
			}
		}
		run(tool, args) // up to date with the undo
		if write {
			run("mem_archive", archive)
		}
		written = write
		runtime.GC() // the garbage of the untimed calls (a whole build, at first) is not the timed call's
		b.StartTimer()
		start := cputime.Process()
		pprof.Do(ctx, pprof.Labels("part", "timed"), func(context.Context) { run(tool, args) })
		spent += cputime.Process() - start
		n++
	}
	b.StopTimer()
	if written {
		if err := undo.Run(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(spent.Microseconds())/1000/float64(n), "cpu-ms/op")
}
