package search

import (
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// An Alt is one alternative of a query term: a term of the index that
// stands in for it, at weight (< 1) times what the typed term would
// score. Fuzzy and prefix matching make them (Expansion); a translation
// of the term can be one too.
type Alt struct {
	Term   string
	Weight float64
	// from and span are, for a translation (Alternatives), the first of
	// the query terms it stands in for and their number (Translations).
	from, span int
}

// An Expansion gives the alternatives of the query's i-th term t in x
// (none: the term alone). RankExpanded asks it for every term, known or
// not: it decides which need alternatives.
type Expansion func(x *Index, i int, t string) []Alt

// The weights of the alternatives Fuzzy makes: one edit, two edits, a
// term the typed one begins (MiniSearch's are 0.45 fuzzy, 0.375 prefix).
const (
	fuzzyOne    = 0.5
	fuzzyTwo    = 0.3
	prefixed    = 0.4
	maxPrefixed = 32 // a short prefix begins thousands of terms: the shortest
	minFuzzy    = 4  // a shorter term is within one edit of too many others
	longFuzzy   = 8  // from this length, two edits
)

// Fuzzy is the Expansion of typos and search-as-you-type: a term the
// index does not know is matched by the index's terms within one edit
// (two from longFuzzy runes), and, when prefix, the last term of a query
// of n terms also by the terms it begins. Terms are stems, folded: the
// index keeps no surface word, and a typo most often leaves the stem's
// letters but one.
func Fuzzy(n int, prefix bool) Expansion {
	return func(x *Index, i int, t string) []Alt {
		var alts []Alt
		if _, ok := x.lookup(t); !ok {
			alts = x.near(t)
		}
		if prefix && i == n-1 {
			alts = append(alts, x.begun(t)...)
		}
		return alts
	}
}

// near is the index's terms within one edit of t (two when t is long),
// each weighed by its distance, in the order of the terms: those the
// index's order holds walked (termOrder.within), the few put since
// looked at one by one.
func (x *Index) near(t string) []Alt {
	n := utf8.RuneCountInString(t)
	if n < minFuzzy {
		return nil
	}
	k := 1
	if n >= longFuzzy {
		k = 2
	}
	a := []rune(t)
	type found struct {
		tid uint32
		e   int
	}
	var got []found
	o := x.ordered()
	o.within(x, a, t, k, func(tid uint32, e int) { got = append(got, found{tid, e}) })
	slices.SortFunc(got, func(p, q found) int { return int(p.tid) - int(q.tid) })
	got = slices.CompactFunc(got, func(p, q found) bool { return p.tid == q.tid }) // within finds some twice
	for tid, u := range x.terms[o.n:] {
		if e, ok := nearOne(a, t, u, k); ok {
			got = append(got, found{uint32(o.n + tid), e})
		}
	}
	var alts []Alt
	for _, f := range got {
		alts = append(alts, Alt{Term: x.terms[f.tid], Weight: []float64{fuzzyOne, fuzzyOne, fuzzyTwo}[f.e]})
	}
	return alts
}

// nearOne is whether term u is near t (a, its runes) within k edits, and
// their distance: what near keeps of one term looked at alone.
func nearOne(a []rune, t, u string, k int) (int, bool) {
	if len(u)-len(t) > 2*k || u == t { // bytes: a folded rune is at most 2
		return 0, false
	}
	return editsWithin(a, u, k)
}

// begun is the shortest maxPrefixed terms t begins (t excluded), then
// in byte order: the run of them in the index's order, and those put
// since it was made.
func (x *Index) begun(t string) []Alt {
	// The order gives them in byte order: of each length, the first
	// maxPrefixed are all that can be kept.
	byLen := map[int][]string{}
	o := x.ordered()
	o.begins(x, t, func(u string) {
		if len(u) > len(t) && len(byLen[len(u)]) < maxPrefixed {
			byLen[len(u)] = append(byLen[len(u)], u)
		}
	})
	var found []string
	for _, us := range byLen {
		found = append(found, us...)
	}
	for _, u := range x.terms[o.n:] {
		if len(u) > len(t) && strings.HasPrefix(u, t) {
			found = append(found, u)
		}
	}
	found = shortest(found, maxPrefixed)
	alts := make([]Alt, 0, len(found))
	for _, u := range found {
		alts = append(alts, Alt{Term: u, Weight: prefixed})
	}
	return alts
}

// shortest is the first n of terms by length, then in byte order.
func shortest(terms []string, n int) []string {
	slices.SortFunc(terms, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	return terms[:min(len(terms), n)]
}

// editsWithin is the edit distance of a and u (Levenshtein, a swap of
// two neighbours counting one), false when it passes k. When u is a stem (at least longFuzzy-2 runes) shorter than a,
// a's letters past u's count for nothing: a typo in a suffix leaves the
// typed word unstemmed (`configuratoin`, not `configur`).
func editsWithin(a []rune, u string, k int) (int, bool) {
	var runes [maxToken]rune // a term's runes, without allocating
	b := runes[:0]
	for _, c := range u {
		b = append(b, c)
	}
	stem := len(b) >= longFuzzy-2 && len(b) < len(a)
	if d := len(a) - len(b); d < -k || d > k && !stem {
		return 0, false
	}
	best := k + 1
	var rows [3][maxToken + 1]int
	prev2, prev, row := rows[0][:0], rows[1][:0], rows[2][:0]
	for range len(b) + 1 {
		prev2, prev, row = append(prev2, 0), append(prev, 0), append(row, 0)
	}
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		row[0] = i
		low := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			row[j] = min(prev[j]+1, row[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				row[j] = min(row[j], prev2[j-2]+1)
			}
			low = min(low, row[j])
		}
		if stem && i >= len(b) || i == len(a) {
			best = min(best, row[len(b)])
		}
		if low > k {
			break
		}
		prev2, prev, row = prev, row, prev2
	}
	return best, best <= k
}

// Read is the terms r reads, each once: the query's known ones and the
// alternatives, in the order they came. A hit's line is the one holding
// the most of them.
func (r *Ranking) Read(x *Index) []string {
	out := make([]string, len(r.terms))
	for i, rt := range r.terms {
		out[i] = x.terms[rt.tid]
	}
	return out
}

// A cover is one distinct term of a query, for Coverage: the terms that
// stand for it (its own when known, then its alternatives) with their
// weights, and its document frequency (0: unknown).
type cover struct {
	tids    []uint32
	weights []float64
	df      int
}

// Coverage is the share of the query's weight that document h matches:
// each distinct query term weighs its IDF (an unknown term the most), and
// counts whole when h holds it, at the weight of the best alternative h
// holds otherwise. 1 when the query has no term.
func (r *Ranking) Coverage(x *Index, h Hit) float64 {
	id, ok := x.byPath[h.Path]
	if !ok || len(r.covers) == 0 {
		return 1
	}
	at := map[uint32]int{}
	for i, rt := range r.terms {
		at[rt.tid] = i
	}
	got, all := 0.0, 0.0
	for _, c := range r.covers {
		idf := math.Log(1 + (float64(x.live)-float64(c.df)+0.5)/(float64(c.df)+0.5))
		all += idf
		best := 0.0
		for k, tid := range c.tids {
			rt := &r.terms[at[tid]]
			e, ok := slices.BinarySearchFunc(rt.entries, id, func(e rankEntry, id uint32) int { return int(e.id) - int(id) })
			if ok && rt.entries[e].kept {
				best = max(best, c.weights[k])
			}
		}
		got += idf * best
	}
	return math.Round(got/all*1e3) / 1e3
}

// Covering is keep that also leaves out the notes covering less than
// least of the query's weight: what Coverage gives each of them, for
// every note r found at once (its terms' entries walked, not looked up).
func (r *Ranking) Covering(x *Index, least float64, keep func(*Meta) bool) func(*Meta) bool {
	if len(r.covers) == 0 { // Coverage is 1
		return keep
	}
	at := map[uint32]int{}
	for i, rt := range r.terms {
		at[rt.tid] = i
	}
	got, best := make([]float64, len(x.docs)), make([]float64, len(x.docs))
	all := 0.0
	var touched []uint32
	for _, c := range r.covers {
		idf := math.Log(1 + (float64(x.live)-float64(c.df)+0.5)/(float64(c.df)+0.5))
		all += idf
		touched = touched[:0]
		for k, tid := range c.tids {
			for _, e := range r.terms[at[tid]].entries {
				if e.kept && c.weights[k] > best[e.id] {
					if best[e.id] == 0 {
						touched = append(touched, e.id)
					}
					best[e.id] = c.weights[k]
				}
			}
		}
		for _, id := range touched { // the others add idf × 0
			got[id] += idf * best[id]
			best[id] = 0
		}
	}
	return func(m *Meta) bool {
		id, ok := x.byPath[m.Path]
		return keep(m) && (!ok || math.Round(got[id]/all*1e3)/1e3 >= least)
	}
}
