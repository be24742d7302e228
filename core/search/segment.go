package search

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
)

// The stored index is two segments: a base, the whole index as EncodeRoom
// encodes it, whose bytes a host keeps as they are, and a delta, what
// changed since: the base's documents removed (tombstones) and the
// documents put since, with their terms and postings. A change of one
// note hands back a new delta (Hand), which costs that delta, not the
// vault; once the delta outgrows deltaBound the index is handed back
// whole, a new base. A host stores each in a file of its own and sends
// them joined, the base first (Decode).
//
// The delta's encoding: deltaMagic, the format and analyzer, its whole
// length (8 bytes, little-endian: Size reads it), the base's id (its
// checksum and length: a delta of another base is never applied), the
// listing the index is up to date with, the tombstones (ascending, as
// deltas), the documents put since (as the base encodes its own, their
// phrases' terms by their rank among the delta's terms), the delta's
// terms (sorted) with the postings of its documents (numbered from 0),
// and the checksum of everything before it.
const deltaMagic = "KSHD"

// segments is what an Index knows of the base the host stores: its id
// ("" when there is none: the next hand-back is whole), its documents
// (ids below docs), its length, the base documents removed since, and
// per term given postings since, where its base postings end.
type segments struct {
	id      string
	docs    int
	size    int64
	died    []uint32
	touched map[uint32]baseEnd
}

// baseEnd is where a term's postings of the base end: their length and
// the last document plus one.
type baseEnd struct{ off, last uint32 }

// removed records the removal of document id when it is the base's.
func (s *segments) removed(id uint32) {
	if s.id != "" && int(id) < s.docs {
		s.died = append(s.died, id)
	}
}

// touch records, before a posting is appended to term tid's, where its
// base postings end (off bytes, last), the first time only.
func (s *segments) touch(tid uint32, off int, last uint32) {
	if s.id == "" {
		return
	}
	if _, ok := s.touched[tid]; ok {
		return
	}
	if s.touched == nil {
		s.touched = map[uint32]baseEnd{}
	}
	s.touched[tid] = baseEnd{uint32(off), last}
}

// deltaBound is the most documents (put and removed since the base) a
// delta holds before the index is handed back whole: 128, or a 128th of
// the base's documents (390 at 50,000 notes). Each hand-back encodes the
// whole delta, so a change costs at most that much (about a millisecond
// at 50,000 notes, natively); a whole hand-back every so many changes
// costs the vault once (about 150 ms there), a millisecond a change.
func (s *segments) deltaBound() int { return max(128, s.docs/128) }

// Hand returns the bytes a host stores of the index, with room bytes of
// capacity after them (EncodeRoom): when inSegments is set, the index has
// a base and what changed since is within deltaBound, the delta alone,
// else the whole index, which becomes the base. whole is the length of
// what the host then holds: the base and the delta.
func (x *Index) Hand(room int, inSegments bool) (b []byte, whole int64) {
	s := &x.seg
	x.unhanded = 0
	if inSegments && s.id != "" && len(x.docs)-s.docs+len(s.died) <= s.deltaBound() {
		b = x.encodeDelta(room)
		return b, s.size + int64(len(b))
	}
	b = x.EncodeRoom(room)
	x.seg = segments{id: idOf(b), docs: len(x.docs), size: int64(len(b))}
	return b, int64(len(b))
}

// idOf is an encoding's checksum and length.
func idOf(data []byte) string {
	return fmt.Sprintf("%016x-%d", binary.LittleEndian.Uint64(data[len(data)-sumLen:]), len(data))
}

