//go:build !unix

package vaultfs

import "io/fs"

// dirIDOf reports no identity: dirSet compares with os.SameFile instead.
func dirIDOf(fs.FileInfo) (dirID, bool) { return dirID{}, false }
