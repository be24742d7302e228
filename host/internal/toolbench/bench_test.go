package toolbench

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/kessho/kessho/core/tools"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/internal/cputime"
	"github.com/kessho/kessho/host/internal/genvault"
	"github.com/kessho/kessho/host/vaultfs"
)

// opts are every call's options: the vaults' own now, and a deadline far
// above the default's 10 s, so that a slow call is measured rather than
// refused (LIMIT_EXCEEDED).
var opts = call.Options{Now: genvault.Now, TZ: "Europe/Paris", Timeout: benchTimeout}

const benchTimeout = 5 * time.Minute

// cacheRoot is where the generated vaults are kept: $KESSHO_BENCH_CACHE,
// else .work/bench-vaults at the repository's root (git-ignored).
func cacheRoot(b *testing.B) string {
	if d := os.Getenv("KESSHO_BENCH_CACHE"); d != "" {
		return d
	}
	d, err := filepath.Abs(filepath.Join("..", "..", "..", ".work", "bench-vaults"))
	if err != nil {
		b.Fatal(err)
	}
	return d
}

// openSize returns the vault of size s, marked dirty until the benchmark
// ends well (a run stopped half-way, with a write not undone, makes the
// next run generate it again).
func openSize(b *testing.B, s Size) (genvault.Vault, *vaultfs.Vault) {
	start := time.Now()
	gv, err := genvault.Cached(cacheRoot(b), genvault.Config{Notes: s.Notes, Seed: Seed})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%s vault ready in %v (%d sessions in the week)", s.Name, time.Since(start).Round(time.Millisecond), gv.Manifest.WeekSessions)
	if err := gv.Dirty(); err != nil {
		b.Fatal(err)
	}
	v, err := vaultfs.Open(gv.Dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		v.Close()
		if !b.Failed() {
			gv.Clean()
		}
	})
	return gv, v
}

// timed measures the time spent in the engine.
type timed struct {
	call.Engine
	spent time.Duration
}

func (t *timed) Call(ctx context.Context, req []byte) ([]byte, error) {
	start := time.Now()
	defer func() { t.spent += time.Since(start) }()
	return t.Engine.Call(ctx, req)
}

// Pin pins the engine as call.Run does in production, the rounds timed.
func (t *timed) Pin() (func(context.Context, []byte) ([]byte, error), func()) {
	c, release := call.Pin(t.Engine)
	return func(ctx context.Context, req []byte) ([]byte, error) {
		start := time.Now()
		defer func() { t.spent += time.Since(start) }()
		return c(ctx, req)
	}, release
}

// BenchmarkTools is every scenario, warm, in one process, on both engines
// at every size: BenchmarkTools/<size>/<scenario>/<engine>. Besides the
// time of a call it reports the process's CPU time a call (cpu-ms/op,
// the reverts left out), the engine's share (engine-ms/op) and, when the
// host counts them, fsyncs/op.
func BenchmarkTools(b *testing.B) {
	// The wasm engine's own bound on one run of the core (10 s by
	// default) raised with the call's, so a slow call is measured.
	w, err := engine.NewWasm(context.Background(), engine.WasmOptions{CallTimeout: benchTimeout})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { w.Close(context.Background()) })
	engines := map[string]engine.Engine{"native": engine.Native(), "wasm": w}
	for _, size := range Sizes {
		b.Run(size.Name, func(b *testing.B) {
			gv, v := openSize(b, size)
			for _, sc := range Scenarios {
				if _, ok := tools.Lookup(sc.Tool); !ok {
					continue
				}
				b.Run(sc.Name, func(b *testing.B) {
					for _, name := range []string{"native", "wasm"} {
						b.Run(name, func(b *testing.B) { measure(b, v, engines[name], sc, gv) })
					}
				})
			}
		})
	}
}

