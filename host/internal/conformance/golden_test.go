package conformance

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestAnswersIndented checks that every case stores its answer.json
// indented as SetAnswer writes it (json.Indent, two spaces), so that an
// updated answer reads as a diff of lines.
func TestAnswersIndented(t *testing.T) {
	names, err := filepath.Glob("../../../testdata/cases/*.txtar")
	if err != nil || len(names) == 0 {
		t.Fatalf("no case: %v", err)
	}
	for _, n := range names {
		a, err := txtar.ParseFile(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if f.Name != "answer.json" {
				continue
			}
			compact, err := compactAnswer(f.Data)
			if err != nil {
				t.Errorf("%s: %v", filepath.Base(n), err)
				continue
			}
			if want, err := indentAnswer(compact); err != nil || !bytes.Equal(f.Data, want) {
				t.Errorf("%s: answer.json is not stored indented (%v); run the conformance tests with -update", filepath.Base(n), err)
			}
		}
	}
}

// TestAnswerCompacted checks that an answer stored indented loads as the
// compact bytes a host prints, escapes and all, and that SetAnswer writes
// back what loads the same.
func TestAnswerCompacted(t *testing.T) {
	const answer = `{"ok":true,"result":{"summary_md":"a \u003cb\u003e \"c\"\n","list":[],"obj":{},"n":1.50}}`
	path := filepath.Join(t.TempDir(), "c.txtar")
	text := "-- call.json --\n{\"tool\":\"x\"}\n-- answer.json --\n{\n  \"ok\": true,\n  \"result\": {\n    \"summary_md\": \"a \\u003cb\\u003e \\\"c\\\"\\n\",\n    \"list\": [],\n    \"obj\": {},\n    \"n\": 1.50\n  }\n}\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.Answer != answer {
		t.Fatalf("loaded answer\n%s\nwant\n%s", c.Answer, answer)
	}
	if err := c.SetAnswer(answer); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != text {
		t.Errorf("SetAnswer wrote\n%s\nwant\n%s", b, text)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(text, "true", "tru", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFile(path); err == nil || !strings.Contains(err.Error(), "answer.json") {
		t.Errorf("LoadFile(answer.json not JSON) error = %v; want it named", err)
	}
}
