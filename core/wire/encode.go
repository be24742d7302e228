package wire

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"unicode/utf8"
)

// CompactArgs returns a request's arguments as encoding/json writes them
// in a struct (compacted, HTML's characters escaped), or its error for
// arguments that are not JSON. A host compacts a call's arguments once,
// and sends them so every round (EncodeCompacted): json.Marshal of a
// request is CompactArgs then EncodeCompacted.
func CompactArgs(args json.RawMessage) (json.RawMessage, error) {
	if len(args) == 0 {
		return args, nil
	}
	return json.Marshal(args)
}

// EncodeCompacted returns req as encoding/json writes it, byte for byte,
// req.Args being as CompactArgs returns them (it copies them as they
// are), with notes, when not nil, as its search carry's "notes"
// (req.Search's own Notes are not written): the request of every round
// of every call.
//
// It is written by hand rather than by json.Marshal, whose reflective map
// encoder sorts the keys through reflection and whose growing buffer is
// cleared and copied at every doubling: a first search index build sends
// every note's text, 15 MB at 10,000 notes, and a worklog of a week of
// sessions sends hundreds of files. The buffer is sized up front from the
// texts' lengths, and strings are escaped in runs (appendString). Fields
// keep Request's order. TestRequestFields fails when a field is added to
// a type written here. DecodeRequest reads it back.
func EncodeCompacted(req *Request, notes map[string]string) []byte {
	b := make([]byte, 0, requestSize(req, notes))
	b = appendString(append(b, `{"tool":`...), req.Tool)
	if len(req.Args) > 0 {
		b = append(append(b, `,"args":`...), req.Args...)
	}
	b = appendString(append(b, `,"now":`...), req.Now)
	if req.TZ != "" {
		b = appendString(append(b, `,"tz":`...), req.TZ)
	}
	if req.Lang != "" {
		b = appendString(append(b, `,"lang":`...), req.Lang)
	}
	if len(req.Files) > 0 {
		b = appendFiles(append(b, `,"files":`...), req.Files)
	}
	if len(req.Heads) > 0 {
		b = appendHeads(append(b, `,"heads":`...), req.Heads)
	}
	if len(req.Missing) > 0 {
		b = appendStrings(append(b, `,"missing":`...), req.Missing)
	}
	if len(req.Dirs) > 0 {
		b = appendLists(append(b, `,"dirs":`...), req.Dirs)
	}
	if len(req.Matches) > 0 {
		b = appendLists(append(b, `,"matches":`...), req.Matches)
	}
	if len(req.RawDirs) > 0 {
		b = appendLists(append(b, `,"raw_dirs":`...), req.RawDirs)
	}
	if len(req.RawMatches) > 0 {
		b = appendLists(append(b, `,"raw_matches":`...), req.RawMatches)
	}
	if req.Search != nil {
		b = appendCarry(append(b, `,"search":`...), req.Search, notes)
	}
	return append(b, '}')
}

// requestSize is about the length of req's JSON with notes, from its
// texts' lengths: EncodeCompacted's buffer, made once.
func requestSize(req *Request, notes map[string]string) int {
	size := 256 + len(req.Args) + len(req.Tool) + len(req.TZ) + len(req.Lang)
	for p, f := range req.Files {
		size += len(p) + len(f.SHA256) + len(`"":{"sha256":"","text":"","not_utf8":true},`)
		if f.Text != nil {
			size += len(*f.Text) + len(*f.Text)>>4 // room for escapes (a newline every 40 bytes is 1/40)
		}
	}
	for p, h := range req.Heads {
		size += len(p) + len(`"":{"text":"","not_utf8":true,"size":},`) + 20
		if h.Text != nil {
			size += len(*h.Text) + len(*h.Text)>>4
		}
	}
	for p, v := range notes {
		size += len(p) + len(v) + len(`"":"",`)
	}
	for _, p := range req.Missing {
		size += len(p) + 3
	}
	return size
}

