//go:build !unix && !windows

package vaultfs

import (
	"errors"
	"syscall"
)

// diskFull reports whether err says the disk has no room left for a
// write.
func diskFull(err error) bool { return errors.Is(err, syscall.ENOSPC) }
