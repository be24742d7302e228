package search

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"slices"
	"strings"
	"unsafe"
)

// The encoding: magic, format version, analyzer, the encoding's whole
// length (8 bytes, little-endian: a host reads that much and no more,
// Size), the listing the index is up to date with (Index.Listing), the
// documents (with their links and whether they were cut, Meta.Cut), the
// terms (sorted, so a decoded index looks terms up without building a
// map) with their postings, and a 64-bit checksum of everything before
// it. Decode refuses any other version, a foreign file, a truncated or
// altered one: the caller then builds the index again, never answering
// from a damaged one. The checksum catches accidents (a torn write, a
// flipped bit, a file of another program), not tampering: anyone who can
// write the file can write a valid index.
const (
	magic  = "KSHI"
	format = 4 // 2: a 64-bit checksum read 8 bytes a step, Meta.BodyLine; 3: Index.Listing, Note.Links; 4: the length in the header, Meta.Cut
	sumLen = 8
	// headerLen is the length of the header Size reads: magic, format,
	// analyzer and the encoding's length.
	headerLen = len(magic) + 2 + 8
)

// Size returns the length an encoding's header (its first bytes: magic,
// format, analyzer and that length) says the whole encoding has; ok is
// false for bytes that are no header of this format and analyzer (an
// older index, a foreign file).
// A host reads the stored index only when its file is that long, and no
// longer than IndexBound allows.
func Size(header []byte) (n int64, ok bool) {
	if len(header) < headerLen || string(header[:len(magic)]) != magic || header[4] != format || header[5] != analyzer {
		return 0, false
	}
	v := binary.LittleEndian.Uint64(header[6:headerLen])
	if v > 1<<62 || v < uint64(headerLen+sumLen) {
		return 0, false
	}
	return int64(v), true
}

// errCorrupt is Decode's error for bytes that are not an index of this
// version: the caller rebuilds.
var errCorrupt = errors.New("search: not a usable index")

// EncodeRoom returns the index as bytes (terms sorted; the index is not
// changed), with room more bytes of capacity after the encoding, so that
// wire.Prepend can put an answer's JSON before it in the same buffer. The
// buffer is sized exactly, once: a 50,000-note index is
// 22 MB, and in the wasm engine every byte the core allocates stays its
// memory (a Go heap there never shrinks), so neither the copies of a
// growing buffer nor a generous estimate may be paid for.
func (x *Index) EncodeRoom(room int) []byte {
	order := make([]uint32, len(x.terms))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int { return strings.Compare(x.terms[a], x.terms[b]) })
	rank := make([]uint32, len(x.terms))
	for r, tid := range order {
		rank[tid] = uint32(r)
	}
	size := headerLen + strLen(x.Listing) + uvarintLen(uint64(len(x.docs))) + uvarintLen(uint64(len(order))) + sumLen
	for i := range x.docs {
		size += docLen(&x.docs[i], rank)
	}
	for tid, t := range x.terms {
		size += strLen(t) + uvarintLen(uint64(x.last[tid])) + uvarintLen(uint64(len(x.post[tid]))) + len(x.post[tid])
	}
	b := append(make([]byte, 0, size+max(room, 0)), magic...)
	b = append(b, format, analyzer)
	b = binary.LittleEndian.AppendUint64(b, 0) // the length, once known
	b = appendString(b, x.Listing)
	b = binary.AppendUvarint(b, uint64(len(x.docs)))
	for i := range x.docs {
		b = appendDoc(b, &x.docs[i], func(t uint32) uint32 { return rank[t] })
	}
	b = binary.AppendUvarint(b, uint64(len(order)))
	for _, tid := range order {
		b = appendString(b, x.terms[tid])
		b = binary.AppendUvarint(b, uint64(x.last[tid]))
		b = binary.AppendUvarint(b, uint64(len(x.post[tid])))
		b = append(b, x.post[tid]...)
	}
	binary.LittleEndian.PutUint64(b[6:headerLen], uint64(len(b)+sumLen))
	return binary.LittleEndian.AppendUint64(b, checksum(b))
}

// docLen is the length of d's encoding (appendDoc's), its terms given by
// their rank.
func docLen(d *doc, rank []uint32) int {
	n := strLen(d.Path) + strLen(d.Key) + strLen(d.Title) + strLen(d.Kind) + strLen(d.Zone) + strLen(d.Slug) + strLen(d.Date)
	n += 1 + uvarintLen(uint64(d.BodyLine)) + uvarintLen(uint64(len(d.phrases))) + uvarintLen(uint64(len(d.links)))
	for _, l := range d.lens {
		n += uvarintLen(uint64(l))
	}
	for _, ph := range d.phrases {
		n += uvarintLen(uint64(len(ph)))
		for _, t := range ph {
			n += uvarintLen(uint64(rank[t]))
		}
	}
	for _, l := range d.links {
		n += strLen(l)
	}
	return n
}

