package relocate

import (
	"fmt"
	"testing"
)

func TestAppendLogLine(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"# Log\n\n- a\n", "# Log\n\n- a\n- b\n"},
		{"# Log\n\n- a", "# Log\n\n- a\n- b\n"},
		{"# Log\n", "# Log\n\n- b\n"},
		{"# Log\n\nSome text.\n", "# Log\n\nSome text.\n\n- b\n"},
		{"# Log\r\n\r\n- a\r\n", "# Log\r\n\r\n- a\r\n- b\r\n"},
		{"# Log\n\n", "# Log\n\n- b\n"},
	} {
		if got := AppendLogLine(tt.in, "- b"); got != tt.want {
			t.Errorf("AppendLogLine(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestChangedLines(t *testing.T) {
	got := changedLines("a\r\n/x/y\r\nb\r\n", "a\r\n<repo>/y\r\nb\r\n", 4)
	if fmt.Sprint(got) != "[{6 /x/y <repo>/y}]" {
		t.Errorf("changedLines = %v", got)
	}
}
