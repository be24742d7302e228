package hygiene

import (
	"math/rand"
	"testing"
)

// bigLog is a ~2 MB SESSION_LOG.md of thousands of blocks.
func bigLog(size int) string {
	per := len(genVault(rand.New(rand.NewSource(1)), 200)) / 200
	return genVault(rand.New(rand.NewSource(1)), size/per)
}

func BenchmarkCheck2MB(b *testing.B) {
	log := bigLog(2 << 20)
	blocks, _ := scanBlocks(log)
	b.SetBytes(int64(len(log) + len(okPrio)))
	for b.Loop() {
		Check(log, okPrio)
	}
	b.ReportMetric(float64(len(blocks)), "blocks")
}

func BenchmarkPlanTrim2MB(b *testing.B) {
	log := bigLog(2 << 20)
	b.SetBytes(int64(len(log)))
	for b.Loop() {
		PlanTrim(log, okPrio, nil, nil)
	}
}

// TestCheckIsLinear compares the time per byte of a check on 256 KB and on
// 4 MB: a check that rescans the text per block would be ~16 times slower
// per byte on the larger one.
func TestCheckIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing")
	}
	small, large := bigLog(256<<10), bigLog(4<<20)
	per := func(s string) float64 {
		res := testing.Benchmark(func(b *testing.B) {
			for b.Loop() {
				Check(s, okPrio)
			}
		})
		return float64(res.NsPerOp()) / float64(len(s))
	}
	ps, pl := per(small), per(large)
	if pl > 4*ps {
		t.Errorf("Check: %.2f ns/byte on %d bytes, %.2f ns/byte on %d bytes: not linear", ps, len(small), pl, len(large))
	}
}