// appendDoc appends d's encoding to b, its terms given by their rank.
func appendDoc(b []byte, d *doc, rank func(tid uint32) uint32) []byte {
	for _, s := range []string{d.Path, d.Key, d.Title, d.Kind, d.Zone, d.Slug, d.Date} {
		b = appendString(b, s)
	}
	var flags byte
	if d.Archived {
		flags |= 1
	}
	if d.dead {
		flags |= 2
	}
	if d.Cut {
		flags |= 4
	}
	b = append(b, flags)
	b = binary.AppendUvarint(b, uint64(d.BodyLine))
	for _, n := range d.lens {
		b = binary.AppendUvarint(b, uint64(n))
	}
	b = binary.AppendUvarint(b, uint64(len(d.phrases)))
	for _, ph := range d.phrases {
		b = binary.AppendUvarint(b, uint64(len(ph)))
		for _, t := range ph {
			b = binary.AppendUvarint(b, uint64(rank(t)))
		}
	}
	b = binary.AppendUvarint(b, uint64(len(d.links)))
	for _, l := range d.links {
		b = appendString(b, l)
	}
	return b
}

// uvarintLen is the length of v's uvarint.
func uvarintLen(v uint64) int { return (bits.Len64(v|1) + 6) / 7 }

// strLen is the length of appendString's s.
func strLen(s string) int { return uvarintLen(uint64(len(s))) + len(s) }

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// reader reads the encoding, remembering the first failure.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a length that must fit in what is left.
func (r *reader) count() int {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.bad, r.b = true, nil
		return 0
	}
	return int(n)
}

func (r *reader) bytes() []byte {
	n := r.count()
	out := r.b[:n:n] // capped: a later append must not write over the next term
	r.b = r.b[n:]
	return out
}

