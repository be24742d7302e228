package conformance

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestKitCasesUseTheFixture holds every case named kit-*.txtar to the
// fixture vault testdata/vaults/kit-conventions.txtar: its vault/ files
// are the fixture's, byte for byte, no more and no fewer. The cases carry
// a copy (so that every host's case loader reads them as any other case);
// this test keeps the copies from drifting.
func TestKitCasesUseTheFixture(t *testing.T) {
	a, err := txtar.ParseFile("../../testdata/vaults/kit-conventions.txtar")
	if err != nil {
		t.Fatal(err)
	}
	fixture := map[string][]byte{}
	for _, f := range a.Files {
		fixture[f.Name] = f.Data
	}
	cases, err := Load("../../testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		if !strings.HasPrefix(c.Name, "kit-") {
			continue
		}
		n++
		for p, d := range fixture {
			if got, ok := c.Vault[p]; !ok || !bytes.Equal(got, d) {
				t.Errorf("%s: vault/%s is not the fixture's", c.Name, p)
			}
		}
		for p := range c.Vault {
			if _, ok := fixture[p]; !ok {
				t.Errorf("%s: vault/%s is not in the fixture", c.Name, p)
			}
		}
	}
	if n == 0 {
		t.Error("no kit-*.txtar case")
	}
}
