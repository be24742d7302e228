package search

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"
)

// A termOrder is the index's first n terms in byte order, made once per
// index and kept with it (Index.ordered), so that a typo's or a prefix's
// lookup walks a few of them, not every one: the terms a prefix begins
// are a run of it, and the terms within k edits of a word lie under the
// few prefixes within k edits of one of its prefixes (within). Terms are
// only appended to an index, until Compact renumbers them: the terms
// after the first n are looked at one by one, and the order is made
// again once they are more than orderSlack.
type termOrder struct {
	epoch int
	n     int
	ids   []uint32 // nil: x.terms[:n] are sorted themselves (a decoded index's)
	// What within walks, made on its first call: the terms in order one
	// after the other in blob, the i-th at blob[offs[i]:offs[i+1]] (a
	// walk reads memory in a row, not strings strewn over the heap), and
	// lcp[i], how many bytes it shares with the one before (at most 255).
	blob []byte
	offs []uint32
	lcp  []uint8
	// lcpMin[b] is the least of lcp[b*lcpBlock:][:lcpBlock] (past).
	lcpMin []uint8
	// next[n-1][i] is the first place from i on whose lcp is below n,
	// for n up to nextBytes: past in one step where a walk prunes most,
	// near the root.
	next [nextBytes][]uint32
	// shifts[k] are the terms by their runes past splits[k]+1 (shifted),
	// sorted by key, made on its first call for k.
	shifts [3][]shift
}

// orderSlack is how many terms put since the order was made are looked
// at one by one before it is made again (a merge of theirs into it).
const orderSlack = 1024

// ordered returns the order of x's terms, made or brought up to date
// when it lags more than orderSlack terms behind.
func (x *Index) ordered() *termOrder {
	o := x.order
	if o != nil && o.epoch == x.epoch && len(x.terms)-o.n <= orderSlack {
		return o
	}
	if o == nil || o.epoch != x.epoch {
		o = &termOrder{epoch: x.epoch, n: min(x.sorted, len(x.terms))}
		if len(x.terms)-o.n <= orderSlack {
			x.order = o
			return o
		}
	}
	tail := make([]uint32, 0, len(x.terms)-o.n)
	for id := o.n; id < len(x.terms); id++ {
		tail = append(tail, uint32(id))
	}
	byTerm := func(a, b uint32) int { return strings.Compare(x.terms[a], x.terms[b]) }
	slices.SortFunc(tail, byTerm)
	ids := make([]uint32, 0, len(x.terms))
	i := 0
	for _, id := range tail {
		for ; i < o.n && byTerm(o.id(i), id) < 0; i++ {
			ids = append(ids, o.id(i))
		}
		ids = append(ids, id)
	}
	for ; i < o.n; i++ {
		ids = append(ids, o.id(i))
	}
	x.order = &termOrder{epoch: x.epoch, n: len(x.terms), ids: ids}
	return x.order
}

// id is the term id of the i-th term in order.
func (o *termOrder) id(i int) uint32 {
	if o.ids == nil {
		return uint32(i)
	}
	return o.ids[i]
}

