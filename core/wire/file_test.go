package wire

import (
	"crypto/sha256"
	"encoding/hex"
	"unicode/utf8"
)

// FileOf returns content as a host sends it: its SHA-256 and, when it is
// valid UTF-8, its text (core/internal/vaulttest's, which this package's
// tests cannot import).
func FileOf(content string) File {
	sum := sha256.Sum256([]byte(content))
	f := File{SHA256: hex.EncodeToString(sum[:])}
	if utf8.ValidString(content) {
		f.Text = &content
	} else {
		f.NotUTF8 = true
	}
	return f
}