// appendCarry appends c with notes as its "notes" (see EncodeCompacted).
func appendCarry(b []byte, c *Carry, notes map[string]string) []byte {
	b = append(b, '{')
	n := len(b)
	if c.Listing != "" {
		b = appendString(append(b, `"listing":`...), c.Listing)
	}
	if c.ID != "" {
		b = appendString(append(comma(b, n), `"id":`...), c.ID)
	}
	if c.Full {
		b = append(comma(b, n), `"full":true`...)
	}
	if len(notes) > 0 {
		b = appendVersions(append(comma(b, n), `"notes":`...), notes)
	}
	if c.Batch != 0 {
		b = strconv.AppendInt(append(comma(b, n), `"batch":`...), c.Batch, 10)
	}
	if c.Unkept != "" {
		b = appendString(append(comma(b, n), `"unkept":`...), c.Unkept)
	}
	if c.Segments {
		b = append(comma(b, n), `"segments":true`...)
	}
	if c.Since != "" {
		b = appendString(append(comma(b, n), `"since":`...), c.Since)
	}

	if len(c.Changes) > 0 {
		b = appendVersions(append(comma(b, n), `"changes":`...), c.Changes)
	}
	if c.Hand {
		b = append(comma(b, n), `"hand":true`...)
	}
	if c.Paced {
		b = append(comma(b, n), `"paced":true`...)
	}
	if c.Keep {
		b = append(comma(b, n), `"keep":true`...)
	}
	if c.Indexed != 0 {
		b = strconv.AppendInt(append(comma(b, n), `"indexed":`...), int64(c.Indexed), 10)
	}
	if c.Left != 0 {
		b = strconv.AppendInt(append(comma(b, n), `"left":`...), int64(c.Left), 10)
	}
	return append(b, '}')
}

// comma appends a comma to b unless nothing was written since n (an
// object's first member).
func comma(b []byte, n int) []byte {
	if len(b) > n {
		return append(b, ',')
	}
	return b
}

// appendFiles appends files as encoding/json writes a map of File:
// keys sorted, the fields in order, text and not_utf8 left out when
// empty.
func appendFiles(b []byte, files map[string]File) []byte {
	b = append(b, '{')
	for i, p := range slices.Sorted(maps.Keys(files)) {
		if i > 0 {
			b = append(b, ',')
		}
		f := files[p]
		b = appendString(b, p)
		b = appendString(append(b, `:{"sha256":`...), f.SHA256)
		if f.Text != nil {
			b = appendString(append(b, `,"text":`...), *f.Text)
		}
		if f.NotUTF8 {
			b = append(b, `,"not_utf8":true`...)
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

// appendHeads appends heads as encoding/json writes a map of
// Head: keys sorted, text and not_utf8 left out when empty.
func appendHeads(b []byte, heads map[string]Head) []byte {
	b = append(b, '{')
	for i, p := range slices.Sorted(maps.Keys(heads)) {
		if i > 0 {
			b = append(b, ',')
		}
		h := heads[p]
		b = append(appendString(b, p), `:{`...)
		if h.Text != nil {
			b = append(appendString(append(b, `"text":`...), *h.Text), ',')
		}
		if h.NotUTF8 {
			b = append(b, `"not_utf8":true,`...)
		}
		b = append(strconv.AppendInt(append(b, `"size":`...), h.Size, 10), '}')
	}
	return append(b, '}')
}

// appendStrings appends list as a JSON array (null when nil).
func appendStrings(b []byte, list []string) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// appendLists appends m as a JSON object of arrays, keys sorted.
func appendLists(b []byte, m map[string][]string) []byte {
	b = append(b, '{')
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendStrings(append(appendString(b, k), ':'), m[k])
	}
	return append(b, '}')
}

// appendVersions appends notes as a JSON object, keys sorted, as
// encoding/json writes it.
func appendVersions(b []byte, notes map[string]string) []byte {
	b = append(b, '{')
	for i, p := range slices.Sorted(maps.Keys(notes)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendString(b, p), ':')
		b = appendString(b, notes[p])
	}
	return append(b, '}')
}

// escapes says, for each byte, what appendString does with it in a valid
// UTF-8 string: 0 copies it; 1 escapes it (an ASCII control character,
// a quote, a backslash, and <, > and & as encoding/json escapes them for
// HTML); 2 starts a character that may be U+2028 or U+2029, which
// encoding/json escapes too.
var escapes = func() (t [256]byte) {
	for c := range 0x20 {
		t[c] = 1
	}
	for _, c := range `"\<>&` {
		t[c] = 1
	}
	t[0xe2] = 2
	return t
}()

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string, as encoding/json writes it by
// default (HTML's characters escaped): the runs between the bytes to
// escape are copied whole. A string that is not valid UTF-8 (no note's
// text is, and no path) is written by encoding/json itself, each invalid
// byte replaced by U+FFFD.
func appendString(b []byte, s string) []byte {
	if !utf8.ValidString(s) {
		q, _ := json.Marshal(s) // a string always encodes
		return append(b, q...)
	}
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch escapes[c] {
		case 0:
			continue
		case 2:
			if i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xa8 || s[i+2] == 0xa9) {
				b = append(b, s[start:i]...)
				b = append(b, '\\', 'u', '2', '0', '2', hexDigits[s[i+2]&0xf])
				i += 2
				start = i + 1
			}
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '\\', '"':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
