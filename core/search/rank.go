package search

import (
	"math"
	"slices"
)

// A Ranking is a query's postings read once, kept to rank the query
// again after a few notes changed without reading them again: per known
// term of the query, every document it found, with its field mask, its
// frequencies and whether the query's filter keeps it. Update drops the
// documents removed since and reads the postings appended since; Top
// then scores only the best documents of the last ranking (candidates)
// and the new ones, when a bound shows that no other document can reach
// the hits (rankBound), and every document otherwise. Every score is
// computed as a fresh ranking computes it: the same operations in the
// same order, so the same bits.
type Ranking struct {
	seq     []uint32 // the query's known terms, in order
	known   bool     // every term of the query is known
	unknown []string // the others: one the index learns since is Ranked anew
	terms   []rankTerm
	epoch   int // the index's (Index.epoch) when the entries were read
	ndocs   int // documents read: those after are read by Update
	logPos  int // Index.removals read
	total   int // the documents found that the filter keeps
	// What the last Top left: its best documents (candidates), the
	// documents found since (added), an upper bound of the score of any
	// other (floor; 0: there is none), and the statistics it scored with.
	cands, added []uint32
	floor        float64
	stats        rankStats
	ranked       bool
	// nterms is the index's term count when an Expansion made r: a term
	// learned since may be an alternative, so Update declines (0: none).
	nterms int
	covers []cover // per distinct query term (Coverage)
}

// rankTerm is one distinct known term of a Ranking: its entries, sorted
// by document, how many of them are live (its document frequency), and
// where its postings end when they were read.
type rankTerm struct {
	tid     uint32
	entries []rankEntry
	df      int
	end     baseEnd
	weight  float64 // 1 for a typed term, an Alt's weight else
}

// rankEntry is one document a term found.
type rankEntry struct {
	id   uint32
	mask byte
	kept bool // the filter keeps it, and it is live
	tf   [NumFields]uint32
}

// rankStats are what a score depends on beyond its document: the fields'
// mean lengths, each term's IDF and their sum (the tiers' bound).
type rankStats struct {
	avg   [NumFields]float64
	idf   []float64
	bound float64
}

// Rank reads the postings of query's terms (Terms of the query) for the
// documents keep accepts.
func (x *Index) Rank(query []string, keep func(*Meta) bool) *Ranking {
	return x.RankExpanded(query, nil, keep)
}

// RankExpanded is Rank where expand (nil: none) gives each query term
// alternatives (expand.go), read as terms of their own at their weight.
// An unknown term with alternatives still counts as unknown: no tier.
func (x *Index) RankExpanded(query []string, expand Expansion, keep func(*Meta) bool) *Ranking {
	r := &Ranking{known: true, epoch: x.epoch, ndocs: len(x.docs), logPos: len(x.removals)}
	if expand != nil {
		r.nterms = len(x.terms)
	}
	seen, covered := map[uint32]bool{}, map[string]bool{}
	for i, t := range query {
		var c cover
		tid, ok := x.lookup(t)
		if !ok {
			r.known, r.unknown = false, append(r.unknown, t)
		} else {
			r.seq = append(r.seq, tid)
			r.add(x, tid, 1, seen, keep)
			c = cover{tids: []uint32{tid}, weights: []float64{1}, df: len(r.terms[r.at(tid)].entries)}
		}
		if expand != nil {
			for _, a := range expand(x, i, t) {
				if id, ok := x.lookup(a.Term); ok {
					r.add(x, id, a.Weight, seen, keep)
					c.tids, c.weights = append(c.tids, id), append(c.weights, a.Weight)
				}
			}
		}
		if !covered[t] {
			covered[t], r.covers = true, append(r.covers, c)
		}
	}
	return r
}

// RankAlts is Rank with a query's other-language terms (Alternatives).
func (x *Index) RankAlts(query []string, alts []Alt, keep func(*Meta) bool) *Ranking {
	return x.RankExpanded(query, Translations(alts), keep)
}

// at is the index in r.terms of term tid, which r reads.
func (r *Ranking) at(tid uint32) int {
	return slices.IndexFunc(r.terms, func(rt rankTerm) bool { return rt.tid == tid })
}