// from is the first place in order, from lo on, whose term fails ok
// (ok holds of a run from lo, then never): a gallop, then a binary search.
func (o *termOrder) from(x *Index, lo int, ok func(string) bool) int {
	step, hi := 1, lo
	for hi < o.n && ok(x.terms[o.id(hi)]) {
		lo, hi, step = hi+1, hi+step, step*2
	}
	hi = min(hi, o.n)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ok(x.terms[o.id(m)]) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// begins calls fn with each term in order that t begins (t included),
// in byte order.
func (o *termOrder) begins(x *Index, t string, fn func(u string)) {
	lo := o.from(x, 0, func(u string) bool { return u < t })
	for i := lo; i < o.n; i++ {
		u := x.terms[o.id(i)]
		if !strings.HasPrefix(u, t) {
			return
		}
		fn(u)
	}
}

// A walk is within's state: the edit distances (optimal string
// alignment, editsWithin's) of every prefix of the query a to the
// prefixes of the term it is at: rows[d][i] is that of a[:i] and the
// term's first d runes, ends[d] bytes long; eqs[d] is where the term's
// rune at depth d is in a (bit i: a[i] is that rune), which the rows
// are filled from instead of the runes themselves.
type walk struct {
	a []rune
	k int
	// split: rows up to this depth are pruned above k-1, not k (within).
	split int
	rows  [][]int
	eqs   []uint64
	ends  []int
	// lows[d] is the least cell of rows[d] (row 0's: 0): a rune that is
	// nowhere in a takes the next row's least cell one above it (down).
	lows  []int
	ascii [utf8.RuneSelf]uint64 // eq of each ASCII rune
}

// maxWalked is the longest query term, in runes, within walks (a's
// places fit in a uint64's bits): a longer one is compared with every
// term alone (nearOne).
const maxWalked = 64

// newWalk is the walk of a within k edits: rows for terms of up to
// maxToken runes (longer ones get theirs as they come), row 0 filled.
func newWalk(a []rune, k int) *walk {
	w := &walk{a: a, k: k, split: splits[k]}
	w.rows = make([][]int, 1, maxToken+1)
	cells := make([]int, (maxToken+1)*(len(a)+1))
	for d := range cap(w.rows) {
		w.rows = w.rows[:d+1]
		w.rows[d] = cells[d*(len(a)+1) : (d+1)*(len(a)+1)]
	}
	w.eqs, w.ends, w.lows = make([]uint64, len(w.rows)), make([]int, len(w.rows)+1), make([]int, len(w.rows))
	for i := range w.rows[0] {
		w.rows[0][i] = i
	}
	for i, r := range a {
		if r < utf8.RuneSelf {
			w.ascii[r] |= 1 << i
		}
	}
	return w
}

// eq is where rune r is in a (bit i: a[i] is r).
func (w *walk) eq(r rune) uint64 {
	if r < utf8.RuneSelf {
		return w.ascii[r]
	}
	var m uint64
	for i, c := range w.a {
		if c == r {
			m |= 1 << i
		}
	}
	return m
}

// within calls fn with the id and the distance (editsWithin's) of every
// term in order within k edits of a (the query term t's runes), as near
// keeps them, in no particular order, some twice. The terms are walked as a
// trie's paths: a term shares its rows with the one before for their
// common prefix, and once a prefix's row is all above k, no term it
// begins can come within k (a row's least cell never drops by more than
// one a rune, a swap included), so they are skipped. But no row of k
// runes or fewer is above k: every term's first runes would be walked.
// So the terms are parted at splits[k] runes: those whose row there is
// within k-1 are walked, pruned above k-1 until then, and the others,
// whose rows are at k from there on, have no edit past it (shifted).
func (o *termOrder) within(x *Index, a []rune, t string, k int, fn func(tid uint32, e int)) {
	if len(a) > maxWalked {
		for i := range o.n {
			if e, ok := nearOne(a, t, x.terms[o.id(i)], k); ok {
				fn(o.id(i), e)
			}
		}
		return
	}
	o.walkable(x)
	lcp := o.lcp
	w := newWalk(a, k)
	o.shifted(x, a, t, k, fn)
	depth := 0
	for i := 0; i < o.n; {
		u := o.blob[o.offs[i]:o.offs[i+1]]
		for depth > 0 && w.ends[depth] > int(lcp[i]) {
			depth--
		}
		if w.skips(u, depth) { // down would prune the next row
			depth++
			i = o.past(i+1, w.ends[depth])
			continue
		}
		d, pruned := w.down(u, depth)
		depth = d
		if pruned {
			i = o.past(i+1, w.ends[d])
			continue
		}
		if e, ok := w.leaf(u, t, d); ok {
			fn(o.id(i), e)
		}
		i++
	}
}

// splits are where within parts the terms, by k. A term within k edits
// of a whose row at splits[k] runes is at k has no edit past it, but
// for a swap across it: its runes from splits[k]+1 on are then a's from
// one of splits[k]+1-k … splits[k]+1+k on, up to the term's end; they
// are not none, as a term within k is at least longFuzzy-2 runes long
// at two edits, minFuzzy-1 at one.
var splits = [3]int{0, 1, 3}

// A shift is a term in shifted's list: its first three runes after its
// first splits[k]+1 (shiftKey), its id, and the bytes of those first
// runes.
type shift struct {
	key uint64
	tid uint32
	off uint8
}

// shiftKey packs up to three runes, 21 bits each (0: none, past the
// term's end; no term holds a NUL).
func shiftKey(rs ...rune) uint64 {
	var key uint64
	for i := range 3 {
		key <<= 21
		if i < len(rs) {
			key |= uint64(rs[i])
		}
	}
	return key
}

// shifted calls fn with the terms within k edits of a (t's runes) whose
// runes past splits[k]+1 begin a from one of a few runes on (within):
// the terms listed by their next three runes, or fewer when they end
// there (o.shifts, made on the first call for k), each then looked at
// alone.
func (o *termOrder) shifted(x *Index, a []rune, t string, k int, fn func(tid uint32, e int)) {
	sp := splits[k]
	list := o.listShifts(x, k)
	at := make([]int, 0, len(a)+1) // the byte offset of each rune of t
	for i := range t {
		at = append(at, i)
	}
	at = append(at, len(t))
	for j := sp + 1 - k; j <= sp+1+k && j < len(a); j++ {
		for n := 1; n <= 3 && j+n <= len(a); n++ {
			if nb := sp + 1 + n; n < 3 && !mayNear(nb, len(a), k) {
				continue // the terms that end there are too short
			}
			key := shiftKey(a[j : j+n]...)
			i, _ := slices.BinarySearchFunc(list, key, func(s shift, key uint64) int { return cmp.Compare(s.key, key) })
			for ; i < len(list) && list[i].key == key; i++ {
				u := x.terms[list[i].tid]
				if !strings.HasPrefix(t[at[j]:], u[list[i].off:]) {
					continue
				}
				if e, ok := nearOne(a, t, u, k); ok {
					fn(list[i].tid, e)
				}
			}
		}
	}
}

// mayNear reports whether a term of nb runes may be within k edits of a
// word of na (editsWithin's lengths, a stem's included).
func mayNear(nb, na, k int) bool {
	return nb >= na-k && nb <= na+k || nb >= longFuzzy-2 && nb < na
}

// listShifts returns o.shifts[k], made on the first call.
func (o *termOrder) listShifts(x *Index, k int) []shift {
	if o.shifts[k] != nil {
		return o.shifts[k]
	}
	list := make([]shift, 0, o.n)
	for i := range o.n {
		tid := o.id(i)
		u, off := x.terms[tid], 0
		for range splits[k] + 1 {
			_, size := utf8.DecodeRuneInString(u[off:])
			off += size
		}
		if off == len(u) {
			continue // too short to be near
		}
		var rs [3]rune
		n := 0
		for p := off; p < len(u) && n < 3; n++ {
			r, size := utf8.DecodeRuneInString(u[p:])
			rs[n], p = r, p+size
		}
		list = append(list, shift{shiftKey(rs[:n]...), tid, uint8(off)})
	}
	o.shifts[k] = sortShifts(list)
	return o.shifts[k]
}

// sortShifts sorts list by key: a radix sort, 16 bits a pass (a
// comparison sort of 100,000 shifts is most of what the first lookup
// costs on wasm).
func sortShifts(list []shift) []shift {
	tmp := make([]shift, len(list))
	for shiftBits := 0; shiftBits < 64; shiftBits += 16 {
		var count [1 << 16]int
		for _, s := range list {
			count[s.key>>shiftBits&0xffff]++
		}
		sum := 0
		for i, c := range count {
			count[i], sum = sum, sum+c
		}
		for _, s := range list {
			d := s.key >> shiftBits & 0xffff
			tmp[count[d]] = s
			count[d]++
		}
		list, tmp = tmp, list
	}
	return list
}

// past is the first place from i on whose term shares fewer than n
// bytes with the one before: blocks of lcpBlock terms that all share n
// or more are passed at once.
func (o *termOrder) past(i, n int) int {
	if n >= 1 && n <= nextBytes {
		if i >= o.n {
			return o.n
		}
		return int(o.next[n-1][i])
	}
	for i < o.n {
		if i%lcpBlock == 0 && int(o.lcpMin[i/lcpBlock]) >= n {
			i += lcpBlock
			continue
		}
		if int(o.lcp[i]) < n {
			return i
		}
		i++
	}
	return o.n
}

// lcpBlock is how many terms of the order lcpMin holds the least lcp of.
const lcpBlock = 32

// nextBytes is how many shared bytes termOrder.next knows the end of a
// run for (a walk pruned that near the root passes thousands of terms).
const nextBytes = 4

// walkable makes o's blob, offs, lcp and lcpMin, on the first call.
func (o *termOrder) walkable(x *Index) {
	if o.offs != nil {
		return
	}
	size := 0
	for i := range o.n {
		size += len(x.terms[o.id(i)])
	}
	o.blob, o.offs, o.lcp = make([]byte, 0, size), make([]uint32, 0, o.n+1), make([]uint8, o.n)
	var prev []byte
	for i := range o.n {
		o.offs = append(o.offs, uint32(len(o.blob)))
		o.blob = append(o.blob, x.terms[o.id(i)]...)
		u := o.blob[o.offs[i]:]
		n := 0
		for n < min(len(u), len(prev), 255) && u[n] == prev[n] {
			n++
		}
		o.lcp[i], prev = uint8(n), u
	}
	o.offs = append(o.offs, uint32(len(o.blob)))
	o.lcpMin = make([]uint8, (o.n+lcpBlock-1)/lcpBlock)
	for i, l := range o.lcp {
		if i%lcpBlock == 0 || l < o.lcpMin[i/lcpBlock] {
			o.lcpMin[i/lcpBlock] = l
		}
	}
	for n := range nextBytes {
		next, at := make([]uint32, o.n), uint32(o.n)
		for i := o.n - 1; i >= 0; i-- {
			if int(o.lcp[i]) <= n {
				at = uint32(i)
			}
			next[i] = at
		}
		o.next[n] = next
	}
}

// down fills the rows of u's runes past the first d, and returns the
// depth reached: u's length in runes, or the first whose row is all
// above k (pruned). A row is filled within k cells of its depth (a cell
// further is above k) and k+1 put either side: a cell within k is
// exact, a cell above k is above k.
func (w *walk) down(u []byte, d int) (int, bool) {
	na, k := len(w.a), w.k
	for w.ends[d] < len(u) {
		r, size := rune(u[w.ends[d]]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(u[w.ends[d]:])
		}
		if len(w.rows) == d+1 {
			w.rows = append(w.rows, make([]int, na+1))
			w.eqs, w.ends, w.lows = append(w.eqs, 0), append(w.ends, 0), append(w.lows, 0)
		}
		eq := w.eq(r)
		w.eqs[d], w.ends[d+1] = eq, w.ends[d]+size
		if eq == 0 && w.lows[d] >= w.bound(d+1) {
			// Every cell the next row takes is at least lows[d] (or d, or
			// k+1, each as large) plus one, as no cell of a matches r and
			// no swap ends at r: that row is pruned.
			return d + 1, true
		}
		// bit i-1 of swaps: a[i-1] is the rune before and a[i-2] this one.
		var swaps uint64
		if d > 0 {
			swaps = w.eqs[d-1] & (eq << 1)
		}
		up, row := w.rows[d], w.rows[d+1]
		lo, hi := max(1, d+1-k), min(na, d+1+k)
		row[lo-1] = k + 1
		row[0] = d + 1
		if hi < na {
			row[hi+1] = k + 1
		}
		low := row[0]
		for i := lo; i <= hi; i++ {
			c := min(up[i], row[i-1]) + 1
			if eq>>(i-1)&1 != 0 {
				c = min(c, up[i-1])
			} else {
				c = min(c, up[i-1]+1)
			}
			if i > 1 && swaps>>(i-1)&1 != 0 {
				c = min(c, w.rows[d-1][i-2]+1)
			}
			row[i] = c
			low = min(low, c)
		}
		d++
		w.lows[d] = low
		if low > w.bound(d) {
			return d, true
		}
	}
	return d, false
}

// skips reports whether down(u, d) would prune the row of depth d+1 at
// once, its rune being an ASCII one nowhere in a (down's first test), and
// then records that row's end as down does: within passes the term
// without a call (this is inlined; a call costs in Go's wasm code).
func (w *walk) skips(u []byte, d int) bool {
	e := w.ends[d]
	if e == len(u) || d+1 >= len(w.rows) || u[e] >= utf8.RuneSelf || w.ascii[u[e]] != 0 || w.lows[d] < w.bound(d+1) {
		return false
	}
	w.ends[d+1] = e + 1
	return true
}

// bound is the most a row of depth d may hold in its least cell and not
// be pruned: k-1 down to the split, k past it.
func (w *walk) bound(d int) int {
	if d <= w.split {
		return w.k - 1
	}
	return w.k
}

// leaf is editsWithin(a, u, k) from the rows of u, d runes long, and
// near's own test (a term much longer than t in bytes, or t itself, is
// left out).
func (w *walk) leaf(u []byte, t string, d int) (int, bool) {
	na, k := len(w.a), w.k
	if len(u)-len(t) > 2*k || string(u) == t {
		return 0, false
	}
	stem := d >= longFuzzy-2 && d < na
	if diff := na - d; diff < -k || diff > k && !stem {
		return 0, false
	}
	best := w.rows[d][na]
	if stem {
		best = slices.Min(w.rows[d][d : min(na, d+k)+1]) // the cells further are above k
	}
	return best, best <= k
}
