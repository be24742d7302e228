//go:build darwin

package vaultfs

import (
	"io/fs"
	"os"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// entryName reads back the own name of entry name of the open folder d:
// the entry is opened through d (the link itself for a symbolic link,
// without blocking) and F_GETPATH gives its path as the disk spells it.
// Only a file, a folder or a link is opened; anything else is listed.
func entryName(d *os.File, _, name string, info fs.FileInfo) (string, bool, error) {
	switch info.Mode().Type() {
	case 0, fs.ModeDir, fs.ModeSymlink:
	default:
		return "", false, nil
	}
	fd, err := unix.Openat(int(d.Fd()), name, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_SYMLINK|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", false, nil
	}
	defer unix.Close(fd)
	buf := make([]byte, unix.PathMax)
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETPATH, int(uintptr(unsafe.Pointer(&buf[0])))); err != nil {
		return "", false, nil
	}
	p := unix.ByteSliceToString(buf)
	return p[strings.LastIndexByte(p, '/')+1:], true, nil
}
