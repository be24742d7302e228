//go:build unix

package toolbench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/internal/cputime"
)

// BenchmarkDurableWrite sets a warm native mem_update_phase beside its
// floor, the bare durable write of the same file: read the project's
// context.md, write a temporary file in its folder, fsync it, rename it
// over, fsync the folder. The two run alternately in one loop on the 1k
// vault, so that the machine's load and the disk's state weigh on both
// alike. It reports each one's median wall time a call (bare-p50-ms,
// phase-p50-ms), their ratio (phase ÷ bare) and the process's CPU time
// a call of each (bare-cpu-ms/op, phase-cpu-ms/op), which the machine's
// other load disturbs less, and the fsyncs of a mem_update_phase
// (phase-fsyncs/op; the bare write makes 2). ns/op is the time of the
// pair.
func BenchmarkDurableWrite(b *testing.B) {
	gv, v := openSize(b, Sizes[0])
	ctx := context.Background()
	eng := engine.Native()
	phase := func(i int) json.RawMessage {
		return json.RawMessage(fmt.Sprintf(`{"slug":%q,"phase":"bench-%d"}`, gv.Manifest.Target, i%2))
	}
	p, err := DryRun(ctx, v, eng, "mem_update_phase", phase(0), opts)
	if err != nil {
		b.Fatal(err)
	}
	i := slices.IndexFunc(p, func(op plan.Op) bool { return op.Op == plan.Write })
	if i < 0 {
		b.Fatalf("mem_update_phase writes nothing: %v", p)
	}
	file := filepath.Join(gv.Dir, filepath.FromSlash(p[i].Path))
	undo, err := Prepare(gv.Dir, p)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if err := undo.Run(); err != nil {
			b.Error(err)
		}
	})
	var bare, phased []time.Duration
	var bareCPU, phaseCPU time.Duration
	var syncs int64
	for n := 0; b.Loop(); n++ {
		start, cpu := time.Now(), cputime.Process()
		if err := durableWrite(file); err != nil {
			b.Fatal(err)
		}
		bare = append(bare, time.Since(start))
		bareCPU += cputime.Process() - cpu
		f0, _ := FsyncCount()
		start, cpu = time.Now(), cputime.Process()
		out, err := call.Run(ctx, v, eng, "mem_update_phase", phase(n+1), opts)
		phased = append(phased, time.Since(start))
		phaseCPU += cputime.Process() - cpu
		f1, _ := FsyncCount()
		syncs += f1 - f0
		if err != nil || !out.OK {
			b.Fatalf("%s %v", out.Answer, err)
		}
	}
	bp, pp := median(bare), median(phased)
	b.ReportMetric(float64(bp.Microseconds())/1000, "bare-p50-ms")
	b.ReportMetric(float64(pp.Microseconds())/1000, "phase-p50-ms")
	b.ReportMetric(float64(pp)/float64(bp), "ratio")
	b.ReportMetric(float64(bareCPU.Microseconds())/1000/float64(len(bare)), "bare-cpu-ms/op")
	b.ReportMetric(float64(phaseCPU.Microseconds())/1000/float64(len(phased)), "phase-cpu-ms/op")
	b.ReportMetric(float64(syncs)/float64(len(phased)), "phase-fsyncs/op")
}

// durableWrite rewrites file durably with the bytes it holds, as a plan's
// one write does with no journal: read it, write a temporary file beside
// it, fsync, rename it over, fsync the folder.
func durableWrite(file string) error {
	text, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	dir := filepath.Dir(file)
	tmp, err := os.CreateTemp(dir, ".bench-tmp-")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(text); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// median is the middle of ds (sorted in place).
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return ds[len(ds)/2]
}
