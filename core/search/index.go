package search

import (
	"encoding/binary"
	"maps"
	"slices"
	"sort"
	"strings"
)

// BM25F's parameters: each field's weight (designations several times the
// body) and length normalisation, and the saturation k1.
var (
	weights = [NumFields]float64{6, 6, 5, 6, 3, 1}
	norms   = [NumFields]float64{0.3, 0.3, 0.3, 0.3, 0.5, 0.75}
)

const k1 = 1.2

// designations is the bit mask of every field but the body.
const designations = 1<<FieldBody - 1

// Index is the inverted index of a vault's notes. Postings are compact:
// per term, one byte string of (document delta, field mask, term frequency
// per field) varints, appended as documents come, so that no body is kept.
// A document replaced or removed is a tombstone until Compact drops it;
// scores count live documents only, so an index brought up to date gives
// the scores a fresh build gives.
type Index struct {
	docs   []doc
	live   int
	sumLen [NumFields]uint64
	terms  []string
	// sorted is how many of the first terms are sorted (a decoded
	// index's): they are looked up by a binary search, the others in
	// dict, so that a decoded index that is given a few notes builds no
	// map of every term.
	sorted int
	dict   map[string]uint32 // the terms after the sorted ones; nil until one is made
	post   [][]byte
	last   []uint32 // per term: the last document id in post, plus one
	byPath map[string]uint32
	// words maps a folded word to its term id (-1: a stopword), mark and
	// cur count the note being put; none of them is encoded.
	words map[string]int64
	// misses are the words a Matcher found no term of (match.go); not
	// encoded.
	misses wordMisses
	mark   []int32
	cur    []counted
	buf    []byte // scanWords' buffer
	// stems stems the words of the notes put (UseStems); nil: the index's
	// words alone keep them.
	stems *Stems
	// follow holds what Follow made, kept up to date note by note.
	follow map[string]Follower
	// cut is the live notes indexed by their head (Meta.Cut).
	cut map[string]bool
	// epoch counts the compactions, which renumber the documents: a
	// Ranking of another epoch is made again. removals are the documents
	// removed since the last one, in order: a Ranking drops them.
	epoch    int
	removals []uint32
	// Listing is the digest of the notes' listing (search.Carry.Listing)
	// the index is up to date with, "" when unknown: any change to the
	// index clears it, and the caller sets it once the index is up to
	// date. It is encoded, and read by ID, so that a host whose listing
	// did not change sends the stored index without the notes' versions.
	Listing string
	// Changed reports whether the index changed since it was made or
	// decoded: the host should store it again.
	Changed bool
	// unhanded counts the changes (a note put or removed: a changed note
	// is both) since the index was last handed back (Hand): see Unhanded.
	unhanded int
	// order is the terms in byte order, for typos and prefixes (order.go),
	// made on the first one's lookup; not encoded.
	order *termOrder
	// seg is what the host stores of the index: the base it was decoded
	// from or last handed back whole, and what changed since (segment.go).
	seg segments
	// scores is the per-document arrays of the last query, kept zeroed
	// for the next one (rank.go); not encoded. A query, like Put, is not
	// safe for concurrent use with the index.
	scores *scores
}

// A query reads a found document's lens and dead, which come first: one
// cache line of each, of the thousands a common word finds.
type doc struct {
	lens [NumFields]uint32
	dead bool
	Meta
	phrases [][]uint32 // designations' phrases, as term ids
	links   []string   // Note.Links
}

// UseStems makes the index stem the words of the notes it is given
// through s, the caller's cache of stems (nil: none).
func (x *Index) UseStems(s *Stems) { x.stems = s }

// New returns an empty index.
func New() *Index {
	return &Index{byPath: map[string]uint32{}, dict: map[string]uint32{}}
}

// Stale compares the index with listing (every note's path and Key):
// notes no longer listed are removed, and the paths listed whose Key
// differs from the indexed one, or that are not indexed, are returned,
// sorted: the notes to read and Put.
func (x *Index) Stale(listing map[string]string) []string {
	return x.StaleSorted(listing, nil)
}

// StaleSorted is Stale for a listing whose paths sorted holds in byte
// order (wire.Carry.Sorted: every key of listing once; nil when none
// is known): the stale notes are taken in that order, not sorted (a
// third of a second at 100,000 notes on wasm).
func (x *Index) StaleSorted(listing map[string]string, sorted []string) []string {
	var gone []string
	for p := range x.byPath {
		if _, ok := listing[p]; !ok {
			gone = append(gone, p)
		}
	}
	for _, p := range gone {
		x.Remove(p)
	}
	var stale []string
	if len(sorted) == len(listing) {
		for _, p := range sorted {
			if id, ok := x.byPath[p]; !ok || x.docs[id].Key != listing[p] {
				stale = append(stale, p)
			}
		}
		return stale
	}
	for p, key := range listing {
		if id, ok := x.byPath[p]; !ok || x.docs[id].Key != key {
			stale = append(stale, p)
		}
	}
	sort.Strings(stale)
	return stale
}

