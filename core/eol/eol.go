// Package eol helps read text whose lines may end in a lone "\r" (old Mac
// files), which Markdown and YAML readers do not all treat as a line end.
package eol

import (
	"bytes"
	"strings"
)

// firstLoneCR returns the index of the first "\r" of s not followed by
// "\n", or -1.
func firstLoneCR[T string | []byte](s T, indexCR func(T, byte) int) int {
	for i := 0; i < len(s); i++ {
		// Most texts have no "\r" at all: indexCR (strings.IndexByte or
		// bytes.IndexByte) skips to the next one by the library's vector
		// search, not byte by byte.
		next := indexCR(s[i:], '\r')
		if next < 0 {
			return -1
		}
		i += next
		if i+1 == len(s) || s[i+1] != '\n' {
			return i
		}
	}
	return -1
}

// LoneCRBytes returns src, or a copy of it where each "\r" not followed
// by "\n" is a "\n": the same length and the same offsets, so positions
// read in the copy are positions in src, and lines that every reader
// sees as lines. src itself is never changed.
func LoneCRBytes(src []byte) []byte {
	i := firstLoneCR(src, bytes.IndexByte)
	if i < 0 {
		return src
	}
	b := append([]byte(nil), src...)
	for ; i < len(b); i++ {
		if b[i] == '\r' && (i+1 == len(b) || b[i+1] != '\n') {
			b[i] = '\n'
		}
	}
	return b
}

// LoneCR is LoneCRBytes for a string.
func LoneCR(s string) string {
	if firstLoneCR(s, strings.IndexByte) < 0 {
		return s
	}
	return string(LoneCRBytes([]byte(s)))
}
