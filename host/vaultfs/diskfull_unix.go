//go:build unix

package vaultfs

import (
	"errors"
	"syscall"
)

// diskFull reports whether err says the disk has no room left for a
// write: no space on the device, or the user's quota used up.
func diskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}
