package tools

import "testing"

// TestAppendListItem: a zone index's new entry follows a final list item
// directly, else comes after one blank line, in the file's line ending.
func TestAppendListItem(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"# K\n\n- [[a]]\n", "# K\n\n- [[a]]\n- [[b]]\n"},
		{"# K\n\n- [[a]]", "# K\n\n- [[a]]\n- [[b]]\n"},
		{"# K\r\n\r\n- [[a]]\r\n", "# K\r\n\r\n- [[a]]\r\n- [[b]]\r\n"},
		{"# K\n\n- [[a]]\n\n", "# K\n\n- [[a]]\n\n- [[b]]\n"},
		{"# K\n\nAtoms of this zone.\n", "# K\n\nAtoms of this zone.\n\n- [[b]]\n"},
		{"# K\n", "# K\n\n- [[b]]\n"},
		{"", "- [[b]]\n"},
	} {
		if got := appendListItem(c.in, "- [[b]]"); got != c.want {
			t.Errorf("appendListItem(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}
