package search

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// The encoding: magic, format version, Analyzer, the documents, the terms
// (sorted, so a decoded index looks terms up without building a map) with
// their postings, and a checksum of everything before it. Decode refuses any
// other version, a foreign file, a truncated or altered one: the caller
// then builds the index again, never answering from a damaged one.
const (
	magic  = "KSHI"
	format = 1
)

// ErrCorrupt is Decode's error for bytes that are not an index of this
// version: the caller rebuilds.
var ErrCorrupt = errors.New("search: not a usable index")

// Encode returns the index as bytes (terms sorted; the index is not
// changed).
func (x *Index) Encode() []byte {
	order := make([]uint32, len(x.terms))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int { return strings.Compare(x.terms[a], x.terms[b]) })
	rank := make([]uint32, len(x.terms))
	for r, tid := range order {
		rank[tid] = uint32(r)
	}
	b := append([]byte(magic), format, Analyzer)
	b = binary.AppendUvarint(b, uint64(len(x.docs)))
	for _, d := range x.docs {
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
		b = append(b, flags)
		for _, n := range d.lens {
			b = binary.AppendUvarint(b, uint64(n))
		}
		b = binary.AppendUvarint(b, uint64(len(d.phrases)))
		for _, ph := range d.phrases {
			b = binary.AppendUvarint(b, uint64(len(ph)))
			for _, t := range ph {
				b = binary.AppendUvarint(b, uint64(rank[t]))
			}
		}
	}
	b = binary.AppendUvarint(b, uint64(len(order)))
	for _, tid := range order {
		b = appendString(b, x.terms[tid])
		b = binary.AppendUvarint(b, uint64(x.last[tid]))
		b = binary.AppendUvarint(b, uint64(len(x.post[tid])))
		b = append(b, x.post[tid]...)
	}
	return binary.LittleEndian.AppendUint32(b, checksum(b))
}

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

// Decode reads an index Encode made. Anything else — another version or
// analyzer, a foreign file, truncated or altered bytes — is ErrCorrupt.
func Decode(data []byte) (*Index, error) {
	if len(data) < len(magic)+2+4 || string(data[:len(magic)]) != magic {
		return nil, ErrCorrupt
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if checksum(body) != sum || body[4] != format || body[5] != Analyzer {
		return nil, ErrCorrupt
	}
	r := &reader{b: body[6:]}
	x := &Index{byPath: map[string]uint32{}}
	ndocs := r.count()
	x.docs = make([]doc, 0, ndocs)
	var phraseTerms []uint64
	for range ndocs {
		var d doc
		for _, s := range []*string{&d.Path, &d.Key, &d.Title, &d.Kind, &d.Zone, &d.Slug, &d.Date} {
			*s = string(r.bytes())
		}
		flags := r.byte()
		d.Archived, d.dead = flags&1 != 0, flags&2 != 0
		for f := range NumFields {
			d.lens[f] = uint32(r.uvarint())
		}
		nph := r.count()
		for range nph {
			ph := make([]uint32, r.count())
			for k := range ph {
				t := r.uvarint()
				phraseTerms = append(phraseTerms, t)
				ph[k] = uint32(t)
			}
			d.phrases = append(d.phrases, ph)
		}
		if r.bad {
			return nil, ErrCorrupt
		}
		if !d.dead {
			if _, dup := x.byPath[d.Path]; dup {
				return nil, ErrCorrupt
			}
			x.byPath[d.Path] = uint32(len(x.docs))
			x.live++
			for f := range NumFields {
				x.sumLen[f] += uint64(d.lens[f])
			}
		}
		x.docs = append(x.docs, d)
	}
	nterms := r.count()
	x.terms = make([]string, 0, nterms)
	x.post = make([][]byte, 0, nterms)
	x.last = make([]uint32, 0, nterms)
	for range nterms {
		t := string(r.bytes())
		last := r.uvarint()
		p := r.bytes()
		if r.bad || last > uint64(len(x.docs)) || len(x.terms) > 0 && x.terms[len(x.terms)-1] >= t {
			return nil, ErrCorrupt
		}
		x.terms, x.last, x.post = append(x.terms, t), append(x.last, uint32(last)), append(x.post, p)
	}
	if r.bad || len(r.b) != 0 {
		return nil, ErrCorrupt
	}
	for _, t := range phraseTerms {
		if t >= uint64(nterms) {
			return nil, ErrCorrupt
		}
	}
	return x, nil
}

// ID names an encoding: its checksum and length ("" for bytes too short
// to be one).
func ID(data []byte) string {
	if len(data) < 4 {
		return ""
	}
	return fmt.Sprintf("%08x-%d", binary.LittleEndian.Uint32(data[len(data)-4:]), len(data))
}

// checksum is the 32-bit FNV-1a hash of b: each step is a bijection of the
// state, so a change of any one byte always changes it (and hash/crc32
// would weigh more in the plugin's main.js).
func checksum(b []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}
