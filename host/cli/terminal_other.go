//go:build !linux

package cli

import (
	"io"
	"os"
)

// isTerminal reports whether r is a terminal: only then may a command ask
// a question and wait for the answer. Elsewhere than on Linux, a
// character device (which /dev/null is too: a question asked there reads
// the end of input at once, and is answered no).
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
