package recallbench

import (
	"math"
	"testing"
)

func TestFirstRankAndHits(t *testing.T) {
	gold := []string{"b.md", "z.md"}
	ranking := []string{"a.md", "c.md", "b.md", "z.md"}
	if got := FirstRank(ranking, gold); got != 3 {
		t.Errorf("FirstRank = %d, want 3 (b.md, the first gold in the ranking)", got)
	}
	if got := FirstRank([]string{"a.md"}, gold); got != 0 {
		t.Errorf("FirstRank with no gold = %d, want 0", got)
	}
	s := Score([][]string{ranking}, gold)
	if s.Hit1 != 0 || s.Hit5 != 1 || math.Abs(s.RR10-1.0/3) > 1e-12 {
		t.Errorf("Score = %+v, want hit@1 0, hit@5 1, RR 1/3", s)
	}
	// Gold at rank 11: outside MRR@10 and hit@5.
	long := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "b.md"}
	s = Score([][]string{long}, gold)
	if s.Hit1 != 0 || s.Hit5 != 0 || s.RR10 != 0 {
		t.Errorf("gold at rank 11: %+v, want all zero", s)
	}
	s = Score([][]string{{"b.md"}}, gold)
	if s.Hit1 != 1 || s.Hit5 != 1 || s.RR10 != 1 {
		t.Errorf("gold first: %+v, want all one", s)
	}
}

func TestAttempts(t *testing.T) {
	gold := []string{"g.md"}
	miss := []string{"a", "b", "c", "d", "e", "g.md"} // gold at rank 6: not in the top 5
	hit := []string{"a", "g.md"}
	cases := []struct {
		name     string
		rankings [][]string
		want     int
	}{
		{"first phrasing", [][]string{hit, miss}, 1},
		{"third phrasing", [][]string{miss, {}, hit}, 3},
		{"sixth phrasing", [][]string{miss, miss, miss, miss, miss, hit}, 6},
		{"never: counts 7", [][]string{miss, miss}, 7},
		{"never, six tried: counts 7", [][]string{miss, miss, miss, miss, miss, miss}, 7},
	}
	for _, c := range cases {
		if got := Score(c.rankings, gold).Attempts; got != c.want {
			t.Errorf("%s: attempts = %d, want %d", c.name, got, c.want)
		}
	}
	if s := Score([][]string{{}, hit}, gold); !s.EmptyFirst {
		t.Error("an empty first ranking is not reported as empty")
	}
}

func TestMeanAndBootstrap(t *testing.T) {
	if m := Mean([]float64{1, 0, 0, 1}); m != 0.5 {
		t.Errorf("Mean = %v, want 0.5", m)
	}
	// All equal: every resample has the same mean.
	lo, hi := Bootstrap([]float64{0.25, 0.25, 0.25}, 500, 1)
	if lo != 0.25 || hi != 0.25 {
		t.Errorf("constant values: CI [%v, %v], want [0.25, 0.25]", lo, hi)
	}
	// Half ones, half zeros, 40 needs: the mean's standard error is
	// sqrt(0.25/40) ≈ 0.079, so the 95 % interval is about 0.5 ± 0.155.
	v := make([]float64, 40)
	for i := range 20 {
		v[i] = 1
	}
	lo, hi = Bootstrap(v, 4000, 7)
	if lo > 0.5 || hi < 0.5 || math.Abs(lo-0.345) > 0.04 || math.Abs(hi-0.655) > 0.04 {
		t.Errorf("CI [%v, %v], want about [0.345, 0.655]", lo, hi)
	}
	// Deterministic for one seed.
	lo2, hi2 := Bootstrap(v, 4000, 7)
	if lo2 != lo || hi2 != hi {
		t.Error("the same seed gave another interval")
	}
	if lo, hi := Bootstrap(nil, 100, 1); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("no values: [%v, %v], want NaN", lo, hi)
	}
}