func (r *reader) byte() byte {
	if len(r.b) == 0 {
		r.bad = true
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

// Decode reads an index as a host stores it: a base EncodeRoom made, then
// (segment.go) the delta Hand made of it, if any. A base that is anything
// else — another version or analyzer, a foreign file, truncated or altered
// bytes, bytes after it that do not start as a delta — is an error: the
// caller rebuilds. A delta that is not one of
// that base (another base's, damaged, foreign) is left out: the base
// alone is a valid index of an earlier state of the vault, which the
// caller brings up to date (the notes' versions show what changed since),
// and the next hand-back replaces that delta.
func Decode(data []byte) (*Index, error) {
	n, ok := Size(data)
	if !ok || n > int64(len(data)) {
		return nil, errCorrupt
	}
	base, rest := data[:n], data[n:]
	if len(rest) > 0 && !IsDelta(rest) {
		return nil, errCorrupt // bytes after the base that are no delta: not what a host stores
	}
	x, err := decodeBase(base)
	if err != nil {
		return nil, err
	}
	if d, ok := decodeDelta(rest, idOf(base)); ok && d.fits(x) {
		d.apply(x, base)
	} else {
		x.seg = segments{id: idOf(base), docs: len(x.docs), size: n}
	}
	return x, nil
}

// decodeBase reads an index EncodeRoom made.
func decodeBase(data []byte) (*Index, error) {
	if n, ok := Size(data); !ok || n != int64(len(data)) {
		return nil, errCorrupt
	}
	body, sum := data[:len(data)-sumLen], binary.LittleEndian.Uint64(data[len(data)-sumLen:])
	if checksum(body) != sum {
		return nil, errCorrupt
	}
	dc := newDecoder(body)
	listing := dc.str()
	ndocs := dc.count()
	x := &Index{byPath: make(map[string]uint32, ndocs), Listing: listing}
	x.docs = make([]doc, 0, ndocs)
	for i := range ndocs {
		x.docs = append(x.docs, doc{})
		d := &x.docs[i]
		if !dc.doc(d) {
			return nil, errCorrupt
		}
		if !d.dead {
			if _, dup := x.byPath[d.Path]; dup {
				return nil, errCorrupt
			}
			x.byPath[d.Path] = uint32(i)
			x.added(d)
			x.live++
			for f := range NumFields {
				x.sumLen[f] += uint64(d.lens[f])
			}
		}
	}
	nterms := dc.count()
	x.terms = make([]string, 0, nterms)
	x.post = make([][]byte, 0, nterms)
	x.last = make([]uint32, 0, nterms)
	for range nterms {
		t := dc.str()
		last := dc.uvarint()
		p := dc.bytes()
		if dc.bad || last > uint64(len(x.docs)) || len(x.terms) > 0 && x.terms[len(x.terms)-1] >= t {
			return nil, errCorrupt
		}
		x.terms, x.last, x.post = append(x.terms, t), append(x.last, uint32(last)), append(x.post, p)
	}
	if dc.bad || len(dc.b) != 0 {
		return nil, errCorrupt
	}
	if dc.terms > uint64(nterms) {
		return nil, errCorrupt
	}
	x.sorted = len(x.terms)
	return x, nil
}

// decoder reads the body of an encoding for Decode. Every string and
// every term's postings are a part of one copy of the body (newDecoder):
// one allocation instead of one per path, title and term, and none of the
// caller's bytes kept (a host's request, which holds the index, can be
// collected once the index is decoded).
type decoder struct {
	reader
	body  []byte
	all   string
	flat  []uint32 // room for the phrases' term ids, handed out in slices
	terms uint64   // the largest term id a phrase names, plus one
}

// newDecoder reads body from a copy of it that the decoded index owns.
// Its strings are that copy's bytes, as strings (unsafe.String), and its
// postings the same bytes as slices capped at their end: nothing writes
// into the copy (a posting appended to is copied first, Compact makes new
// ones), so the strings never change. Before, the strings were a second
// copy of the body (string(body)) and the postings the caller's bytes: at
// 100,000 notes a decoded index held 46 MB of the request and 85 MB of
// its own, which with the batch being indexed and the index handed back
// ran the wasm engine out of its 256 MiB.
func newDecoder(body []byte) *decoder {
	own := slices.Clone(body)
	return &decoder{reader: reader{b: own[headerLen:]}, body: own, all: unsafe.String(unsafe.SliceData(own), len(own))}
}

// str reads a string.
func (dc *decoder) str() string {
	n := dc.count()
	off := len(dc.body) - len(dc.b)
	dc.b = dc.b[n:]
	return dc.all[off : off+n]
}

// doc reads one document into d; false for bytes that are not one.
func (dc *decoder) doc(d *doc) bool {
	for _, s := range []*string{&d.Path, &d.Key, &d.Title, &d.Kind, &d.Zone, &d.Slug, &d.Date} {
		*s = dc.str()
	}
	flags := dc.byte()
	d.Archived, d.dead, d.Cut = flags&1 != 0, flags&2 != 0, flags&4 != 0
	d.BodyLine = int(min(dc.uvarint(), 1<<31))
	for f := range NumFields {
		d.lens[f] = uint32(dc.uvarint())
	}
	nph := dc.count()
	if nph > 0 {
		d.phrases = make([][]uint32, 0, nph)
	}
	for range nph {
		n := dc.count()
		if len(dc.flat) < n {
			dc.flat = make([]uint32, max(n, 1024))
		}
		ph := dc.flat[:n:n]
		dc.flat = dc.flat[n:]
		for k := range ph {
			t := dc.uvarint()
			if t >= 1<<32 {
				return false
			}
			dc.terms = max(dc.terms, t+1)
			ph[k] = uint32(t)
		}
		d.phrases = append(d.phrases, ph)
	}
	if nl := dc.count(); nl > 0 {
		d.links = make([]string, nl)
		for k := range d.links {
			d.links[k] = dc.str()
		}
	}
	return !dc.bad
}

// ID names an encoding: its checksum and length ("" for bytes too short
// to be one), then, when the index records the listing it is up to date
// with, "@" and that listing (IDListing).
//
// A delta (segment.go), alone or after its base, is named by its base's
// checksum and length, "+", its own, then "@" and the listing it records:
// the id of what Decode reads of the base and that delta joined.
func ID(data []byte) string {
	if len(data) < sumLen {
		return ""
	}
	if n, ok := Size(data); ok && n < int64(len(data)) {
		base := data[:n]
		if id, ok := deltaID(data[n:], idOf(base)); ok {
			return id
		}
		data = base
	} else if id, ok := deltaID(data, ""); ok {
		return id
	}
	id := idOf(data)
	if _, ok := Size(data); ok && len(data) >= headerLen+sumLen {
		r := &reader{b: data[headerLen : len(data)-sumLen]}
		if l := r.bytes(); !r.bad && len(l) > 0 {
			id += "@" + string(l)
		}
	}
	return id
}

// IDListing returns the listing an index's ID records ("" when none): a
// core whose host sends that same listing needs the stored index alone,
// not the notes' versions (the index itself, once decoded, must record
// it too).
func IDListing(id string) string {
	_, l, _ := strings.Cut(id, "@")
	return l
}

// checksum is FNV-1a over 64-bit words (then the last bytes one by one):
// each step is a bijection of the 64-bit state, so a change of any one
// word always changes it, and reading 8 bytes a step makes it 8 times
// faster than byte-wise FNV, which cost a third of decoding an index
// (hash/crc32 would weigh more in the plugin's main.js).
func checksum(b []byte) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	for len(b) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(b)) * prime
		b = b[8:]
	}
	for _, c := range b {
		h = (h ^ uint64(c)) * prime
	}
	return h
}
