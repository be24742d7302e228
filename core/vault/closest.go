package vault

import (
	"slices"
	"strings"
)

// Closest returns up to n names of candidates nearest to name: those that
// contain it or are contained in it first, then by edit distance, keeping
// only plausible matches (distance at most half the longer length); ties
// by name.
//
// It is called with every note of a vault as candidates (a broken link's
// fix, in mem_check, for each broken link), so a candidate costs a length
// comparison unless it can enter the n kept so far: the distance is
// computed only up to the largest that could (distanceWithin), in one
// pair of rows for the whole call.
func Closest(name string, candidates []string, n int) []string {
	lname := strings.ToLower(name)
	seen := make(map[string]bool, len(candidates))
	var top []scored
	var rows []int
	for _, c := range candidates {
		if seen[c] {
			continue
		}
		seen[c] = true
		lc := strings.ToLower(c)
		limit := max(len(lname), len(lc)) / 2
		if len(top) == n && n > 0 {
			limit = min(limit, top[n-1].d)
		}
		d := 0
		if lname == "" || !(strings.Contains(lc, lname) || strings.Contains(lname, lc)) {
			d, rows = distanceWithin(lname, lc, limit, rows)
			if d > limit {
				continue
			}
		}
		top = keep(top, scored{c, d}, n)
	}
	names := make([]string, 0, len(top))
	for _, s := range top {
		names = append(names, s.name)
	}
	if len(names) == 0 {
		return nil
	}
	return names
}

// scored is a candidate of Closest and its distance.
type scored struct {
	name string
	d    int
}

// keep inserts s into top, sorted by distance then name, and keeps the
// first n.
func keep(top []scored, s scored, n int) []scored {
	i, _ := slices.BinarySearchFunc(top, s, func(a, b scored) int {
		if a.d != b.d {
			return a.d - b.d
		}
		return strings.Compare(a.name, b.name)
	})
	if i >= n {
		return top
	}
	top = slices.Insert(top, i, s)
	if len(top) > n {
		top = top[:n]
	}
	return top
}

// distanceWithin is the Levenshtein distance between a and b, in bytes,
// when it is at most k, else some number above k: the lengths' difference
// is a lower bound, and each row's least value another, so most pairs
// stop early. rows is reused from call to call (returned grown).
func distanceWithin(a, b string, k int, rows []int) (int, []int) {
	if len(a)-len(b) > k || len(b)-len(a) > k {
		return k + 1, rows
	}
	if cap(rows) < 2*(len(b)+1) {
		rows = make([]int, 2*(len(b)+1))
	}
	prev, cur := rows[:len(b)+1], rows[len(b)+1:2*(len(b)+1)]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		least := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			least = min(least, cur[j])
		}
		if least > k {
			return k + 1, rows
		}
		prev, cur = cur, prev
	}
	return prev[len(b)], rows
}
