//go:build !linux

package vaultfs

import (
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
