package recallbench

import (
	"io"
	"strings"
)

// benchDir is testdata/recall from this package's folder.
const benchDir = "../../../testdata/recall"

func stringsReader(s string) io.Reader { return strings.NewReader(s) }
