//go:build unix

package vaultfs

import (
	"io/fs"
	"syscall"
)

// dirIDOf returns the device and inode of the file info describes.
func dirIDOf(info fs.FileInfo) (dirID, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return dirID{}, false
	}
	return dirID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, true
}
