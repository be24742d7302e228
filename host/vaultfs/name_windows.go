//go:build windows

package vaultfs

import (
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// entryName reads back the own name of entry name of the open folder d
// (at vault path dir): FindFirstFile gives the name as the disk spells it
// (its long name, not a short 8.3 alias).
func entryName(d *os.File, dir, name string, _ fs.FileInfo) (string, bool, error) {
	p, err := windows.UTF16PtrFromString(filepath.Join(d.Name(), name))
	if err != nil {
		return "", false, nil
	}
	var data windows.Win32finddata
	h, err := windows.FindFirstFile(p, &data)
	if err != nil {
		return "", false, nil
	}
	windows.FindClose(h)
	return windows.UTF16ToString(data.FileName[:]), true, nil
}