// add reads the postings of term tid at weight, once per term.
func (r *Ranking) add(x *Index, tid uint32, weight float64, seen map[uint32]bool, keep func(*Meta) bool) {
	if seen[tid] {
		return
	}
	seen[tid] = true
	rt := rankTerm{tid: tid, end: baseEnd{uint32(len(x.post[tid])), x.last[tid]}, weight: weight}
	// An entry is 3 bytes at least (delta, mask, a frequency): room for
	// every one, so that no append copies them (a common word finds
	// thousands).
	rt.entries = x.entries(make([]rankEntry, 0, len(x.post[tid])/3), x.post[tid], 0, keep)
	rt.df = len(rt.entries)
	r.terms = append(r.terms, rt)
}

// entries appends to into the live documents of the postings b (which
// follow document last, plus one), each with whether keep accepts it.
func (x *Index) entries(into []rankEntry, b []byte, last uint32, keep func(*Meta) bool) []rankEntry {
	postingsFrom(b, last, func(id uint32, mask byte, tf *[NumFields]uint32) {
		if int(id) < len(x.docs) && !x.docs[id].dead {
			into = append(into, rankEntry{id: id, mask: mask, kept: keep(&x.docs[id].Meta), tf: *tf})
		}
	})
	return into
}

// Update brings r up to date with x after notes changed, keep being the
// filter r was made with: the documents removed since leave it, the
// postings appended since are read; it costs what changed. false when x
// was compacted since (its documents renumbered) or a term of the query
// it did not know it knows now: Rank again.
func (r *Ranking) Update(x *Index, keep func(*Meta) bool) bool {
	if r.epoch != x.epoch || r.logPos > len(x.removals) || r.nterms != 0 && r.nterms != len(x.terms) {
		return false
	}
	for _, t := range r.unknown {
		if _, ok := x.lookup(t); ok {
			return false
		}
	}
	counted := map[uint32]bool{}
	for _, id := range x.removals[r.logPos:] {
		for i := range r.terms {
			rt := &r.terms[i]
			k, ok := findEntry(rt.entries, id)
			if ok && int(id) < r.ndocs && rt.entries[k].mask != 0 {
				counted[id] = counted[id] || rt.entries[k].kept
				rt.entries[k].mask, rt.entries[k].kept = 0, false // gone: mask 0
				rt.df--
			}
		}
	}
	r.total -= countTrue(counted)
	clear(counted)
	for i := range r.terms {
		rt := &r.terms[i]
		n := len(rt.entries)
		rt.entries = x.entries(rt.entries, x.post[rt.tid][rt.end.off:], rt.end.last, keep)
		for _, e := range rt.entries[n:] {
			if e.kept && !counted[e.id] {
				counted[e.id] = true
				r.added = append(r.added, e.id)
			}
		}
		rt.df += len(rt.entries) - n
		rt.end = baseEnd{uint32(len(x.post[rt.tid])), x.last[rt.tid]}
	}
	r.total += len(counted)
	r.ndocs, r.logPos = len(x.docs), len(x.removals)
	return true
}

func countTrue(m map[uint32]bool) int {
	n := 0
	for _, v := range m {
		if v {
			n++
		}
	}
	return n
}

// statsOf is the statistics r's documents are scored with in x now.
func (r *Ranking) statsOf(x *Index) rankStats {
	var s rankStats
	for f := range NumFields {
		s.avg[f] = max(float64(x.sumLen[f])/float64(x.live), 1)
	}
	for _, rt := range r.terms {
		idf := rt.weight * math.Log(1+(float64(x.live)-float64(rt.df)+0.5)/(float64(rt.df)+0.5))
		s.idf = append(s.idf, idf)
		s.bound += idf
	}
	return s
}

// weight is a term's BM25F weight in document d, before saturation.
func weight(e *rankEntry, d *doc, avg *[NumFields]float64) float64 {
	w := 0.0
	for f := range NumFields {
		if e.tf[f] > 0 {
			w += weights[f] * float64(e.tf[f]) / (1 - norms[f] + norms[f]*float64(d.lens[f])/avg[f])
		}
	}
	return w
}

// Top ranks r's documents as Index.Top does, and returns the first limit
// hits and the number of documents found.
func (r *Ranking) Top(x *Index, limit int) ([]Hit, int) {
	if x.live == 0 || len(r.seq) == 0 && r.known {
		return nil, 0
	}
	s := r.statsOf(x)
	if r.ranked {
		if hits, ok := r.again(x, limit, &s); ok {
			return hits, r.total
		}
	}
	return r.all(x, limit, &s)
}

