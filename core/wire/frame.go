package wire

import "bytes"

// Sep ends the JSON of a request or an answer when index bytes follow it:
// a NUL, which no JSON text holds (a string escapes it, and nothing else
// may carry it).
const Sep = 0

// Join returns text followed, when index is not empty, by Sep and index:
// a request or an answer with its index beside it.
func Join(text, index []byte) []byte {
	if len(index) == 0 {
		return text
	}
	return append(append(append(make([]byte, 0, len(text)+1+len(index)), text...), Sep), index...)
}

// Prepend returns what Join(text, index) returns, made in index's own
// buffer when its spare capacity holds text and Sep (Index.EncodeRoom):
// index's bytes are moved after them, and index must not be read again.
// An index handed back to the host is then one allocation of its size in
// the core, not two.
func Prepend(text, index []byte) []byte {
	n := len(text) + 1
	if len(index) == 0 || cap(index)-len(index) < n {
		return Join(text, index)
	}
	out := index[:n+len(index)]
	copy(out[n:], index) // copy moves overlapping bytes as memmove does
	copy(out, text)
	out[n-1] = Sep
	return out
}

// Split cuts what Join made: the JSON text, and the bytes after Sep (nil
// when there is none).
func Split(b []byte) (text, index []byte) {
	if i := bytes.IndexByte(b, Sep); i >= 0 {
		return b[:i], b[i+1:]
	}
	return b, nil
}
