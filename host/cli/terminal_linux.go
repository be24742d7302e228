package cli

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// isTerminal reports whether r is a terminal: only then may a command ask
// a question and wait for the answer. On Linux, a file whose terminal
// settings can be read (TCGETS), so that /dev/null, a character device
// too, is none.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}
