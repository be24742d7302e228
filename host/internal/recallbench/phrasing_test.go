package recallbench

import (
	"context"
	"math"
	"testing"
)

func TestScorePhrasing(t *testing.T) {
	needs := []Need{
		{ID: "a", Split: "dev", GoldKind: "atom", Queries: []string{"x", "one"}, Gold: []string{"g"}},
		{ID: "b", Split: "dev", GoldKind: "atom", Queries: []string{"x", "three"}, Gold: []string{"g"}},
		{ID: "c", Split: "dev", GoldKind: "atom", Queries: []string{"x"}, Gold: []string{"g"}},
		{ID: "d", Split: "test", GoldKind: "atom", Queries: []string{"x", "one"}, Gold: []string{"g"}},
		{ID: "e", Split: "dev", GoldKind: "none", Queries: []string{"x", "one"}},
	}
	r := Ranker{"fake", func(_ context.Context, _ Need, q string) ([]Hit, error) {
		switch q {
		case "one":
			return []Hit{{Path: "g"}}, nil
		case "three":
			return []Hit{{Path: "o"}, {Path: "p"}, {Path: "g"}}, nil
		}
		return nil, nil
	}}
	s, err := ScorePhrasing(context.Background(), needs, r, "dev", 2)
	if err != nil {
		t.Fatal(err)
	}
	if s.N != 2 || s.Hit1 != 0.5 || s.Hit5 != 1 || math.Abs(s.MRR10-(1+1.0/3)/2) > 1e-12 {
		t.Errorf("got %+v", s)
	}
}
