package recallbench

import (
	"math"
	"math/rand/v2"
	"slices"
)

// MaxAttempts is the attempts-to-find of a need that no phrasing found:
// one more than the six phrasings a need may have. The report also
// counts those needs apart ("not found"), so that the mean is never read
// without them.
const MaxAttempts = 7

// NeedScore is one ranker's result on one need.
type NeedScore struct {
	Hit1, Hit5 float64 // first phrasing: gold at rank 1; in the top 5
	RR10       float64 // first phrasing: 1/rank of the first gold, 0 past rank 10
	Attempts   int     // 1-based index of the first phrasing whose top 5 holds a gold; MaxAttempts when none
	EmptyFirst bool    // the first phrasing came back with no hit at all
	TopScore   float64 // the ranker's score of its first hit on the first phrasing (0 when none)
}

// FirstRank is the 1-based rank of the first gold path in ranking, 0
// when none is in it.
func FirstRank(ranking, gold []string) int {
	for i, p := range ranking {
		if slices.Contains(gold, p) {
			return i + 1
		}
	}
	return 0
}

// Score scores the rankings of a need's phrasings, in order (the first
// is the first phrasing), against its gold paths.
func Score(rankings [][]string, gold []string) NeedScore {
	var s NeedScore
	s.Attempts = MaxAttempts
	for i, r := range rankings {
		if k := FirstRank(r, gold); k > 0 && k <= 5 {
			s.Attempts = i + 1
			break
		}
	}
	if len(rankings) == 0 {
		return s
	}
	first := rankings[0]
	s.EmptyFirst = len(first) == 0
	k := FirstRank(first, gold)
	if k == 1 {
		s.Hit1 = 1
	}
	if k >= 1 && k <= 5 {
		s.Hit5 = 1
	}
	if k >= 1 && k <= 10 {
		s.RR10 = 1 / float64(k)
	}
	return s
}

// Mean is the arithmetic mean (NaN for no value).
func Mean(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, x := range v {
		sum += x
	}
	return sum / float64(len(v))
}

// Bootstrap is the percentile bootstrap 95 % confidence interval of the
// mean of v: resamples resamplings of v with replacement (the needs),
// the 2.5th and 97.5th percentiles of their means. A fixed seed makes a
// report reproducible.
func Bootstrap(v []float64, resamples int, seed uint64) (lo, hi float64) {
	if len(v) == 0 || resamples <= 0 {
		return math.NaN(), math.NaN()
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	means := make([]float64, resamples)
	for r := range means {
		sum := 0.0
		for range v {
			sum += v[rng.IntN(len(v))]
		}
		means[r] = sum / float64(len(v))
	}
	slices.Sort(means)
	at := func(q float64) float64 {
		i := int(math.Round(q * float64(resamples-1)))
		return means[i]
	}
	return at(0.025), at(0.975)
}
