package toolbench

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/vaultfs"
)

// BenchmarkSearch is mem_search at every size:
//
//   - cli: whole processes side by side, one after the other in each
//     round: `kessho search` with an up-to-date index (the native engine,
//     the default) and `rg -il` with the same words (rg installed by make bench, scripts/ensure-debian.sh),
//     their mean wall times and the ratio;
//   - first-build/<engine>: `kessho search` as a whole process with no
//     stored index (removed before each run), on each engine;
//   - warm/<engine>: a search on the same Vault and engine again and
//     again, as in a running MCP server: p50-ms is the median call;
//   - after-archive/<engine>: a search right after one mem_archive, on a
//     warm Vault and engine: p50-ms, and files-read/op, the notes the
//     search re-read (what the archive changed, and its hits' files).
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
				bin := kesshoBin(b)
				rg, err := exec.LookPath("rg")
				if err != nil {
					b.Fatal("rg is not installed: scripts/ensure-debian.sh installs it (make bench runs it)")
				}
				search(b, v, engine.Native()) // the index up to date
				kessho := exec.Command(bin, "--vault", gv.Dir, "search", searchQuery)
				grep := exec.Command(rg, "-il", "-e", "deploy", "-e", "retry", "-e", "webhook", ".")
				grep.Dir = gv.Dir
				// One after the other in each round, so that both meet the
				// same load.
				var tk, tr time.Duration
				calls := 0
				for b.Loop() {
					tk += wholeProcess(b, kessho)
					tr += wholeProcess(b, grep)
					calls++
				}
				b.ReportMetric(float64(tk.Microseconds())/1000/float64(calls), "kessho-ms")
				b.ReportMetric(float64(tr.Microseconds())/1000/float64(calls), "rg-ms")
				b.ReportMetric(float64(tk)/float64(tr), "kessho/rg")
			})
			b.Run("first-build", func(b *testing.B) {
				// A whole process, so that the core holds no warm index
				// either (an engine kept between iterations would answer
				// from the index it built in the first one).
				bin := kesshoBin(b)
				for _, name := range []string{"native", "wasm"} {
					b.Run(name, func(b *testing.B) {
						build := exec.Command(bin, "--vault", gv.Dir, "--engine", name, "--timeout", "10m", "search", searchQuery)
						for b.Loop() {
							b.StopTimer()
							if err := os.RemoveAll(index); err != nil {
								b.Fatal(err)
							}
							b.StartTimer()
							wholeProcess(b, build)
						}
					})
				}
			})
			b.Run("warm", func(b *testing.B) {
				for _, name := range []string{"native", "wasm"} {
					b.Run(name, func(b *testing.B) {
						fresh := openFresh(b, gv.Dir)
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
			b.Run("after-archive", func(b *testing.B) {
				// One mem_archive (mem_archive.full's), then the
				// search, again and again: the search re-reads only what
				// the archive changed and the hits' files for their best
				// line (files-read), not the vault; p50-ms is its median.
				// The archive is undone outside the timer.
				full, _ := Lookup("mem_archive.full")
				archive := json.RawMessage(full.Args(gv.Manifest))
				ctx := context.Background()
				for _, name := range []string{"native", "wasm"} {
					b.Run(name, func(b *testing.B) {
						fresh := openFresh(b, gv.Dir)
						p, err := DryRun(ctx, fresh, engines[name], "mem_archive", archive, opts)
						if err != nil {
							b.Fatal(err)
						}
						undo, err := Prepare(gv.Dir, p)
						if err != nil {
							b.Fatal(err)
						}
						counted := &fileCounting{Engine: engines[name]}
						search(b, fresh, counted) // the index up to date
						var took []time.Duration
						files := 0
						for b.Loop() {
							b.StopTimer()
							if out, err := call.Run(ctx, fresh, engines[name], "mem_archive", archive, opts); err != nil || !out.OK {
								b.Fatalf("mem_archive: %.300s %v", out.Answer, err)
							}
							counted.files = 0
							b.StartTimer()
							start := time.Now()
							search(b, fresh, counted)
							took = append(took, time.Since(start))
							b.StopTimer()
							files += counted.files
							if err := undo.Run(); err != nil {
								b.Fatal(err)
							}
							b.StartTimer()
						}
						slices.Sort(took)
						b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
						b.ReportMetric(float64(files)/float64(len(took)), "files-read/op")
					})
				}
			})
		})
	}
}

// openFresh opens the vault in dir anew (no listing kept yet), closed
// when b ends.
func openFresh(b *testing.B, dir string) *vaultfs.Vault {
	v, err := vaultfs.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { v.Close() })
	return v
}

// fileCounting is an engine that counts the files its requests carry
// (each with its "sha256"), the bytes after a request's NUL left out.
type fileCounting struct {
	call.Engine
	files int
}

func (f *fileCounting) Call(ctx context.Context, req []byte) ([]byte, error) {
	text, _, _ := bytes.Cut(req, []byte{0})
	f.files += bytes.Count(text, []byte(`"sha256":`))
	return f.Engine.Call(ctx, req)
}

// kesshoBin is the path of bin/kessho (`make build`).
func kesshoBin(b *testing.B) string {
	bin, err := filepath.Abs(filepath.Join("..", "..", "..", "bin", "kessho"))
	if err != nil {
		b.Fatal(err)
	}
	return bin
}

// wholeProcess runs cmd once and returns its wall time.
func wholeProcess(b *testing.B, cmd *exec.Cmd) time.Duration {
	c := exec.Command(cmd.Path, cmd.Args[1:]...)
	c.Dir = cmd.Dir
	start := time.Now()
	out, err := c.CombinedOutput()
	took := time.Since(start)
	if err != nil {
		// The program's name and what it said, not the command line: it
		// holds the machine's paths.
		b.Fatalf("%s: %.300s %v", filepath.Base(c.Path), out, err)
	}
	return took
}
