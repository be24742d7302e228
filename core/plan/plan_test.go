package plan

import (
	"strings"
	"testing"
)

func TestCheckPath(t *testing.T) {
	good := []string{"a", "10-episodes/projects/x/context.md", "a b/c é.md", ".kessho/undo/alpha/2026-11-30-10h15-alpha-x.json",
		"10-episodes/projects/x/archives/.gitkeep"}
	bad := []string{"", "/etc/passwd", "../x", "a/../b", "a//b", "./a", "a/", ".obsidian/x", "a/.kessho/b", `a\b`, "C:/x", "a\x00b", "\xff",
		".kessho/undo", ".kessho/undo/", ".kessho/journal/x.json", ".kessho/lock", ".kessho/undo/../lock", ".kessho/undo/a/.x", ".kessho/undox/a", "a/.kessho/undo/b",
		".gitkeep", "a/.gitkeep/b", ".obsidian/.gitkeep", "a/.git/.gitkeep", ".kessho/undo/a/.gitkeep", "a/.gitkeeps", "a/.gitkeep.md"}
	for _, p := range good {
		if err := CheckPath(p); err != nil {
			t.Errorf("CheckPath(%q) = %v; want nil", p, err)
		}
	}
	for _, p := range bad {
		if err := CheckPath(p); err == nil {
			t.Errorf("CheckPath(%q) = nil; want an error", p)
		}
	}
}

func TestValidate(t *testing.T) {
	h := HashString("x")
	ok := Plan{WriteOp("a/b.md", Absent, ""), WriteOp("a/c.md", h, "y"), {Op: Delete, Path: "a/d.md", Expect: h},
		{Op: Move, From: "a", To: "b/a", Expect: Absent}, CheckOp("r.md", h), CheckOp("s.md", Absent)}
	if err := ok.Validate(); err != nil {
		t.Fatalf("Validate(good plan) = %v", err)
	}
	bad := map[string]Op{
		"write without text": {Op: Write, Path: "a", Expect: Absent},
		"expect":             WriteOp("a", "sha256:XYZ", "t"),
		"delete must expect": {Op: Delete, Path: "a", Expect: Absent},
		"move must expect":   {Op: Move, From: "a", To: "b"},
		"into itself":        {Op: Move, From: "a", To: "a/b", Expect: Absent},
		"unknown op":         {Op: "chmod", Path: "a"},
		"dot-folder":         WriteOp(".obsidian/app.json", Absent, "{}"),
		"is absolute":        WriteOp("/tmp", Absent, ""),
		"never moved":        {Op: Move, From: ".kessho/undo/a", To: "b", Expect: Absent},
		"must expect sha256": {Op: Delete, Path: "a", Expect: strings.ToUpper(h)},
	}
	for want, op := range bad {
		err := Plan{op}.Validate()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate(%+v) = %v; want an error saying %q", op, err, want)
		}
	}
}