// Remove drops the note at p, if indexed.
func (x *Index) Remove(p string) {
	id, ok := x.byPath[p]
	if !ok {
		return
	}
	d := &x.docs[id]
	for _, f := range x.follow {
		f.Remove(&d.Meta, d.links)
	}
	delete(x.cut, p)
	d.dead = true
	d.phrases, d.links = nil, nil
	x.seg.removed(id)
	x.removals = append(x.removals, id)
	x.live--
	for f := range NumFields {
		x.sumLen[f] -= uint64(d.lens[f])
	}
	delete(x.byPath, p)
	x.changed()
}

// changed records a change of the notes indexed: the index is to be
// stored again, and the listing it is up to date with is unknown.
func (x *Index) changed() {
	x.Changed, x.Listing = true, ""
	x.unhanded++
}

// Unhanded is how many changes (a note put or removed; a changed note is
// both) the index holds that it did not hand back (Hand) since it was
// made or decoded: what a host that stored it last lacks.
func (x *Index) Unhanded() int { return x.unhanded }

// A Follower is something made of the index's notes that a change of
// one note changes by that note alone (Follow): Put is told of each note
// put, Remove of each note removed, before it goes.
type Follower interface {
	Put(m *Meta, links []string)
	Remove(m *Meta, links []string)
}

// Follow returns what make returns, made once (make walks the notes)
// under key, then kept up to date with every change of the index: a
// warm index answers the next calls without walking its documents again,
// whatever changed.
func (x *Index) Follow(key string, make func() Follower) Follower {
	if f, ok := x.follow[key]; ok {
		return f
	}
	if x.follow == nil {
		x.follow = map[string]Follower{}
	}
	f := make()
	x.follow[key] = f
	return f
}

// Links calls fn with the path and Note.Links of every live note that
// has links, in no particular order.
func (x *Index) Links(fn func(path string, links []string)) {
	for i := range x.docs {
		if d := &x.docs[i]; !d.dead && len(d.links) > 0 {
			fn(d.Path, d.links)
		}
	}
}

// Cut returns the paths of the live notes only the head of which is
// indexed (Meta.Cut), sorted.
func (x *Index) Cut() []string {
	return slices.Sorted(maps.Keys(x.cut))
}

// IsCut reports whether the note at p is indexed by its head alone
// (Meta.Cut).
func (x *Index) IsCut(p string) bool {
	id, ok := x.byPath[p]
	return ok && x.docs[id].Cut
}

// Key returns the Key of the note indexed at p, if any.
func (x *Index) Key(p string) (string, bool) {
	if id, ok := x.byPath[p]; ok {
		return x.docs[id].Key, true
	}
	return "", false
}

