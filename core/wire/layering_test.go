package wire

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// deps lists the non-standard packages pkg imports, itself included
// (go list -deps).
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the packages' imports")
	}
	out, err := exec.Command(gocmd, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}

// TestLayering: the wire is a leaf (the standard library and core/plan),
// the host's decisions (core/hostlogic) do not link the core, and the
// disk (host/vaultfs) links no tool: a host's packages depend on the
// messages, not on what answers them.
func TestLayering(t *testing.T) {
	const mod = "github.com/kessho/kessho/"
	if got := deps(t, mod+"core/wire"); !slices.Equal(got, []string{mod + "core/plan", mod + "core/wire"}) {
		t.Errorf("core/wire imports %q; it may import core/plan alone", got)
	}
	for _, pkg := range []string{"core/hostlogic", "host/vaultfs"} {
		for _, d := range deps(t, mod+pkg) {
			if d == mod+"core" || d == mod+"core/tools" || strings.HasPrefix(d, mod+"core/tools/") {
				t.Errorf("%s imports %s", pkg, d)
			}
		}
	}
}