// all scores every document r found.
func (r *Ranking) all(x *Index, limit int, s *rankStats) ([]Hit, int) {
	sc := x.getScores()
	defer x.putScores(sc)
	score, masks := sc.score, sc.masks // masks: 0, not found (a posting has a field)
	var found []uint32
	for i, rt := range r.terms {
		idf := s.idf[i]
		for k := range rt.entries {
			e := &rt.entries[k]
			if !e.kept {
				continue
			}
			w := weight(e, &x.docs[e.id], &s.avg)
			if masks[e.id] == 0 {
				found = append(found, e.id)
			}
			score[e.id] += idf * w / (k1 + w)
			masks[e.id] |= e.mask
		}
	}
	for _, id := range found {
		if r.known && masks[id]&designations != 0 {
			score[id] += float64(tier(x.docs[id].phrases, r.seq)) * s.bound
		}
	}
	r.keepBest(found, score, limit, s)
	for _, id := range found {
		score[id] = math.Round(score[id]*1e4) / 1e4
	}
	r.total = len(found)
	sc.found = found
	return x.hits(first(found, limit, score, x.byScore(score)), score, masks), len(found)
}

// scores are the per-document arrays all scores in, zero but for the
// documents found: a query at 50,000 notes allocated and cleared 450 KB
// of them, half of what it allocated (and in the wasm engine, whose
// collector runs on the one thread, allocations cost their collection).
// The index keeps them for its next query (Index.scores).
type scores struct {
	score []float64
	masks []byte
	found []uint32 // the documents whose entries are set
}

// getScores returns the index's scores, for every document and all zero.
func (x *Index) getScores() *scores {
	sc := x.scores
	x.scores = nil // a ranking during this one makes its own
	if sc == nil || len(sc.score) < len(x.docs) {
		sc = &scores{score: make([]float64, len(x.docs)), masks: make([]byte, len(x.docs))}
	}
	return sc
}

// putScores zeroes the entries of the documents found and keeps sc for
// the index's next query.
func (x *Index) putScores(sc *scores) {
	for _, id := range sc.found {
		sc.score[id], sc.masks[id] = 0, 0
	}
	sc.found = nil
	x.scores = sc
}

// hits makes the hits of the documents top.
func (x *Index) hits(top []uint32, score []float64, masks []byte) []Hit {
	hits := make([]Hit, len(top))
	for k, id := range top {
		hits[k] = Hit{Meta: &x.docs[id].Meta, Score: score[id], Matched: fieldNames(masks[id])}
	}
	return hits
}

// candidates is how many of the best documents a ranking keeps to rank
// again: many times the hits, so that a few changes leave enough, and the
// best of the others (the floor) falls short of the last hit by more than
// the bound's growth even where thousands of notes score alike. Each
// costs a binary search per term when ranked again.
func candidates(limit int) int { return 16*min(limit, 1<<24) + 256 }

// keepBest records the best candidates(limit) of found by their
// unrounded scores, the best score of the others (floor), and s.
func (r *Ranking) keepBest(found []uint32, score []float64, limit int, s *rankStats) {
	n := candidates(limit)
	h := &minScores{ids: make([]uint32, 0, min(n, len(found))), score: score}
	r.floor = 0
	for _, id := range found {
		switch {
		case h.Len() < n:
			h.push(id)
		case score[id] > score[h.ids[0]]:
			r.floor = max(r.floor, score[h.ids[0]])
			h.ids[0] = id
			h.fix(0)
		default:
			r.floor = max(r.floor, score[id])
		}
	}
	r.cands, r.added, r.stats, r.ranked = h.ids, nil, *s, true
}

// minScores is a heap of documents, the lowest score on top: what
// container/heap does, the same steps in the same order, written out for
// uint32 ids (through heap.Interface, each id pushed was boxed and each
// comparison a call).
type minScores struct {
	ids   []uint32
	score []float64
}

func (h *minScores) Len() int           { return len(h.ids) }
func (h *minScores) less(i, j int) bool { return h.score[h.ids[i]] < h.score[h.ids[j]] }

// push is heap.Push of id.
func (h *minScores) push(id uint32) {
	h.ids = append(h.ids, id)
	h.up(len(h.ids) - 1)
}

