// Package vaulttest holds what the tests of the core and of the wire's
// fixtures share to build a vault's snapshot: the files as a host sends
// them.
package vaulttest

import (
	"crypto/sha256"
	"encoding/hex"
	"unicode/utf8"

	"github.com/kessho/kessho/core/wire"
)

// FileOf returns content as a host sends it: its SHA-256 and, when it is
// valid UTF-8, its text.
func FileOf(content string) wire.File {
	sum := sha256.Sum256([]byte(content))
	f := wire.File{SHA256: hex.EncodeToString(sum[:])}
	if utf8.ValidString(content) {
		f.Text = &content
	} else {
		f.NotUTF8 = true
	}
	return f
}
