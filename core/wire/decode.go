package wire

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DecodeRequest reads a request (EncodeCompacted's, or any other JSON of
// one), and the index bytes after its NUL (Split) as its Search.Index.
// The requests hosts send (Go's json.Marshal and EncodeCompacted,
// JavaScript's JSON.stringify) are read by a scanner made for their one
// shape: encoding/json reads them through reflection after a
// whole validating pass, which in the wasm engine cost a quarter of a
// worklog call. Anything the scanner is not sure of (an unknown or repeated
// key, a null, a key in another case, a lone surrogate, invalid UTF-8,
// invalid JSON) goes to encoding/json, so that every request reads, and
// every bad one fails, exactly as before (TestDecodeRequestIsJSONs).
func DecodeRequest(b []byte) (Request, error) {
	b, index := Split(b)
	s := scanner{b: b}
	req, ok := s.request()
	if !ok {
		req = Request{}
		if err := json.Unmarshal(b, &req); err != nil {
			return req, err
		}
	}
	if index != nil {
		if req.Search == nil {
			req.Search = &Carry{}
		}
		req.Search.Index = index
	}
	return req, nil
}

// scanner reads one request; ok false means "ask encoding/json".
type scanner struct {
	b []byte
	p int
	// loose is set when a blank between tokens was skipped, or a string
	// walked by skipString holds a character json.Marshal escapes (<, >,
	// &, U+2028, U+2029): what was walked is not as json.Marshal writes
	// it (DecodeSuccess).
	loose bool
}

func (s *scanner) ws() {
	for s.p < len(s.b) {
		switch s.b[s.p] {
		case ' ', '\t', '\n', '\r':
			s.p++
			s.loose = true
		default:
			return
		}
	}
}

// is skips blanks and reports whether c comes next, and takes it.
func (s *scanner) is(c byte) bool {
	s.ws()
	if s.p < len(s.b) && s.b[s.p] == c {
		s.p++
		return true
	}
	return false
}

// object reads {"key": value, …}, calling member after each key with the
// scanner on the value. Members refuse a repeated key (encoding/json would
// merge or overwrite).
func (s *scanner) object(member func(key string) bool) bool {
	if !s.is('{') {
		return false
	}
	if s.is('}') {
		return true
	}
	for {
		key, ok := s.str()
		if !ok || !s.is(':') || !member(key) {
			return false
		}
		if s.is('}') {
			return true
		}
		if !s.is(',') {
			return false
		}
	}
}

// once reports whether key is new to seen, and marks it: keys are few.
func once(seen *[]string, key string) bool {
	for _, k := range *seen {
		if k == key {
			return false
		}
	}
	*seen = append(*seen, key)
	return true
}

func (s *scanner) request() (req Request, ok bool) {
	str := func(dst *string) func() bool {
		return func() (ok bool) { *dst, ok = s.str(); return ok }
	}
	lists := func(dst *map[string][]string) func() bool {
		return func() (ok bool) { *dst, ok = s.lists(); return ok }
	}
	read := map[string]func() bool{
		"tool": str(&req.Tool), "now": str(&req.Now), "tz": str(&req.TZ), "lang": str(&req.Lang),
		"args":        func() (ok bool) { req.Args, ok = s.raw(); return ok },
		"missing":     func() (ok bool) { req.Missing, ok = s.strs(); return ok },
		"dirs":        lists(&req.Dirs),
		"matches":     lists(&req.Matches),
		"raw_dirs":    lists(&req.RawDirs),
		"raw_matches": lists(&req.RawMatches),
		"search":      func() (ok bool) { req.Search, ok = s.carry(); return ok },
		"files": func() bool {
			req.Files = map[string]File{}
			return s.object(func(path string) bool {
				if _, dup := req.Files[path]; dup {
					return false
				}
				f, ok := s.file()
				req.Files[path] = f
				return ok
			})
		},
		"heads": func() bool {
			req.Heads = map[string]Head{}
			return s.object(func(path string) bool {
				if _, dup := req.Heads[path]; dup {
					return false
				}
				h, ok := s.head()
				req.Heads[path] = h
				return ok
			})
		},
	}
	var seen []string
	ok = s.object(func(key string) bool {
		r, known := read[key]
		return known && once(&seen, key) && r()
	})
	s.ws()
	return req, ok && s.p == len(s.b)
}

// fields reads an object whose keys each come once, calling member for
// each.
func (s *scanner) fields(member func(key string) bool) bool {
	seen := make([]string, 0, 4)
	return s.object(func(key string) bool { return once(&seen, key) && member(key) })
}

func (s *scanner) file() (f File, ok bool) {
	ok = s.fields(func(key string) bool {
		var ok bool
		switch key {
		case "sha256":
			f.SHA256, ok = s.str()
		case "text":
			var t string
			t, ok = s.str()
			f.Text = &t
		case "not_utf8":
			f.NotUTF8, ok = s.boolean()
		}
		return ok
	})
	return f, ok
}

// head reads a Head.
func (s *scanner) head() (h Head, ok bool) {
	ok = s.fields(func(key string) bool {
		var ok bool
		switch key {
		case "text":
			var t string
			t, ok = s.str()
			h.Text = &t
		case "not_utf8":
			h.NotUTF8, ok = s.boolean()
		case "size":
			h.Size, ok = s.count()
		}
		return ok
	})
	return h, ok
}

// carry reads a Carry: its notes are 10,000 members at 10,000
// notes, which encoding/json reads several times slower.
func (s *scanner) carry() (*Carry, bool) {
	c := &Carry{}
	ok := s.fields(func(key string) bool {
		var ok bool
		switch key {
		case "listing":
			c.Listing, ok = s.str()
		case "id":
			c.ID, ok = s.str()
		case "full":
			c.Full, ok = s.boolean()
		case "batch":
			c.Batch, ok = s.count()
		case "unkept":
			c.Unkept, ok = s.str()
		case "segments":
			c.Segments, ok = s.boolean()
		case "since":
			c.Since, ok = s.str()
		case "hand":
			c.Hand, ok = s.boolean()
		case "paced":
			c.Paced, ok = s.boolean()
		case "keep":
			c.Keep, ok = s.boolean()
		case "indexed", "left":
			var n int64
			n, ok = s.count()
			if key == "indexed" {
				c.Indexed = int(n)
			} else {
				c.Left = int(n)
			}
		case "notes":
			c.Notes, c.Sorted, ok = s.listing()
		case "changes":
			c.Changes, ok = s.versions()
		}
		return ok
	})
	return c, ok
}

// listing reads an object of notes' versions (Carry.Notes) and, when its
// keys came in byte order, them in that order (Carry.Sorted). A listing
// as hosts write it, with no blank, escape or control character, is read
// by plainVersions; anything else as versions reads it.
func (s *scanner) listing() (map[string]string, []string, bool) {
	if m, sorted, ok := s.plainVersions(); ok {
		return m, sorted, true
	}
	m, ok := s.versions()
	return m, nil, ok
}

// plainVersions reads, at s.p, an object of versions whose strings hold
// nothing to unescape (s.p unmoved when it declines): the offsets of its
// keys and values first, then every one of them a piece of one string
// made of the object's bytes, into a map made at its size. At 100,000
// notes a string each and a growing map cost the wasm engine 250 ms, this
// 95 (BenchmarkDecodeListing). A note's path and version are cloned where
// the index keeps them (search.ParseNote), so the index never holds the
// whole listing's bytes. A key twice is declined, as versions refuses it.
func (s *scanner) plainVersions() (map[string]string, []string, bool) {
	b, start := s.b, s.p
	if start >= len(b) || b[start] != '{' || start+1 < len(b) && b[start+1] == '}' {
		return nil, nil, false
	}
	p := start + 1
	var offs []int
	for {
		for k := range 2 {
			if p >= len(b) || b[p] != '"' {
				return nil, nil, false
			}
			p++
			from := p
			for p < len(b) && plain[b[p]] {
				p++
			}
			if p >= len(b) || b[p] != '"' { // an escape, a control character, the end
				return nil, nil, false
			}
			offs = append(offs, from-start, p-start)
			p++
			if k == 0 {
				if p >= len(b) || b[p] != ':' {
					return nil, nil, false
				}
				p++
			}
		}
		if p < len(b) && b[p] == ',' {
			p++
			continue
		}
		if p < len(b) && b[p] == '}' {
			break
		}
		return nil, nil, false
	}
	p++
	if !utf8.Valid(b[start:p]) {
		return nil, nil, false
	}
	all := string(b[start:p])
	m, sorted := make(map[string]string, len(offs)/4), make([]string, 0, len(offs)/4)
	inOrder := true
	for i := 0; i < len(offs); i += 4 {
		key := all[offs[i]:offs[i+1]]
		inOrder = inOrder && (len(sorted) == 0 || key > sorted[len(sorted)-1])
		m[key] = all[offs[i+2]:offs[i+3]]
		sorted = append(sorted, key)
	}
	if len(m) != len(offs)/4 {
		return nil, nil, false
	}
	if !inOrder {
		sorted = nil
	}
	s.p = p
	return m, sorted, true
}

// versions reads an object of notes' versions (Carry.Notes,
// Carry.Changes).
func (s *scanner) versions() (map[string]string, bool) { return objectOf(s, s.str) }

func (s *scanner) lists() (map[string][]string, bool) { return objectOf(s, s.strs) }

// objectOf reads an object whose members' values value reads; a key
// twice is refused.
func objectOf[T any](s *scanner, value func() (T, bool)) (map[string]T, bool) {
	m := map[string]T{}
	ok := s.object(func(key string) bool {
		if _, dup := m[key]; dup {
			return false
		}
		v, ok := value()
		m[key] = v
		return ok
	})
	return m, ok
}

func (s *scanner) strs() (l []string, ok bool) {
	if !s.is('[') {
		return nil, false
	}
	l = []string{}
	if s.is(']') {
		return l, true
	}
	for {
		v, ok := s.str()
		if !ok {
			return nil, false
		}
		l = append(l, v)
		if s.is(']') {
			return l, true
		}
		if !s.is(',') {
			return nil, false
		}
	}
}

func (s *scanner) boolean() (bool, bool) {
	s.ws()
	switch {
	case len(s.b)-s.p >= 4 && string(s.b[s.p:s.p+4]) == "true":
		s.p += 4
		return true, true
	case len(s.b)-s.p >= 5 && string(s.b[s.p:s.p+5]) == "false":
		s.p += 5
		return false, true
	}
	return false, false
}

// count reads a non-negative integer written as encoding/json writes it
// (digits, no leading zero), below 10^18; anything else is left to
// encoding/json.
func (s *scanner) count() (int64, bool) {
	s.ws()
	start := s.p
	for s.p < len(s.b) && s.b[s.p] >= '0' && s.b[s.p] <= '9' {
		s.p++
	}
	digits := s.b[start:s.p]
	if len(digits) == 0 || len(digits) > 18 || len(digits) > 1 && digits[0] == '0' {
		return 0, false
	}
	n, err := strconv.ParseInt(string(digits), 10, 64)
	return n, err == nil
}

// raw takes one JSON value as it is written (json.RawMessage keeps it
// so), checked as it is walked, as json.Valid checks it: no second pass
// over the value. A null is left to encoding/json.
func (s *scanner) raw() (json.RawMessage, bool) {
	s.ws()
	start := s.p
	if !s.value() || string(s.b[start:s.p]) == "null" {
		return nil, false
	}
	return append(json.RawMessage(nil), s.b[start:s.p]...), true
}

// maxDepth is the deepest encoding/json reads a value; value leaves a
// deeper one to it (and to its error).
const maxDepth = 10000

// value moves past one JSON value, false when it is none: the containers
// open are a stack of their closing bytes.
func (s *scanner) value() bool {
	var open []byte
	for {
		s.ws()
		if s.p >= len(s.b) {
			return false
		}
		switch c := s.b[s.p]; c {
		case '{', '[':
			if len(open) == maxDepth {
				return false
			}
			s.p++
			end := c + 2 // '}' and ']' follow '{' and '[' two code points on
			if s.is(end) {
				break
			}
			if open = append(open, end); c == '{' && !s.key() {
				return false
			}
			continue
		case '"':
			if !s.skipString() {
				return false
			}
		default:
			if !s.scalar() {
				return false
			}
		}
		var ok bool
		if open, ok = s.after(open); !ok || len(open) == 0 {
			return ok
		}
	}
}

// after moves past the ends of the containers a value closes, and the
// comma (and key) before the next one; it returns the containers still
// open.
func (s *scanner) after(open []byte) ([]byte, bool) {
	for len(open) > 0 {
		end := open[len(open)-1]
		if s.is(',') {
			return open, end == ']' || s.key()
		}
		if !s.is(end) {
			return open, false
		}
		open = open[:len(open)-1]
	}
	return open, true
}

// key moves past an object's key and its colon.
func (s *scanner) key() bool {
	s.ws()
	return s.p < len(s.b) && s.b[s.p] == '"' && s.skipString() && s.is(':')
}

// skipString moves past a string at s.p, checked as JSON's grammar has
// it (escapes, no control character); its bytes need not be UTF-8, as
// in json.Valid. It notes what json.Marshal would escape (loose).
func (s *scanner) skipString() bool {
	b, p := s.b, s.p+1
	for p < len(b) {
		c := b[p]
		if escapes[c] == 0 {
			p++
			continue
		}
		switch {
		case c == '"':
			s.p = p + 1
			return true
		case c == '\\':
			if p+1 >= len(b) {
				return false
			}
			switch b[p+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p += 2
			case 'u':
				if p+6 > len(b) || !hex4(b[p+2:p+6]) {
					return false
				}
				p += 6
			default:
				return false
			}
		case c < 0x20:
			return false
		case c == 0xe2:
			s.loose = s.loose || p+2 < len(b) && b[p+1] == 0x80 && (b[p+2] == 0xa8 || b[p+2] == 0xa9)
			p++
		default: // <, > or &
			s.loose = true
			p++
		}
	}
	return false
}

func hex4(h []byte) bool {
	for _, c := range h {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// scalar moves past a number, true, false or null.
func (s *scanner) scalar() bool {
	for _, lit := range []string{"true", "false", "null"} {
		if len(s.b)-s.p >= len(lit) && string(s.b[s.p:s.p+len(lit)]) == lit {
			s.p += len(lit)
			return true
		}
	}
	return s.number()
}

// number moves past a number as JSON writes one:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() bool {
	b, p := s.b, s.p
	if p < len(b) && b[p] == '-' {
		p++
	}
	switch {
	case p < len(b) && b[p] == '0':
		p++
	case p < len(b) && '1' <= b[p] && b[p] <= '9':
		p = digits(b, p)
	default:
		return false
	}
	if p < len(b) && b[p] == '.' {
		if q := digits(b, p+1); q > p+1 {
			p = q
		} else {
			return false
		}
	}
	if p < len(b) && (b[p] == 'e' || b[p] == 'E') {
		p++
		if p < len(b) && (b[p] == '+' || b[p] == '-') {
			p++
		}
		if q := digits(b, p); q > p {
			p = q
		} else {
			return false
		}
	}
	s.p = p
	return true
}

// digits returns the end of the run of digits at p.
func digits(b []byte, p int) int {
	for p < len(b) && '0' <= b[p] && b[p] <= '9' {
		p++
	}
	return p
}

// str reads a JSON string. It declines invalid UTF-8 and lone surrogates,
// which encoding/json replaces by U+FFFD, and control characters, which
// it refuses.
func (s *scanner) str() (string, bool) {
	if !s.is('"') {
		return "", false
	}
	start := s.p
	s.run()
	if s.p < len(s.b) && s.b[s.p] == '"' {
		v := s.b[start:s.p]
		s.p++
		return string(v), utf8.Valid(v)
	}
	if s.p < len(s.b) && s.b[s.p] == '\\' && utf8.Valid(s.b[start:s.p]) {
		return s.escaped(start)
	}
	return "", false
}

// plain holds the bytes a JSON string holds as they are: not a quote, a
// backslash or a control character.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// run moves past the plain bytes at s.p, a run the caller checks is UTF-8
// with one utf8.Valid (a rune's bytes are all beyond ASCII, so no rune
// spans two runs). A request's file texts are most of its bytes, and on
// the wasm engine this loop is 12 times cheaper over locals than over s.p
// and s.b (Go's wasm code stores and reloads a field at every turn), and
// scanning by runs rather than by rune cheaper again.
func (s *scanner) run() {
	b, p := s.b, s.p
	for p < len(b) && plain[b[p]] {
		p++
	}
	s.p = p
}

// escaped goes on with a string that has escapes, from its start; s.p is
// at the first backslash. It finds the closing quote first, so that the
// string is built in one buffer of the right size, with locals (see run).
func (s *scanner) escaped(start int) (string, bool) {
	b, p := s.b, s.p
	end := p
	for end < len(b) && b[end] != '"' {
		if b[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(b) {
		return "", false
	}
	var out strings.Builder
	out.Grow(end - start)
	out.Write(b[start:p])
	for p < end {
		c := b[p]
		switch {
		case c == '\\':
			var ok bool
			if p, ok = unescape(&out, b[:end], p); !ok {
				return "", false
			}
		case c < 0x20:
			return "", false
		default:
			from := p
			for p < end && plain[b[p]] {
				p++
			}
			if !utf8.Valid(b[from:p]) {
				return "", false
			}
			out.Write(b[from:p])
		}
	}
	s.p = end + 1
	return out.String(), true
}

// simple is what the escapes of one byte stand for ("\n" a newline);
// 0 for none (a \u escape or an invalid one).
var simple = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// unescape writes to out the escape at b[p] (a backslash) and returns
// where it ends; false for one encoding/json would not read as it is (a
// surrogate, whose pairs are rare, goes to encoding/json).
func unescape(out *strings.Builder, b []byte, p int) (int, bool) {
	e := b[p+1]
	if c := simple[e]; c != 0 {
		out.WriteByte(c)
		return p + 2, true
	}
	if e != 'u' || p+6 > len(b) {
		return p, false
	}
	v, err := strconv.ParseUint(string(b[p+2:p+6]), 16, 16)
	if err != nil || v >= 0xd800 && v < 0xe000 {
		return p, false
	}
	out.WriteRune(rune(v))
	return p + 6, true
}
