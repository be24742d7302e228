//go:build !unix

package toolbench

import "os"

// maxRSS is unknown here: the report leaves the column empty.
func maxRSS(*os.ProcessState) int64 { return 0 }
