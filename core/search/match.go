package search

// A Matcher tells which of a ranking's terms (Ranking.Read) the words of
// a text hold: what mem_search reads a hit's lines with to give its best
// line and the marks on it. Each word is looked up in the index's words
// (folded word to term id, what Put fills), and only a word the index has
// not seen yet is stemmed (through the index's Stems), so a hit's lines
// cost a map lookup a word and no string: at 50,000 notes, stemming every
// line of every hit was 40 % of a warm query's core time. The terms it
// finds are those Terms gives: a word's term is one of the ranking's
// exactly when its id is. Like Put, it records the words it stems in the
// index: not safe for concurrent use with the index.
type Matcher struct {
	x     *Index
	terms []string
	at    map[uint32]int // term id → its place in terms
	// some has bit bloomBit(tid) set for each term id of at: most words
	// are none of the terms, and are told so without a map lookup.
	some uint64
	buf  []byte
}

// Matcher returns the Matcher of r's terms, as Read gives them.
func (r *Ranking) Matcher(x *Index) *Matcher {
	m := &Matcher{x: x, terms: r.Read(x), at: make(map[uint32]int, len(r.terms))}
	for i, rt := range r.terms {
		m.at[rt.tid] = i
		m.some |= bloomBit(rt.tid)
	}
	return m
}

// bloomBit is term id tid's bit in Matcher.some (Fibonacci hashing).
func bloomBit(tid uint32) uint64 { return 1 << (uint32(tid*0x9e3779b9) >> 26) }

// Terms is the terms m looks for, in Read's order.
func (m *Matcher) Terms() []string { return m.terms }

// Each calls fn with i for each word of text (as Words cuts them) whose
// term is m.Terms()[i], in order.
func (m *Matcher) Each(text string, fn func(i int)) {
	m.buf = scanWords(text, m.buf, func(w []byte) {
		if tid, ok := m.x.wordID(w); ok && m.some&bloomBit(tid) != 0 {
			if i, ok := m.at[tid]; ok {
				fn(i)
			}
		}
	})
}

// wordID is the id of the term of the folded word b (a word as Words
// gives it), false for a stopword or a term the index does not hold. It
// reads the index's words, and records there the words it stems whose
// term the index holds (and stopwords); the others (a frontmatter key, a
// word of a note edited since it was indexed) go to misses, which hold
// only while the index's terms stay the same (missesOf): a term the index
// learns later gets an id.
func (x *Index) wordID(b []byte) (uint32, bool) {
	if id, ok := x.words[string(b)]; ok {
		return uint32(id), id >= 0
	}
	if x.misses.of != (termsState{x.epoch, len(x.terms)}) {
		x.misses = wordMisses{of: termsState{x.epoch, len(x.terms)}}
	}
	if x.misses.words[string(b)] {
		return 0, false
	}
	w := string(b)
	t := x.stems.term(w)
	if t == "" {
		x.keepWord(w, -1)
		return 0, false
	}
	id, ok := x.lookup(t)
	if ok {
		x.keepWord(w, int64(id))
	} else {
		if x.misses.words == nil {
			x.misses.words = map[string]bool{}
		}
		x.misses.words[w] = true
	}
	return id, ok
}

// wordMisses are the folded words whose term an index did not hold when
// its terms were of (Index.wordID).
type wordMisses struct {
	of    termsState
	words map[string]bool
}

// termsState names an index's terms: terms are only appended, until
// Compact renumbers them (a new epoch).
type termsState struct{ epoch, n int }

// keepWord records that folded word w has term id (-1: a stopword).
func (x *Index) keepWord(w string, id int64) {
	if x.words == nil {
		x.words = map[string]int64{}
	}
	x.words[w] = id
}