// Paths returns the paths of the live notes, sorted.
func (x *Index) Paths() []string {
	out := make([]string, 0, x.live)
	for p := range x.byPath {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Put indexes n, replacing the note at its path unless it has the same Key.
func (x *Index) Put(n Note) {
	if id, ok := x.byPath[n.Path]; ok {
		if x.docs[id].Key == n.Key {
			return
		}
		x.Remove(n.Path)
	}
	x.ensureDict()
	id := uint32(len(x.docs))
	d := doc{Meta: n.Meta, links: n.Links}
	x.cur = x.cur[:0]
	for f := range NumFields {
		for _, phrase := range n.Fields[f] {
			var seq []uint32
			x.buf = scanWords(phrase, x.buf, func(w []byte) {
				tid, ok := x.word(w)
				if !ok {
					return
				}
				j := x.mark[tid]
				if j == 0 {
					x.cur = append(x.cur, counted{tid: tid})
					j = int32(len(x.cur))
					x.mark[tid] = j
				}
				x.cur[j-1].c[f]++
				d.lens[f]++
				if f != FieldBody {
					seq = append(seq, tid)
				}
			})
			if len(seq) > 0 {
				d.phrases = append(d.phrases, seq)
			}
		}
	}
	for i := range x.cur {
		tid := x.cur[i].tid
		x.seg.touch(tid, len(x.post[tid]), x.last[tid])
		x.post[tid] = appendPosting(x.post[tid], id+1-x.last[tid], &x.cur[i].c)
		x.last[tid] = id + 1
		x.mark[tid] = 0
	}
	x.docs = append(x.docs, d)
	x.byPath[n.Path] = id
	x.live++
	for f := range NumFields {
		x.sumLen[f] += uint64(d.lens[f])
	}
	x.added(&x.docs[id])
	x.changed()
}

// added records the live document d, just appended: the notes cut, and
// what follows the notes.
func (x *Index) added(d *doc) {
	if d.Cut {
		if x.cut == nil {
			x.cut = map[string]bool{}
		}
		x.cut[d.Path] = true
	}
	for _, f := range x.follow {
		f.Put(&d.Meta, d.links)
	}
}

// appendPosting appends one document's entry: its delta, the mask of its
// fields holding the term, and the term's frequency in each.
func appendPosting(b []byte, delta uint32, c *[NumFields]uint32) []byte {
	b = binary.AppendUvarint(b, uint64(delta))
	var mask byte
	for f, n := range c {
		if n > 0 {
			mask |= 1 << f
		}
	}
	b = append(b, mask)
	for _, n := range c {
		if n > 0 {
			b = binary.AppendUvarint(b, uint64(n))
		}
	}
	return b
}

// postings calls fn with each entry of b: the document id, the field mask
// and the frequencies. It stops at the first malformed byte.
func postings(b []byte, fn func(id uint32, mask byte, tf *[NumFields]uint32)) {
	var cur uint64
	var tf [NumFields]uint32
	for len(b) > 0 {
		delta, n := binary.Uvarint(b)
		if n <= 0 || len(b) < n+1 {
			return
		}
		mask := b[n]
		b = b[n+1:]
		cur += delta
		for f := range NumFields {
			tf[f] = 0
			if mask&(1<<f) != 0 {
				v, m := binary.Uvarint(b)
				if m <= 0 {
					return
				}
				tf[f], b = uint32(v), b[m:]
			}
		}
		fn(uint32(cur-1), mask, &tf)
	}
}

// counted is one term's frequency in each field of the note being put.
type counted struct {
	tid uint32
	c   [NumFields]uint32
}

// word returns the term id of a folded word (term, interned), false for
// a stopword; words already seen skip stemming, and making a string.
func (x *Index) word(b []byte) (uint32, bool) {
	if id, ok := x.words[string(b)]; ok {
		return uint32(id), id >= 0
	}
	if x.words == nil {
		x.words = map[string]int64{}
	}
	w := string(b)
	t := x.stems.term(w)
	if t == "" {
		x.words[w] = -1
		return 0, false
	}
	id := x.intern(t)
	x.words[w] = int64(id)
	return id, true
}

func (x *Index) intern(t string) uint32 {
	if id, ok := x.lookup(t); ok {
		return id
	}
	id := uint32(len(x.terms))
	x.terms = append(x.terms, t)
	x.post = append(x.post, nil)
	x.last = append(x.last, 0)
	x.mark = append(x.mark, 0)
	x.dict[t] = id
	return id
}

// ensureDict makes the map of the terms after the sorted ones, and the
// marks of every term, before a Put.
func (x *Index) ensureDict() {
	if x.dict == nil {
		x.dict = make(map[string]uint32, len(x.terms)-x.sorted)
		for i, t := range x.terms[x.sorted:] {
			x.dict[t] = uint32(x.sorted + i)
		}
	}
	if len(x.mark) != len(x.terms) {
		x.mark = make([]int32, len(x.terms))
	}
}

// lookup returns a term's id: by a binary search of the sorted terms
// (a decoded index's), else by the map of the others.
func (x *Index) lookup(t string) (uint32, bool) {
	if i, ok := slices.BinarySearch(x.terms[:x.sorted], t); ok {
		return uint32(i), true
	}
	id, ok := x.dict[t]
	return id, ok
}

// Hit is one note found: its Meta, its score (a tier of designation match
// times the query's bound, plus BM25F) and the fields that matched.
type Hit struct {
	*Meta
	Score   float64
	Matched []string
}

// Top ranks the live notes that keep accepts for the query's terms (Terms
// of the query), OR-ed, and returns the first limit hits and the number of
// notes found. A note whose designation phrase equals the query's terms
// (tier 2) or holds them in a row (tier 1) outranks every other: its score
// gets tier × the sum of the terms' IDF, which no BM25F score reaches.
// Hits are sorted by score (rounded to 4 decimals), then newest date first
// (no date last), then path. Scores and masks are arrays over the
// documents, not maps, and only the hits returned are made: thousands of
// notes match a common word, and in the wasm engine map updates cost most
// of a warm query.
func (x *Index) Top(query []string, keep func(*Meta) bool, limit int) ([]Hit, int) {
	return x.Rank(query, keep).Top(x, limit)
}

// byScore orders documents as Top's hits: by score (highest first), then
// newest date first (no date last), then path.
func (x *Index) byScore(score []float64) func(i, j uint32) int {
	return func(i, j uint32) int { return compareHits(score[i], score[j], &x.docs[i], &x.docs[j]) }
}

// compareHits orders two documents of scores sa and sb as hits: by score
// (highest first), then newest date first (no date last), then path.
func compareHits(sa, sb float64, a, b *doc) int {
	if sa != sb {
		if sa > sb {
			return -1
		}
		return 1
	}
	if a.Date != b.Date {
		return -strings.Compare(a.Date, b.Date)
	}
	return strings.Compare(a.Path, b.Path)
}

// first returns the first limit of found in order (found itself, sorted,
// when it holds no more), kept sorted as they come: most documents lose
// to the last one kept at the first comparison. order is by score[id]
// first, highest first (compareHits): a document scoring less than the
// last one kept loses without a call to order (in the wasm engine, a call
// through a func value costs more than the comparison).
func first(found []uint32, limit int, score []float64, order func(i, j uint32) int) []uint32 {
	top := make([]uint32, 0, min(len(found), limit)+1)
	if limit >= len(found) {
		top = found
		slices.SortFunc(top, order)
	}
	for _, id := range found[len(top):] {
		if len(top) == limit && (score[id] < score[top[limit-1]] || order(id, top[limit-1]) >= 0) {
			continue
		}
		i, _ := slices.BinarySearchFunc(top, id, order)
		top = slices.Insert(top, i, id)
		if len(top) > limit {
			top = top[:limit]
		}
	}
	return top
}

// tier is 2 when a phrase equals q, 1 when one holds q in a row, else 0.
func tier(phrases [][]uint32, q []uint32) int {
	best := 0
	for _, p := range phrases {
		if slices.Equal(p, q) {
			return 2
		}
		for i := 0; i+len(q) <= len(p) && best == 0; i++ {
			if slices.Equal(p[i:i+len(q)], q) {
				best = 1
			}
		}
	}
	return best
}

func fieldNames(mask byte) []string {
	var out []string
	for f := range NumFields {
		if mask&(1<<f) != 0 {
			out = append(out, fieldName[f])
		}
	}
	return out
}

// Compact drops the tombstones once they are over a quarter of the
// documents: documents renumbered, postings re-encoded, unused terms
// dropped. Scores do not change.
func (x *Index) Compact() {
	dead := len(x.docs) - x.live
	if dead == 0 || dead*4 < len(x.docs) {
		return
	}
	remap := make([]uint32, len(x.docs))
	var docs []doc
	for i, d := range x.docs {
		if !d.dead {
			remap[i] = uint32(len(docs))
			docs = append(docs, d)
		}
	}
	termMap := make([]int64, len(x.terms))
	var terms []string
	var post [][]byte
	var last []uint32
	for tid, b := range x.post {
		var nb []byte
		var prev uint32
		postings(b, func(id uint32, _ byte, tf *[NumFields]uint32) {
			if int(id) < len(x.docs) && !x.docs[id].dead {
				nid := remap[id]
				nb = appendPosting(nb, nid+1-prev, tf)
				prev = nid + 1
			}
		})
		termMap[tid] = -1
		if len(nb) > 0 {
			termMap[tid] = int64(len(terms))
			terms, post, last = append(terms, x.terms[tid]), append(post, nb), append(last, prev)
		}
	}
	for i := range docs {
		for _, ph := range docs[i].phrases {
			for k, t := range ph {
				ph[k] = uint32(termMap[t])
			}
		}
	}
	x.docs, x.terms, x.post, x.last, x.dict, x.words = docs, terms, post, last, nil, nil
	x.sorted, x.seg, x.order = 0, segments{}, nil // renumbered: the base stored no longer names these documents
	x.epoch, x.removals = x.epoch+1, nil          // nor do the rankings made before
	x.ensureDict()
	x.byPath = make(map[string]uint32, len(docs))
	for i, d := range docs {
		x.byPath[d.Path] = uint32(i)
	}
	x.Changed = true
}

// Slugs returns the slugs of the indexed notes, sorted, once each.
func (x *Index) Slugs() []string {
	set := map[string]bool{}
	for _, d := range x.docs {
		if !d.dead && d.Slug != "" {
			set[d.Slug] = true
		}
	}
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}
