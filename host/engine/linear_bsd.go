//go:build darwin || freebsd || netbsd || openbsd

package engine

// hugePages does nothing here: these kernels choose large pages alone.
func hugePages([]byte) {}
