//go:build unix

package vaultfs

import (
	"io/fs"
	"syscall"

	"golang.org/x/sys/unix"
)

// dirIDOf returns the device and inode of the file info describes (from
// os, or from lstatAt's fstatat).
func dirIDOf(info fs.FileInfo) (dirID, bool) {
	switch st := info.Sys().(type) {
	case *syscall.Stat_t:
		return dirID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, true
	case *unix.Stat_t:
		return dirID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, true
	}
	return dirID{}, false
}
