//go:build !linux

package vaultfs

import (
	"io/fs"
	"os"
)

// readDirents lists the folder f (see the Linux version).
func readDirents(f *os.File) ([]dirent, error) {
	des, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	out := make([]dirent, 0, len(des))
	for _, de := range des {
		out = append(out, dirent{name: de.Name(), typ: de.Type()})
	}
	return out, nil
}

// lstatAt returns the FileInfo of entry name of folder dir, not
// following a symbolic link (see the Linux version).
func (v *Vault) lstatAt(_ *os.File, dir, name string) (fs.FileInfo, error) {
	return v.root.Lstat(join(dir, name))
}

// exactNames is false here: a file system may ignore case (macOS,
// Windows), and a name found by name may not be the entry's own, so
// probeDirents reads it back (entryName).
func exactNames(*os.File) bool { return false }
