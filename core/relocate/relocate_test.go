package relocate

import "testing"

func TestRewrite(t *testing.T) {
	tests := []struct {
		text, root, want string
		n                int
	}{
		{"see /a/b/c and /a/b", "/a/b", "see <repo>/c and <repo>", 2},
		{"/a/bc /x/a/b a/a/b", "/a/b", "/a/bc /x/a/b a/a/b", 0},
		{"(`/a/b/x.go`), [l](/a/b/d/e.md).", "/a/b/", "(`<repo>/x.go`), [l](<repo>/d/e.md).", 2},
		{"end /a/b.", "/a/b", "end <repo>.", 1},
		{"/a/b.git", "/a/b", "/a/b.git", 0},
		{`C:\Users\Ada\src\k\core\x.go and c:/users/ada/SRC/k/y`, `C:\Users\Ada\src\k`, "<repo>/core/x.go and <repo>/y", 2},
		{`C:\Users\Ada\src\kessho`, `c:\users\ada\src\k`, `C:\Users\Ada\src\kessho`, 0},
		{`\\srv\share\repo\a\b`, `\\SRV\share\repo`, "<repo>/a/b", 1},
		{"été /dépôt/x/é.md", "/dépôt/x", "été <repo>/é.md", 1},
		{"anything /", "/", "anything /", 0},
		{"rel a/b", "a/b", "rel a/b", 0},
	}
	for _, tt := range tests {
		got, n := Rewrite(tt.text, tt.root)
		if got != tt.want || n != tt.n {
			t.Errorf("Rewrite(%q, %q) = %q, %d; want %q, %d", tt.text, tt.root, got, n, tt.want, tt.n)
		}
	}
}

func FuzzRewrite(f *testing.F) {
	f.Add("see /a/b/c and /a/b", "/a/b")
	f.Add(`C:\x\y z`, `c:/x`)
	f.Fuzz(func(t *testing.T, text, root string) {
		out, n := Rewrite(text, root)
		if n == 0 && out != text {
			t.Fatalf("no rewrite but text changed")
		}
		again, m := Rewrite(out, root)
		if m != 0 || again != out {
			t.Fatalf("Rewrite is not idempotent: %q → %q → %q", text, out, again)
		}
	})
}
