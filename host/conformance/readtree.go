// Package conformance holds ReadTree alone, for host/call's deadline test:
// the conformance cases, their loader and their tests are
// host/internal/conformance, whose ReadTree this is. The package goes once
// that test imports host/internal/conformance.
package conformance

import cases "github.com/kessho/kessho/host/internal/conformance"

// ReadTree is host/internal/conformance's ReadTree: every file under dir
// by vault-relative path, Kessho's undo records included and the rest of
// the dot-folders left out.
func ReadTree(dir string) (map[string][]byte, error) { return cases.ReadTree(dir) }