// fix is heap.Fix at i.
func (h *minScores) fix(i int) {
	if !h.down(i, len(h.ids)) {
		h.up(i)
	}
}

func (h *minScores) up(j int) {
	for {
		i := (j - 1) / 2 // parent
		if i == j || !h.less(j, i) {
			break
		}
		h.ids[i], h.ids[j] = h.ids[j], h.ids[i]
		j = i
	}
}

func (h *minScores) down(i0, n int) bool {
	i := i0
	for {
		j1 := 2*i + 1
		if j1 >= n || j1 < 0 {
			break
		}
		j := j1 // left child
		if j2 := j1 + 1; j2 < n && h.less(j2, j1) {
			j = j2 // right child
		}
		if !h.less(j, i) {
			break
		}
		h.ids[i], h.ids[j] = h.ids[j], h.ids[i]
		i = j
	}
	return i > i0
}

// again scores the candidates and the documents found since alone, when
// no other document can reach the hits: every other one's score is at
// most the floor grown by rankGrowth, which must fall short of the last
// hit's by more than a rounding. false otherwise: Top scores them all.
func (r *Ranking) again(x *Index, limit int, s *rankStats) ([]Hit, bool) {
	floor := r.floor * r.growth(s) * (1 + 1e-9)
	var ids []uint32
	var score []float64
	var masks []byte
	for _, id := range slices.Concat(r.cands, r.added) {
		if x.docs[id].dead {
			continue
		}
		if sc, mask := r.scoreOf(x, id, s); mask != 0 {
			ids, score, masks = append(ids, id), append(score, sc), append(masks, mask)
		}
	}
	rounded := make([]float64, len(score))
	local := make([]uint32, len(ids))
	for i, sc := range score {
		rounded[i], local[i] = math.Round(sc*1e4)/1e4, uint32(i)
	}
	top := first(local, limit, rounded, func(i, j uint32) int { return compareHits(rounded[i], rounded[j], &x.docs[ids[i]], &x.docs[ids[j]]) })
	if floor > 0 && (len(top) < limit || floor+0.5e-4 >= rounded[top[len(top)-1]]) {
		return nil, false
	}
	hits := make([]Hit, len(top))
	for k, i := range top {
		hits[k] = Hit{Meta: &x.docs[ids[i]].Meta, Score: rounded[i], Matched: fieldNames(masks[i])}
	}
	r.cands, r.added, r.floor, r.stats = ids, nil, floor, *s
	return hits, true
}

// growth is how much any document's score, unchanged itself, can have
// grown since r.stats: a field's length normalisation grows its weight
// at most by the ratio of its mean lengths, saturation grows no more than
// the weight, each term's part at most by the ratio of its IDFs, and the
// tiers' part by the ratio of their bounds.
func (r *Ranking) growth(s *rankStats) float64 {
	hi, q := 1.0, 0.0
	for f := range NumFields {
		hi = max(hi, s.avg[f]/r.stats.avg[f])
	}
	for i, idf := range s.idf {
		q = max(q, idf/r.stats.idf[i])
	}
	g := hi * q
	if r.stats.bound > 0 {
		g = max(g, s.bound/r.stats.bound)
	}
	return g
}

// scoreOf is document id's score (unrounded) and field mask (0: not
// found, or not kept), as all computes them.
func (r *Ranking) scoreOf(x *Index, id uint32, s *rankStats) (float64, byte) {
	sc, mask := 0.0, byte(0)
	d := &x.docs[id]
	for i := range r.terms {
		rt := &r.terms[i]
		k, ok := findEntry(rt.entries, id)
		if !ok || !rt.entries[k].kept {
			continue
		}
		w := weight(&rt.entries[k], d, &s.avg)
		sc += s.idf[i] * w / (k1 + w)
		mask |= rt.entries[k].mask
	}
	if r.known && mask&designations != 0 {
		sc += float64(tier(d.phrases, r.seq)) * s.bound
	}
	return sc, mask
}

// findEntry is where document id is in entries (sorted by document), and
// whether it is there: a binary search written out, since a ranking after
// a change looks every candidate up in every term's entries (with
// slices.BinarySearchFunc, its comparison a call, this was a third of a
// search's core time right after an archive at 50,000 notes).
func findEntry(entries []rankEntry, id uint32) (int, bool) {
	lo, hi := 0, len(entries)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if entries[m].id < id {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(entries) && entries[lo].id == id
}
