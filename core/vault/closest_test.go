package vault

import (
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
)

// closestByScan is Closest as it was first written: every candidate's
// whole distance, then a sort. TestClosestAsScan holds the bounded
// Closest to it.
func closestByScan(name string, candidates []string, n int) []string {
	lname := strings.ToLower(name)
	seen := map[string]bool{}
	var out []scored
	for _, c := range candidates {
		if seen[c] {
			continue
		}
		seen[c] = true
		lc := strings.ToLower(c)
		d, _ := distanceWithin(lname, lc, len(lname)+len(lc), nil)
		if lname != "" && (strings.Contains(lc, lname) || strings.Contains(lname, lc)) {
			d = 0
		}
		if d*2 > max(len(lname), len(lc)) {
			continue
		}
		out = append(out, scored{c, d})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].d != out[j].d {
			return out[i].d < out[j].d
		}
		return out[i].name < out[j].name
	})
	var names []string
	for i := 0; i < len(out) && i < n; i++ {
		names = append(names, out[i].name)
	}
	return names
}

// TestClosestAsScan: on random names over a small alphabet (so that
// near names, ties and substrings are common), Closest gives what the
// whole scan gives, for n of 0, 1, 5 and all.
func TestClosestAsScan(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 29))
	word := func() string {
		b := make([]byte, r.IntN(9))
		for i := range b {
			b[i] = "abcAB-"[r.IntN(6)]
		}
		return string(b)
	}
	for round := range 400 {
		cands := make([]string, r.IntN(40))
		for i := range cands {
			cands[i] = word()
		}
		name := word()
		for _, n := range []int{0, 1, 5, len(cands)} {
			if got, want := Closest(name, cands, n), closestByScan(name, cands, n); !slices.Equal(got, want) {
				t.Fatalf("round %d: Closest(%q, %q, %d) = %q; the scan gives %q", round, name, cands, n, got, want)
			}
		}
	}
}

// TestDistanceWithin: the exact distance when it is at most k, and more
// than k otherwise.
func TestDistanceWithin(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"kitten", "sitting", 3}, {"context", "contxt", 1}, {"abc", "", 3}, {"flaw", "lawn", 2}} {
		for k := 0; k <= c.d+1; k++ {
			got, _ := distanceWithin(c.a, c.b, k, nil)
			if k >= c.d && got != c.d || k < c.d && got <= k {
				t.Errorf("distanceWithin(%q, %q, %d) = %d; the distance is %d", c.a, c.b, k, got, c.d)
			}
		}
	}
}