// encodeDelta encodes what changed since the base (see deltaMagic).
func (x *Index) encodeDelta(room int) []byte {
	s := &x.seg
	tids := make([]uint32, 0, len(s.touched))
	for tid := range s.touched {
		tids = append(tids, tid)
	}
	slices.SortFunc(tids, func(a, b uint32) int { return strings.Compare(x.terms[a], x.terms[b]) })
	rank := make(map[uint32]uint32, len(tids))
	for r, tid := range tids {
		rank[tid] = uint32(r)
	}
	b := append(make([]byte, 0, 4096+room), deltaMagic...)
	b = append(b, format, analyzer)
	b = binary.LittleEndian.AppendUint64(b, 0)
	b = appendString(appendString(b, s.id), x.Listing)
	died := slices.Sorted(slices.Values(s.died))
	b = binary.AppendUvarint(b, uint64(len(died)))
	prev := uint32(0)
	for _, id := range died {
		b = binary.AppendUvarint(b, uint64(id+1-prev))
		prev = id + 1
	}
	b = binary.AppendUvarint(b, uint64(len(x.docs)-s.docs))
	for i := s.docs; i < len(x.docs); i++ {
		b = appendDoc(b, &x.docs[i], func(t uint32) uint32 { return rank[t] })
	}
	b = binary.AppendUvarint(b, uint64(len(tids)))
	var post []byte
	for _, tid := range tids {
		end := s.touched[tid]
		post, prev = post[:0], 0
		postingsFrom(x.post[tid][end.off:], end.last, func(id uint32, _ byte, tf *[NumFields]uint32) {
			local := id - uint32(s.docs)
			post = appendPosting(post, local+1-prev, tf)
			prev = local + 1
		})
		b = appendString(b, x.terms[tid])
		b = binary.AppendUvarint(b, uint64(prev))
		b = binary.AppendUvarint(b, uint64(len(post)))
		b = append(b, post...)
	}
	binary.LittleEndian.PutUint64(b[6:headerLen], uint64(len(b)+sumLen))
	return binary.LittleEndian.AppendUint64(b, checksum(b))
}

// delta is a delta segment decoded, not applied yet.
type delta struct {
	base, listing string
	died          []uint32
	docs          []doc
	terms         []string
	last          []uint32
	post          [][]byte
}

// decodeDelta reads a delta of the base whose id is base; false for
// bytes that are not one (another base's, damaged, foreign).
func decodeDelta(data []byte, base string) (*delta, bool) {
	if !IsDelta(data) || DeltaSize(data) != int64(len(data)) {
		return nil, false
	}
	body, sum := data[:len(data)-sumLen], binary.LittleEndian.Uint64(data[len(data)-sumLen:])
	if checksum(body) != sum {
		return nil, false
	}
	dc := newDecoder(body)
	d := &delta{base: dc.str(), listing: dc.str()}
	if d.base != base {
		return nil, false
	}
	prev := uint64(0)
	for range dc.count() {
		prev += dc.uvarint()
		if prev == 0 || prev > 1<<32 {
			return nil, false
		}
		d.died = append(d.died, uint32(prev-1))
	}
	d.docs = make([]doc, dc.count())
	for i := range d.docs {
		if !dc.doc(&d.docs[i]) {
			return nil, false
		}
	}
	for range dc.count() {
		t, last, p := dc.str(), dc.uvarint(), dc.bytes()
		if dc.bad || last > uint64(len(d.docs)) || len(d.terms) > 0 && d.terms[len(d.terms)-1] >= t {
			return nil, false
		}
		d.terms, d.last, d.post = append(d.terms, t), append(d.last, uint32(last)), append(d.post, p)
	}
	return d, !dc.bad && len(dc.b) == 0 && dc.terms <= uint64(len(d.terms))
}

// IsDelta reports whether data starts as a delta (Hand) of this format
// and analyzer: a host stores it beside the base, not over it.
func IsDelta(data []byte) bool {
	return len(data) >= headerLen && string(data[:len(deltaMagic)]) == deltaMagic && data[4] == format && data[5] == analyzer
}

