package toolbench

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"kessho/host/call"
	"kessho/host/engine"
	"kessho/host/vaultfs"
)

// searchQuery is the query every search benchmark asks: three words, as
// an agent types them, that thousands of the generated notes hold.
const searchQuery = "deploy retry webhook"

// BenchmarkSearch is mem_search (issue 13) at every size:
//
//   - cli/kessho and cli/rg: a whole process each, side by side in one
//     run, `kessho search` with an up-to-date index (the native engine,
//     the default) and `rg -il` with the same words (skipped without rg);
//   - first-build/<engine>: a search with no stored index and no warm one
//     (the index removed before each call), in-process;
//   - warm/<engine>: a search on the same Vault and engine again and
//     again, as in a running MCP server: p50-ms is the median call.
func BenchmarkSearch(b *testing.B) {
	w, err := engine.NewWasm(context.Background(), engine.WasmOptions{CallTimeout: benchTimeout, PoolSize: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { w.Close(context.Background()) })
	engines := map[string]call.Engine{"native": engine.Native(), "wasm": w}
	args := json.RawMessage(`{"query":"` + searchQuery + `"}`)
	for _, size := range Sizes[1:] {
		b.Run(size.Name, func(b *testing.B) {
			gv, v := openSize(b, size)
			index := filepath.Join(gv.Dir, ".kessho", "index")
			b.Cleanup(func() { os.RemoveAll(index) })
			search := func(b *testing.B, v *vaultfs.Vault, eng call.Engine) {
				out, err := call.Run(context.Background(), v, eng, "mem_search", args, opts)
				if err != nil || !out.OK {
					b.Fatalf("%.300s %v", out.Answer, err)
				}
			}
			b.Run("cli", func(b *testing.B) {
				bin, err := filepath.Abs(filepath.Join("..", "..", "..", "bin", "kessho"))
				if err != nil {
					b.Fatal(err)
				}
				search(b, v, engine.Native()) // the index up to date
				b.Run("kessho", func(b *testing.B) {
					wholeProcess(b, exec.Command(bin, "--vault", gv.Dir, "search", searchQuery))
				})
				b.Run("rg", func(b *testing.B) {
					rg, err := exec.LookPath("rg")
					if err != nil {
						b.Skip("rg is not installed")
					}
					cmd := exec.Command(rg, "-il", "-e", "deploy", "-e", "retry", "-e", "webhook", ".")
					cmd.Dir = gv.Dir
					wholeProcess(b, cmd)
				})
			})
			b.Run("first-build", func(b *testing.B) {
				for _, name := range []string{"native", "wasm"} {
					b.Run(name, func(b *testing.B) {
						for b.Loop() {
							b.StopTimer()
							if err := os.RemoveAll(index); err != nil {
								b.Fatal(err)
							}
							b.StartTimer()
							search(b, v, engines[name])
						}
					})
				}
			})
			b.Run("warm", func(b *testing.B) {
				for _, name := range []string{"native", "wasm"} {
					b.Run(name, func(b *testing.B) {
						fresh, err := vaultfs.Open(gv.Dir)
						if err != nil {
							b.Fatal(err)
						}
						defer fresh.Close()
						search(b, fresh, engines[name])
						search(b, fresh, engines[name]) // the listing kept from now on
						var took []time.Duration
						for b.Loop() {
							start := time.Now()
							search(b, fresh, engines[name])
							took = append(took, time.Since(start))
						}
						slices.Sort(took)
						b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
					})
				}
			})
		})
	}
}

// wholeProcess times cmd run again and again: wall time (ns/op) and CPU
// time (cpu-ms/op). (Not its peak memory: a child started by this large
// test process reports the parent's resident size in its rusage.)
func wholeProcess(b *testing.B, cmd *exec.Cmd) {
	var cpu time.Duration
	calls := 0
	for b.Loop() {
		c := exec.Command(cmd.Path, cmd.Args[1:]...)
		c.Dir = cmd.Dir
		if out, err := c.Output(); err != nil {
			b.Fatalf("%s: %.300s %v", cmd, out, err)
		}
		calls++
		cpu += c.ProcessState.UserTime() + c.ProcessState.SystemTime()
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(calls), "cpu-ms/op")
}
