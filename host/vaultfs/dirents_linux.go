//go:build linux

package vaultfs

import (
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// readDirents lists the folder f with the types getdents64 reports, without
// a stat per entry. (os.File.ReadDir stats every entry of a folder opened
// through an os.Root: 50,000 archives cost 100 ms that way.) A type the
// file system does not report is unknown (^fs.FileMode(0)); the caller
// stats those.
func readDirents(f *os.File) ([]dirent, error) {
	buf := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(buf)
	out, err := direntsOf(int(f.Fd()), *buf, nil)
	if err != nil {
		return nil, &os.PathError{Op: "readdirent", Path: f.Name(), Err: err}
	}
	return out, nil
}

// direntBufs are readDirents's buffers, kept between listings (a worklog
// lists a folder per project, each a 64 KiB buffer to clear otherwise).
var direntBufs = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// direntsOf appends to out the entries of the folder open as fd, read
// through buf, as readDirents lists them.
func direntsOf(fd int, buf []byte, out []dirent) ([]dirent, error) {
	for {
		n, err := syscall.ReadDirent(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return out, nil
		}
		for b := buf[:n]; len(b) >= 19; {
			reclen := int(*(*uint16)(unsafe.Pointer(&b[16])))
			if reclen < 19 || reclen > len(b) {
				break
			}
			typ := b[18]
			name := b[19:reclen]
			for i, c := range name {
				if c == 0 {
					name = name[:i]
					break
				}
			}
			b = b[reclen:]
			if s := string(name); s != "." && s != ".." {
				out = append(out, dirent{name: s, typ: direntType(typ)})
			}
		}
	}
}

func direntType(t byte) fs.FileMode {
	switch t {
	case syscall.DT_REG:
		return 0
	case syscall.DT_DIR:
		return fs.ModeDir
	case syscall.DT_LNK:
		return fs.ModeSymlink
	case syscall.DT_FIFO:
		return fs.ModeNamedPipe
	case syscall.DT_SOCK:
		return fs.ModeSocket
	case syscall.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.DT_BLK:
		return fs.ModeDevice
	}
	return ^fs.FileMode(0)
}

// lstatAt returns the FileInfo of entry name of the open folder d (at
// vault path dir), not following a symbolic link: one fstatat on d's
// handle, where a path from the vault's root would open every folder on
// the way again.
func (v *Vault) lstatAt(d *os.File, dir, name string) (fs.FileInfo, error) {
	st, err := statAt(int(d.Fd()), name, unix.AT_SYMLINK_NOFOLLOW)
	if err != nil {
		return nil, &os.PathError{Op: "fstatat", Path: join(dir, name), Err: err}
	}
	return &statInfo{name: name, st: st}, nil
}

// fstatat is unix.Fstatat; tests interrupt it.
var fstatat = unix.Fstatat

// statAt is fstatat of entry name of the folder open as fd, made again
// while a signal interrupts it (EINTR): every stat of the vault's entries
// goes through it.
func statAt(fd int, name string, flags int) (unix.Stat_t, error) {
	var st unix.Stat_t
	for {
		if err := fstatat(fd, name, &st, flags); err != syscall.EINTR {
			return st, err
		}
	}
}

// exactNames reports whether a name found in the open folder d is the
// entry's own: true unless d is case-insensitive (casefold).
func exactNames(d *os.File) bool {
	flags, err := unix.IoctlGetUint32(int(d.Fd()), unix.FS_IOC_GETFLAGS)
	return err != nil || flags&fsCasefoldFL == 0
}

// entryName cannot read an entry's own name back on Linux without
// listing its folder: a casefold folder, which is rare, is listed.
func entryName(*os.File, string, string, fs.FileInfo) (string, bool, error) {
	return "", false, nil
}

// fsCasefoldFL is the inode flag of a case-insensitive folder
// (FS_CASEFOLD_FL in linux/fs.h).
const fsCasefoldFL = 0x40000000

// statInfo is an fs.FileInfo from fstatat; Sys is the *unix.Stat_t, which
// dirIDOf reads as it reads os's *syscall.Stat_t.
type statInfo struct {
	name string
	st   unix.Stat_t
}

func (s *statInfo) Name() string       { return s.name }
func (s *statInfo) Size() int64        { return s.st.Size }
func (s *statInfo) ModTime() time.Time { return time.Unix(s.st.Mtim.Unix()) }
func (s *statInfo) IsDir() bool        { return s.Mode().IsDir() }
func (s *statInfo) Sys() any           { return &s.st }

func (s *statInfo) Mode() fs.FileMode {
	m := fs.FileMode(s.st.Mode & 0o777)
	switch s.st.Mode & syscall.S_IFMT {
	case syscall.S_IFDIR:
		m |= fs.ModeDir
	case syscall.S_IFLNK:
		m |= fs.ModeSymlink
	case syscall.S_IFIFO:
		m |= fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		m |= fs.ModeSocket
	case syscall.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		m |= fs.ModeDevice
	}
	return m
}
