package frontmatter

import (
	"strings"
	"testing"
)

// TestSameNode: two values are the same tree when their kinds, tags,
// styles and texts match all the way down, wherever they sit in the file;
// a tree with an alias inside is never called the same (what it names may
// have changed), nor are a quoted and a plain scalar.
func TestSameNode(t *testing.T) {
	val := func(text, key string) *entry {
		t.Helper()
		d, err := Parse("---\n" + text + "---\n")
		if err != nil {
			t.Fatal(err)
		}
		e := d.find(key)
		if e == nil {
			t.Fatalf("no %q in %q", key, text)
		}
		return e
	}
	tests := []struct {
		name, a, b string
		want       bool
	}{
		{"same scalar, other line", "v: draft\n", "x: 1\nv: draft\n", true},
		{"same nested value", "v: [a, 'b', {c: 1, d: [2]}]\n", "z: q\n\nv: [a, 'b', {c: 1, d: [2]}]\n", true},
		{"same block list", "v:\n  - a\n  - b\n", "v:\n- a\n- b\n", true},
		{"other text", "v: draft\n", "v: drafts\n", false},
		{"quoted and plain", "v: '007'\n", "v: 007\n", false},
		{"int and float", "v: 1\n", "v: 1.0\n", false},
		{"one more item", "v: [a]\n", "v: [a, b]\n", false},
		{"alias", "b: &x a\nv: *x\n", "b: &x a\nv: *x\n", false},
		{"alias inside", "b: &x a\nv: [*x]\n", "b: &x a\nv: [*x]\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameNode(val(tt.a, "v").val, val(tt.b, "v").val); got != tt.want {
				t.Errorf("sameNode(%q, %q) = %v; want %v", strings.TrimSpace(tt.a), strings.TrimSpace(tt.b), got, tt.want)
			}
		})
	}
}

// TestSetRefusesWhenAnAliasWouldChange: the value an alias names changes
// with the key that defines it, so Set refuses, though the alias's own
// text stays the same.
func TestSetRefusesWhenAnAliasWouldChange(t *testing.T) {
	in := "---\nbase: &b x\nuse: [*b]\n---\n"
	if out, err := Set(in, "base", "y"); err == nil {
		// Set writes the anchor back or refuses; either way `use` must
		// still read as it did.
		d, perr := Parse(out)
		if perr != nil {
			t.Fatal(perr)
		}
		if v, _ := d.Lookup("use"); !same(v, []any{"x"}) {
			t.Errorf("Set(%q, base, y) = %q: use now reads %v", in, out, v)
		}
	}
}
