//go:build unix

package call_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/internal/cputime"
	"github.com/kessho/kessho/host/internal/enginetest"
	"github.com/kessho/kessho/host/internal/fsyncs"
	"github.com/kessho/kessho/host/vaultfs"
)

// BenchmarkUpdatePhaseBySize is a whole mem_update_phase call on vaults of
// 1,000 and 10,000 project folders, on both engines: a one-project tool,
// whose time should not follow the vault's size. It reports the fsyncs
// per call and the process's CPU time per call (user and system), which
// a machine's other load and the disk's fsync latency disturb less than
// the wall time.
func BenchmarkUpdatePhaseBySize(b *testing.B) {
	engines := enginetest.Both(b)
	for _, n := range []int{1000, 10000} {
		dir := b.TempDir()
		for p, text := range manyProjects(n) {
			full := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		for _, name := range []string{"native", "wasm"} {
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				v, err := vaultfs.Open(dir)
				if err != nil {
					b.Fatal(err)
				}
				defer v.Close()
				opts := call.Options{Now: time.Date(2026, 11, 30, 9, 15, 0, 0, time.UTC), TZ: "Europe/Paris"}
				syncs, cpu := fsyncs.Count(), cputime.Process()
				for i := 0; b.Loop(); i++ {
					args := fmt.Sprintf(`{"slug":"alpha","phase":"p%d"}`, i)
					out, err := call.Run(context.Background(), v, engines[name], "mem_update_phase", json.RawMessage(args), opts)
					if err != nil || !out.OK {
						b.Fatalf("%s: %v", out.Answer, err)
					}
				}
				b.ReportMetric(float64(fsyncs.Count()-syncs)/float64(b.N), "fsyncs/op")
				b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
			})
		}
	}
}
