//go:build windows

package vaultfs

import (
	"errors"

	"golang.org/x/sys/windows"
)

// diskFull reports whether err says the disk has no room left for a
// write (Windows names a full disk and a used-up quota the same way).
func diskFull(err error) bool {
	return errors.Is(err, windows.ERROR_DISK_FULL) || errors.Is(err, windows.ERROR_HANDLE_DISK_FULL)
}
