package vault

import (
	"sort"
	"strings"
)

// Closest returns up to n names of candidates nearest to name: those that
// contain it or are contained in it first, then by edit distance, keeping
// only plausible matches (distance at most half the longer length).
func Closest(name string, candidates []string, n int) []string {
	type scored struct {
		name string
		d    int
	}
	lname := strings.ToLower(name)
	seen := map[string]bool{}
	var out []scored
	for _, c := range candidates {
		if seen[c] {
			continue
		}
		seen[c] = true
		lc := strings.ToLower(c)
		d := distance(lname, lc)
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

// distance is the Levenshtein distance between a and b, in bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
