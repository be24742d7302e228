package frontmatter

import (
	"testing"

	"gopkg.in/yaml.v3"
)

// TestPlainTagIsYAMLs: plainTag gives the tag yaml.v3 resolves for a
// plain scalar, on every kind of first character and on dates valid and
// not.
func TestPlainTagIsYAMLs(t *testing.T) {
	for _, v := range []string{
		"draft", "Session 3", "é", "結晶", "_x", "/path", "(x)", "p001", "kessho-docs",
		"yes", "No", "true", "False", "on", "Off", "~", "null", "NULL", "y", "n",
		".5", ".nan", ".inf", "-1", "+2", "-", "-x", "0x1F", "0o17", "1_000", "007", "1e3", "12:30",
		"2026-11-26", "2026-02-30", "2026-1-5", "2026-11-26T10:15:00Z", "2026-11-26 10:15", "20261126", "2026-11-2x", "9999-12-31", "0000-01-01",
	} {
		n := &yaml.Node{Kind: yaml.ScalarNode, Value: v}
		if got, want := plainTag(n), n.ShortTag(); got != want {
			t.Errorf("plainTag(%q) = %s; yaml.v3 says %s", v, got, want)
		}
	}
}