// measure times one scenario: a dry run learns its plan, one call made
// for real warms the engine and the disk cache, then every timed call is
// undone outside the timer.
func measure(b *testing.B, v *vaultfs.Vault, eng engine.Engine, sc Scenario, gv genvault.Vault) {
	ctx := context.Background()
	args := json.RawMessage(sc.Args(gv.Manifest))
	p, err := DryRun(ctx, v, eng, sc.Tool, args, opts)
	if err != nil {
		b.Fatal(err)
	}
	undo, err := Prepare(gv.Dir, p)
	if err != nil {
		b.Fatal(err)
	}
	te := &timed{Engine: eng}
	once := func() {
		out, err := call.Run(ctx, v, te, sc.Tool, args, opts)
		if err != nil || !out.OK {
			b.Fatalf("%s: %.300s %v", sc.Tool, out.Answer, err)
		}
	}
	var reverting time.Duration // the CPU time of the reverts, not the calls'
	revert := func() {
		start := cputime.Process()
		if err := undo.Run(); err != nil {
			b.Fatal(err)
		}
		reverting += cputime.Process() - start
	}
	// One call for real (a write undone) after the dry run: a dry run
	// leaves some work to the first call that applies (after an outside
	// edit, a search index brought up to date twice), which no timed call
	// should pay.
	once()
	if len(p) > 0 {
		revert()
	}
	te.spent, reverting = 0, 0
	f0, counted := FsyncCount()
	w, isWasm := eng.(*engine.Wasm)
	var r0 int64
	if isWasm {
		r0 = w.Recycled()
	}
	calls := 0
	cpu0 := cputime.Process()
	b.ResetTimer()
	for b.Loop() {
		once()
		calls++
		if len(p) > 0 {
			b.StopTimer()
			revert()
			b.StartTimer()
		}
	}
	b.StopTimer()
	b.ReportMetric(float64((cputime.Process()-cpu0-reverting).Microseconds())/1000/float64(calls), "cpu-ms/op")
	b.ReportMetric(float64(te.spent.Microseconds())/1000/float64(calls), "engine-ms/op")
	if counted {
		f1, _ := FsyncCount()
		b.ReportMetric(float64(f1-f0)/float64(calls), "fsyncs/op")
	}
	if isWasm {
		// An instance dropped for its memory: the next call starts a new one (and reloads a search index).
		b.ReportMetric(float64(w.Recycled()-r0)/float64(calls), "recycles/op")
	}
}

// BenchmarkCLI is a whole process, `bin/kessho call …`, for the
// CLIScenarios on both engines at every size, with a warm compilation
// cache: wall time (ns/op), CPU time (cpu-ms/op) and the child's peak
// resident memory (peak-MB, the largest of the run, from wait4's rusage).
func BenchmarkCLI(b *testing.B) {
	bin, err := filepath.Abs(filepath.Join("..", "..", "..", "bin", "kessho"))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		b.Fatalf("%v (run make build first)", err)
	}
	xdg := filepath.Join(cacheRoot(b), "xdg-cache")
	for _, size := range Sizes {
		b.Run(size.Name, func(b *testing.B) {
			gv, v := openSize(b, size)
			for _, name := range CLIScenarios {
				sc, _ := Lookup(name)
				args := sc.Args(gv.Manifest)
				p, err := DryRun(context.Background(), v, engine.Native(), sc.Tool, json.RawMessage(args), opts)
				if err != nil {
					b.Fatal(err)
				}
				undo, err := Prepare(gv.Dir, p)
				if err != nil {
					b.Fatal(err)
				}
				b.Run(sc.Name, func(b *testing.B) {
					for _, eng := range []string{"native", "wasm"} {
						b.Run(eng, func(b *testing.B) {
							run := func() *os.ProcessState {
								cmd := exec.Command(bin, "--vault", gv.Dir, "--engine", eng, "--now", genvault.Now.Format(time.RFC3339),
									"--tz", opts.TZ, "--timeout", benchTimeout.String(), "call", sc.Tool, "--json", args)
								cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+xdg)
								out, err := cmd.Output()
								if err != nil || !bytes.Contains(out, []byte(`"ok":true`)) && !bytes.Contains(out, []byte(`"ok": true`)) {
									b.Fatalf("%s %s: %.300s %v", eng, sc.Tool, out, err)
								}
								return cmd.ProcessState
							}
							revert := func() {
								if err := undo.Run(); err != nil {
									b.Fatal(err)
								}
							}
							run() // fills the compilation cache
							revert()
							var peak int64
							var cpu time.Duration
							calls := 0
							b.ResetTimer()
							for b.Loop() {
								st := run()
								calls++
								b.StopTimer()
								peak = max(peak, maxRSS(st))
								cpu += st.UserTime() + st.SystemTime()
								revert()
								b.StartTimer()
							}
							b.StopTimer()
							b.ReportMetric(float64(cpu.Microseconds())/1000/float64(calls), "cpu-ms/op")
							if peak > 0 {
								b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
							}
						})
					}
				})
			}
		})
	}
}