// DeltaSize is the length a delta's header (its first bytes, as Size's)
// says the whole delta has; 0 for bytes that are no delta's header. A
// host reads the stored delta only when its file is that long.
func DeltaSize(data []byte) int64 {
	if !IsDelta(data) {
		return 0
	}
	v := binary.LittleEndian.Uint64(data[6:headerLen])
	if v > 1<<62 || v < uint64(headerLen+sumLen) {
		return 0
	}
	return int64(v)
}

// fits reports whether d applies to x, the base it names: its
// tombstones are live base documents, once each, and the documents it
// puts have paths no other live document has.
func (d *delta) fits(x *Index) bool {
	gone := make(map[string]bool, len(d.died))
	for _, id := range d.died {
		if int(id) >= len(x.docs) || x.docs[id].dead || gone[x.docs[id].Path] {
			return false
		}
		gone[x.docs[id].Path] = true
	}
	seen := map[string]bool{}
	for i := range d.docs {
		p := d.docs[i].Path
		if d.docs[i].dead {
			continue
		}
		if _, ok := x.byPath[p]; ok && !gone[p] || seen[p] {
			return false
		}
		seen[p] = true
	}
	for k, p := range d.post {
		ok := true
		prev := uint32(0)
		postings(p, func(id uint32, _ byte, _ *[NumFields]uint32) {
			ok = ok && id+1 > prev && int(id) < len(d.docs)
			prev = id + 1
		})
		if !ok || prev != d.last[k] {
			return false
		}
	}
	return true
}

// apply puts d in x, the base it fits: its tombstones removed, its
// documents and postings appended, its listing x's; x's segments record
// the base and d, so that the next hand-back is a delta of that base.
func (d *delta) apply(x *Index, base []byte) {
	x.seg = segments{id: idOf(base), docs: len(x.docs), size: int64(len(base))}
	for _, id := range d.died {
		x.Remove(x.docs[id].Path)
	}
	x.ensureDict()
	global := make([]uint32, len(d.terms))
	for k, t := range d.terms {
		global[k] = x.intern(t)
	}
	for i := range d.docs {
		dd := d.docs[i]
		for _, ph := range dd.phrases {
			for j, t := range ph {
				ph[j] = global[t]
			}
		}
		id := uint32(len(x.docs))
		x.docs = append(x.docs, dd)
		if !dd.dead {
			x.byPath[dd.Path] = id
			x.added(&x.docs[id])
			x.live++
			for f := range NumFields {
				x.sumLen[f] += uint64(dd.lens[f])
			}
		}
	}
	for k, p := range d.post {
		tid := global[k]
		x.seg.touch(tid, len(x.post[tid]), x.last[tid])
		postings(p, func(id uint32, _ byte, tf *[NumFields]uint32) {
			gid := id + uint32(x.seg.docs)
			x.post[tid] = appendPosting(x.post[tid], gid+1-x.last[tid], tf)
			x.last[tid] = gid + 1
		})
	}
	x.Listing, x.Changed = d.listing, false
}

// postingsFrom is postings over entries that follow a document last
// (plus one): the ids of b's deltas count from there.
func postingsFrom(b []byte, last uint32, fn func(id uint32, mask byte, tf *[NumFields]uint32)) {
	postings(b, func(id uint32, mask byte, tf *[NumFields]uint32) { fn(id+last, mask, tf) })
}

// deltaID is the id of the delta data (ID), when it is one whose
// checksum holds and, unless base is "", one of that base.
func deltaID(data []byte, base string) (string, bool) {
	if DeltaSize(data) != int64(len(data)) || checksum(data[:len(data)-sumLen]) != binary.LittleEndian.Uint64(data[len(data)-sumLen:]) {
		return "", false
	}
	r := &reader{b: data[headerLen : len(data)-sumLen]}
	b, l := r.bytes(), r.bytes()
	if r.bad || base != "" && string(b) != base {
		return "", false
	}
	id := string(b) + "+" + idOf(data)
	if len(l) > 0 {
		id += "@" + string(l)
	}
	return id, true
}
