package frontmatter

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestSet(t *testing.T) {
	tests := []struct {
		name, in, key string
		value         any
		want          string
	}{
		{"plain scalar", "---\ntitle: Old\nphase: draft\n---\nbody\n", "phase", "review",
			"---\ntitle: Old\nphase: review\n---\nbody\n"},
		{"accents and emoji before the key", "---\nnöte: café 😀 ünï\n\"ém😀ji\": \"é\"\ntitle: Old\n---\nbody ü\n", "title", "Nèw 🎉",
			"---\nnöte: café 😀 ünï\n\"ém😀ji\": \"é\"\ntitle: Nèw 🎉\n---\nbody ü\n"},
		{"emoji in the edited key", "---\n\"ém😀ji\": \"é\" # c\nx: 1\n---\n", "ém😀ji", "ü😀",
			"---\n\"ém😀ji\": \"ü😀\" # c\nx: 1\n---\n"},
		{"value after emoji on the same line", "---\n😀😀: 'old'\n---\n", "😀😀", "new",
			"---\n😀😀: 'new'\n---\n"},
		{"single quotes kept, comment kept", "---\ntitle: 'Old' # keep\nx: 1\n---\n", "title", "it's new",
			"---\ntitle: 'it''s new' # keep\nx: 1\n---\n"},
		{"single quotes cannot carry a newline", "---\ntitle: 'Old' # keep\n---\n", "title", "a\nb",
			"---\ntitle: \"a\\nb\" # keep\n---\n"},
		{"double quotes kept", "---\na: \"x\"   # c\n---\n", "a", "plain",
			"---\na: \"plain\"   # c\n---\n"},
		{"plain cannot carry yes", "---\na: x # c\n---\n", "a", "yes",
			"---\na: \"yes\" # c\n---\n"},
		{"trailing spaces elsewhere kept", "---\na: 1   \nb: 2 \n\n\nc: 3\n---   \nbody  \n", "b", "x",
			"---\na: 1   \nb: x \n\n\nc: 3\n---   \nbody  \n"},
		{"literal block to scalar", "---\nsummary: |\n  line one\n  line two\nnext: 1\n---\n", "summary", "short",
			"---\nsummary: short\nnext: 1\n---\n"},
		{"folded block to scalar", "---\ns: >-\n  a\n  b\n# about next\nnext: 1\n---\n", "s", "x",
			"---\ns: x\n# about next\nnext: 1\n---\n"},
		{"block list to scalar, key comment kept", "---\ntags: # c\n  - a\n  - b\nnext: 1\n---\n", "tags", "x",
			"---\ntags: x # c\nnext: 1\n---\n"},
		{"nested mapping to scalar", "---\nmeta:\n  a: 1\n  b: [x]\nz: end\n---\n", "meta", "flat",
			"---\nmeta: flat\nz: end\n---\n"},
		{"value on the next line", "---\nkey:\n  old value # c\nk: 1\n---\n", "key", "new",
			"---\nkey:\n  new # c\nk: 1\n---\n"},
		{"empty value", "---\na:\nb: 1\n---\n", "a", "v",
			"---\na: v\nb: 1\n---\n"},
		{"empty value with a comment", "---\na:   # c\n---\n", "a", "v",
			"---\na: v   # c\n---\n"},
		{"tagged value", "---\nt: !!str 123\n---\n", "t", "x",
			"---\nt: x\n---\n"},
		{"flow list stays flow", "---\ntags: [a, b] # c\n---\n", "tags", []string{"c", "yes", "d e"},
			"---\ntags: [c, \"yes\", d e] # c\n---\n"},
		{"flow list keeps its quotes", "---\ntags: ['a']\n---\n", "tags", []string{"b"},
			"---\ntags: ['b']\n---\n"},
		{"block list stays block at its indent", "---\ntags:\n- a\n- b\nx: 1\n---\n", "tags", []string{"p", "007"},
			"---\ntags:\n- p\n- \"007\"\nx: 1\n---\n"},
		{"indented block list", "---\ntags:\n    - a\n---\n", "tags", []string{"p", "q"},
			"---\ntags:\n    - p\n    - q\n---\n"},
		{"empty list", "---\ntags:\n  - a\nx: 1\n---\n", "tags", []string{},
			"---\ntags: []\nx: 1\n---\n"},
		{"scalar to list keeps the comment", "---\na: x # c\nb: 1\n---\n", "a", []string{"p"},
			"---\na: # c\n  - p\nb: 1\n---\n"},
		{"new list follows the file's list indent", "---\nl:\n- a\n---\n", "m", []string{"p"},
			"---\nl:\n- a\nm:\n- p\n---\n"},
		{"new key last", "---\na: 1\n# tail comment\n---\nbody\n", "b", "two words",
			"---\na: 1\n# tail comment\nb: two words\n---\nbody\n"},
		{"new list key", "---\na: 1\n---\n", "tags", []string{"x", "y"},
			"---\na: 1\ntags:\n  - x\n  - y\n---\n"},
		{"new key needing quotes", "---\na: 1\n---\n", "a: b", "v",
			"---\na: 1\n\"a: b\": v\n---\n"},
		{"new key in an indented mapping", "---\n  a: 1\n---\n", "b", "2",
			"---\n  a: 1\n  b: \"2\"\n---\n"},
		{"new key in empty frontmatter", "---\n---\nbody\n", "k", "v",
			"---\nk: v\n---\nbody\n"},
		{"null", "---\na: x\n---\n", "a", nil, "---\na: null\n---\n"},
		{"bool replaces quoted string", "---\ndone: \"false\" # c\n---\n", "done", true, "---\ndone: true # c\n---\n"},
		{"int", "---\nn: 1\n---\n", "n", 42, "---\nn: 42\n---\n"},
		{"float keeps its point", "---\nf: 0.5\n---\n", "f", 1.0, "---\nf: 1.0\n---\n"},
		{"mapping", "---\na: 1\n---\n", "m", map[string]any{"x": 1, "z": []any{"p"}},
			"---\na: 1\nm:\n  x: 1\n  z:\n    - p\n---\n"},
		{"alias value replaced", "---\nbase: &b x\nuse: *b\n---\n", "use", "y",
			"---\nbase: &b x\nuse: y\n---\n"},
		{"CRLF and BOM", "\ufeff---\r\ntitle: Old\r\n---\r\nbody\r\n", "tags", []string{"a", "b"},
			"\ufeff---\r\ntitle: Old\r\ntags:\r\n  - a\r\n  - b\r\n---\r\nbody\r\n"},
		{"CRLF block list replaced", "---\r\ntags:\r\n  - a\r\nx: 1\r\n---\r\n", "tags", []string{"b", "c"},
			"---\r\ntags:\r\n  - b\r\n  - c\r\nx: 1\r\n---\r\n"},
		{"no frontmatter", "# Title\n\ntext\n", "k", "v",
			"---\nk: v\n---\n# Title\n\ntext\n"},
		{"no frontmatter, BOM and CRLF", "\ufeff# Title\r\ntext\r\n", "k", "v",
			"\ufeff---\r\nk: v\r\n---\r\n# Title\r\ntext\r\n"},
		{"empty file", "", "k", "v", "---\nk: v\n---\n"},
		{"closing without newline", "---\na: 1\n---", "b", "2", "---\na: 1\nb: \"2\"\n---"},
		{"closing with dots", "---\na: 1\n...\nbody\n", "a", "2", "---\na: \"2\"\n...\nbody\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Set(tt.in, tt.key, tt.value)
			if err != nil {
				t.Fatalf("Set(%q, %q, %#v): %v", tt.in, tt.key, tt.value, err)
			}
			if got != tt.want {
				t.Errorf("Set(%q, %q, %#v) =\n%q\nwant\n%q", tt.in, tt.key, tt.value, got, tt.want)
			}
		})
	}
}

// TestNewScalar checks how a new string is written: plain where YAML (1.2
// and 1.1 readers alike) reads it back as the same string, double-quoted
// otherwise, with escapes that read back exactly.
func TestNewScalar(t *testing.T) {
	tests := []struct{ value, want string }{
		{"plain words", "plain words"},
		{"café 😀", "café 😀"},
		{"2026-11-30", "2026-11-30"},
		{"2026-11-30T10:15:00+01:00", "2026-11-30T10:15:00+01:00"},
		{"a#b", "a#b"},
		{"a:b", "a:b"},
		{"it's", "it's"},
		{`say "hi"`, `say "hi"`},
		{`back\slash`, `back\slash`},
		{"yes", `"yes"`},
		{"No", `"No"`},
		{"on", `"on"`},
		{"007", `"007"`},
		{"10:15", `"10:15"`},
		{": x", `": x"`},
		{"#c", `"#c"`},
		{"a #b", `"a #b"`},
		{"a: b", `"a: b"`},
		{"true", `"true"`},
		{"null", `"null"`},
		{"~", `"~"`},
		{"1.5", `"1.5"`},
		{"1e3", `"1e3"`},
		{" lead", `" lead"`},
		{"trail ", `"trail "`},
		{"- x", `"- x"`},
		{"[x]", `"[x]"`},
		{"{", `"{"`},
		{"&a", `"&a"`},
		{"*a", `"*a"`},
		{"!a", `"!a"`},
		{"%a", `"%a"`},
		{"@a", `"@a"`},
		{"`a", "\"`a\""},
		{"|a", `"|a"`},
		{">a", `">a"`},
		{"", `""`},
		{"a\nb", `"a\nb"`},
		{"tab\there", "tab\there"},
		{"\x00\x7f\u0085\u2028\ufeff", `"\0\x7F\N\L\uFEFF"`},
		{"é\n日本", "\"é\\n日本\""},
		{`q"\`, `q"\`},
		{"q\"\\\n", `"q\"\\\n"`},
	}
	for _, tt := range tests {
		got, err := Set("---\n---\n", "k", tt.value)
		if err != nil {
			t.Errorf("Set(%q): %v", tt.value, err)
			continue
		}
		if want := "---\nk: " + tt.want + "\n---\n"; got != want {
			t.Errorf("Set(%q) = %q, want %q", tt.value, got, want)
		}
		d, err := Parse(got)
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := d.Lookup("k"); v != tt.value {
			t.Errorf("Set(%q) reads back %#v", tt.value, v)
		}
	}
}

func TestRemove(t *testing.T) {
	tests := []struct{ name, in, key, want string }{
		{"scalar", "---\na: 1\nb: 2\nc: 3\n---\nbody\n", "b", "---\na: 1\nc: 3\n---\nbody\n"},
		{"block value and its comments", "---\nlist:\n  - x\n  # between\n  - y\n  # indented tail\n# about next\nnext: 1\n---\n", "list",
			"---\n# about next\nnext: 1\n---\n"},
		{"block scalar", "---\na: 1\ns: |\n  one\n\n  two\nb: 2\n---\n", "s", "---\na: 1\nb: 2\n---\n"},
		{"head comment stays", "---\n# about a\na: 1 # trailing goes\nb: 2\n---\n", "a", "---\n# about a\nb: 2\n---\n"},
		{"last key", "---\na: 1\nb:\n  c: 2\n---\n", "b", "---\na: 1\n---\n"},
		{"only key", "---\na: 1\n---\nbody", "a", "---\n---\nbody"},
		{"CRLF", "\ufeff---\r\na: 1\r\nb: [x,\r\n  y]\r\nc: 3\r\n---\r\n", "b", "\ufeff---\r\na: 1\r\nc: 3\r\n---\r\n"},
		{"emoji before", "---\n😀: 'é'\nb: 2\nc: 3\n---\n", "b", "---\n😀: 'é'\nc: 3\n---\n"},
		{"absent", "---\na: 1\n---\n", "z", "---\na: 1\n---\n"},
		{"no frontmatter", "text\n", "z", "text\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Remove(tt.in, tt.key)
			if err != nil {
				t.Fatalf("Remove(%q, %q): %v", tt.in, tt.key, err)
			}
			if got != tt.want {
				t.Errorf("Remove(%q, %q) =\n%q\nwant\n%q", tt.in, tt.key, got, tt.want)
			}
		})
	}
}

func TestSetBody(t *testing.T) {
	tests := []struct{ name, in, body, want string }{
		{"frontmatter kept", "---\r\na: 1 # c\r\n---\r\nold\r\n", "new\r\n", "---\r\na: 1 # c\r\n---\r\nnew\r\n"},
		{"closing without newline", "---\na: 1\n---", "new\n", "---\na: 1\n---\nnew\n"},
		{"empty body", "---\na: 1\n---\nold\n", "", "---\na: 1\n---\n"},
		{"no frontmatter", "\ufeffold\n", "new\n", "\ufeffnew\n"},
		{"body that looks like frontmatter", "old\n", "---\nx: 1\n---\n", "---\n---\n---\nx: 1\n---\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SetBody(tt.in, tt.body)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("SetBody(%q, %q) = %q, want %q", tt.in, tt.body, got, tt.want)
			}
			d, err := Parse(got)
			if err != nil || d.Body() != tt.body {
				t.Errorf("SetBody(%q, %q) reads back body %q (%v)", tt.in, tt.body, d.Body(), err)
			}
		})
	}
}

func TestInvalid(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
		reason   string
	}{
		{"unclosed", "---\na: 1\n", 1, "unclosed frontmatter"},
		{"unclosed with BOM", "\ufeff---\r\na: 1\r\n", 1, "unclosed frontmatter"},
		{"bad indentation", "---\na: 1\n  b: 2\n---\n", 3, "mapping values are not allowed in this context"},
		{"sequence under a mapping", "---\na: 1\nb: 2\n- c\n---\n", 4, "did not find expected key"},
		{"tab indentation", "---\na: 1\n\tb: 2\n---\n", 3, "found a tab character that violates indentation"},
		{"unclosed quote", "---\na: 1\nb: \"x\nc: 2\n---\nbody\n", 3, "found unexpected end of stream"},
		{"duplicate key", "---\na: 1\nb: 2\na: 3\n---\n", 4, `mapping key "a" already defined at line 2`},
		{"nested duplicate key", "---\nm:\n  x: 1\n  x: 2\n---\n", 4, `mapping key "x" already defined at line 3`},
		{"scalar", "---\njust text\n---\n", 2, "frontmatter is a scalar, not a mapping"},
		{"list", "---\n# c\n- a\n- b\n---\n", 3, "frontmatter is a list, not a mapping"},
		{"control character", "---\na: 1\nb: \x01\n---\n", 3, "control characters are not allowed"},
		{"first line", "---\na: b: c\n---\n", 2, "mapping values are not allowed in this context"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.in)
			var fe *Error
			if !errors.As(err, &fe) {
				t.Fatalf("Parse(%q) = %v, want *Error", tt.in, err)
			}
			if fe.Line != tt.line || fe.Reason != tt.reason {
				t.Errorf("Parse(%q) = line %d %q, want line %d %q", tt.in, fe.Line, fe.Reason, tt.line, tt.reason)
			}
			for name, edit := range map[string]func() (string, error){
				"Set":     func() (string, error) { return Set(tt.in, "a", "x") },
				"Remove":  func() (string, error) { return Remove(tt.in, "a") },
				"SetBody": func() (string, error) { return SetBody(tt.in, "x") },
			} {
				if out, err := edit(); !errors.As(err, &fe) || out != "" {
					t.Errorf("%s on invalid frontmatter = %q, %v; want \"\", *Error", name, out, err)
				}
			}
		})
	}
	if got := (&Error{Line: 3, Reason: "bad"}).Error(); got != "frontmatter line 3: bad" {
		t.Errorf("Error() = %q", got)
	}
}

func TestDelimiters(t *testing.T) {
	tests := []struct {
		in       string
		has      bool
		body, nl string
	}{
		{"---\na: 1\n---\nbody", true, "body", "\n"},
		{"---  \na: 1\n--- \t\nbody", true, "body", "\n"},
		{"\ufeff---\r\na: 1\r\n---\r\nbody", true, "body", "\r\n"},
		{"---\na: 1\n...\nbody", true, "body", "\n"},
		{"---\n---\n", true, "", "\n"},
		{"---\n---", true, "", "\n"},
		{"----\na: 1\n---\n", false, "----\na: 1\n---\n", "\n"},
		{" ---\na: 1\n---\n", false, " ---\na: 1\n---\n", "\n"},
		{"---x\n", false, "---x\n", "\n"},
		{"---", false, "---", "\n"},
		{"\ufefftext\r\nmore\n", false, "text\r\nmore\n", "\r\n"},
		{"", false, "", "\n"},
	}
	for _, tt := range tests {
		d, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if d.HasFrontmatter() != tt.has || d.Body() != tt.body || d.Newline() != tt.nl {
			t.Errorf("Parse(%q) = has %v body %q nl %q; want %v %q %q", tt.in, d.HasFrontmatter(), d.Body(), d.Newline(), tt.has, tt.body, tt.nl)
		}
		if tt.in[d.BodyOffset():] != d.Body() {
			t.Errorf("Parse(%q): BodyOffset %d does not point at the body", tt.in, d.BodyOffset())
		}
	}
}

func TestRead(t *testing.T) {
	text := "---\ntitle: 'Hello'\nday: 2026-11-30\nn: 007\nf: 1.5\nok: yes\ndone: true\nnone:\ntags: [a, 2]\nlist:\n  - x\nm: {a: 1, 2: b}\n\"é 😀\": v\n---\nbody\n"
	d, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.Keys(), []string{"title", "day", "n", "f", "ok", "done", "none", "tags", "list", "m", "é 😀"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Keys() = %q, want %q", got, want)
	}
	lookups := map[string]any{
		"title": "Hello", "day": "2026-11-30", "n": 7, "f": 1.5, "ok": "yes", "done": true, "none": nil,
		"tags": []any{"a", 2}, "list": []any{"x"}, "m": map[string]any{"a": 1, "2": "b"}, "é 😀": "v",
	}
	for k, want := range lookups {
		if got, ok := d.Lookup(k); !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("Lookup(%q) = %#v, %v; want %#v", k, got, ok, want)
		}
	}
	if _, ok := d.Lookup("absent"); ok {
		t.Error("Lookup(absent) ok")
	}
	strs := map[string]string{"title": "Hello", "n": "007", "f": "1.5", "ok": "yes", "none": ""}
	for k, want := range strs {
		if got, ok := d.String(k); !ok || got != want {
			t.Errorf("String(%q) = %q, %v; want %q", k, got, ok, want)
		}
	}
	if _, ok := d.String("tags"); ok {
		t.Error("String(tags) ok for a list")
	}
	lists := map[string][]string{"tags": {"a", "2"}, "list": {"x"}, "title": {"Hello"}, "none": {}}
	for k, want := range lists {
		if got, ok := d.Strings(k); !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("Strings(%q) = %q, %v; want %q", k, got, ok, want)
		}
	}
	for _, k := range []string{"m", "absent"} {
		if _, ok := d.Strings(k); ok {
			t.Errorf("Strings(%q) ok", k)
		}
	}
}

func TestFlowMapping(t *testing.T) {
	text := "---\n{a: 1, b: [x]}\n---\nbody\n"
	d, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Keys(); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("Keys() = %q", got)
	}
	var fe *Error
	if _, err := Set(text, "a", "2"); !errors.As(err, &fe) || fe.Line != 2 {
		t.Errorf("Set on a flow mapping: %v, want *Error on line 2", err)
	}
	if out, err := Remove(text, "zz"); err != nil || out != text {
		t.Errorf("Remove of an absent key on a flow mapping = %q, %v", out, err)
	}
	if out, err := SetBody(text, "new\n"); err != nil || out != "---\n{a: 1, b: [x]}\n---\nnew\n" {
		t.Errorf("SetBody on a flow mapping = %q, %v", out, err)
	}
}

// TestNeverCorrupts checks edits the layout cannot make: each returns an
// error and no text.
func TestNeverCorrupts(t *testing.T) {
	tests := []struct {
		name string
		edit func() (string, error)
	}{
		{"anchor used elsewhere", func() (string, error) { return Set("---\nbase: &b x\nuse: *b\n---\n", "base", "y") }},
		{"remove an anchor used elsewhere", func() (string, error) { return Remove("---\nbase: &b {x: 1}\nuse: *b\n---\n", "base") }},
		{"merge key to a scalar", func() (string, error) { return Set("---\n<<: {m: 1}\n---\n", "<<", "x") }},
		{"key too long for YAML", func() (string, error) { return Set("---\na: 1\n---\n", strings.Repeat("k", 1100), "v") }},
	}
	for _, tt := range tests {
		if out, err := tt.edit(); err == nil || out != "" {
			t.Errorf("%s: got %q, %v; want an error", tt.name, out, err)
		}
	}
	// An anchor nobody uses can go.
	if out, err := Set("---\nbase: &b x\nuse: 1\n---\n", "base", "y"); err != nil || out != "---\nbase: y\nuse: 1\n---\n" {
		t.Errorf("unused anchor: %q, %v", out, err)
	}
}

// TestEditsCompose runs a sequence of edits the way a tool does and checks
// the bytes at the end.
func TestEditsCompose(t *testing.T) {
	text := "\ufeff---\r\n# Project\r\ntitle: \"Kessho\" # the name\r\ntags: [memory]\r\nphase: draft\r\n---\r\n# Body\r\n"
	var err error
	step := func(f func(string) (string, error)) {
		if err == nil {
			text, err = f(text)
		}
	}
	step(func(s string) (string, error) { return Set(s, "phase", "review") })
	step(func(s string) (string, error) { return Set(s, "tags", []string{"memory", "wasm"}) })
	step(func(s string) (string, error) { return Set(s, "last-session", "2026-11-30T10:15:00+01:00") })
	step(func(s string) (string, error) { return Set(s, "time", "10:15") })
	step(func(s string) (string, error) { return Remove(s, "phase") })
	step(func(s string) (string, error) { return SetBody(s, "# New\r\n") })
	if err != nil {
		t.Fatal(err)
	}
	want := "\ufeff---\r\n# Project\r\ntitle: \"Kessho\" # the name\r\ntags: [memory, wasm]\r\nlast-session: 2026-11-30T10:15:00+01:00\r\ntime: \"10:15\"\r\n---\r\n# New\r\n"
	if text != want {
		t.Errorf("got\n%q\nwant\n%q", text, want)
	}
}

func ExampleSet() {
	text := "---\ntitle: 'Kessho' # keep me\ntags: [memory]\n---\nBody.\n"
	text, _ = Set(text, "title", "Kesshō")
	text, _ = Set(text, "tags", []string{"memory", "wasm"})
	text, _ = Set(text, "phase", "yes")
	fmt.Print(text)
	// Output:
	// ---
	// title: 'Kesshō' # keep me
	// tags: [memory, wasm]
	// phase: "yes"
	// ---
	// Body.
}

// note4k is a ~4 KB note: a dozen keys of every style and a long body.
var note4k = "---\n" +
	"title: \"Kessho working memory\" # shown in lists\n" +
	"phase: draft\n" +
	"tags: [memory, agents, obsidian]\n" +
	"aliases:\n  - kessho\n  - 結晶\n" +
	"last-session: 2026-11-30T10:15:00+01:00\n" +
	"summary: |\n  Keeps an agent's working memory in a vault.\n  Edits bytes, never re-serialises.\n" +
	"priority: 2\n" +
	"owner: 'Zoë'\n" +
	"links:\n  repo: https://example.org/kessho\n  docs: https://example.org/docs\n" +
	"done: false\n" +
	"---\n" +
	strings.Repeat("## Section\n\nSome body text with [[links]] and `code`, café, 😀, and a list:\n\n- one\n- two\n\n", 34)

// BenchmarkSet and BenchmarkParse go through a Cache, as the tools do
// (tools.State keeps one): every call after the first finds the Doc.
func BenchmarkSet(b *testing.B) {
	b.SetBytes(int64(len(note4k)))
	var c Cache
	for b.Loop() {
		if _, err := c.Set(note4k, "phase", "review"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	b.SetBytes(int64(len(note4k)))
	var c Cache
	for b.Loop() {
		if _, err := c.Parse(note4k); err != nil {
			b.Fatal(err)
		}
	}
}

// TestOldMacLineEndings: a file whose lines end in a lone "\r" (classic
// Mac OS) has frontmatter like any other; edits write "\r" where they add a
// line ending, and every other byte stays.
func TestOldMacLineEndings(t *testing.T) {
	const in = "---\rtitle: Old\rtags:\r  - a\rphase: draft # c\r---\rBody\r\rmore\r"
	d, err := Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	if !d.HasFrontmatter() || d.Newline() != "\r" || d.Body() != "Body\r\rmore\r" {
		t.Fatalf("Parse: has %v, newline %q, body %q; want frontmatter, \"\\r\", the body", d.HasFrontmatter(), d.Newline(), d.Body())
	}
	if got := d.Keys(); !reflect.DeepEqual(got, []string{"title", "tags", "phase"}) {
		t.Errorf("Keys = %q", got)
	}
	if v, _ := d.String("phase"); v != "draft" {
		t.Errorf("phase = %q; want draft", v)
	}
	edits := []struct {
		name string
		edit func(string) (string, error)
		want string
	}{
		{"set", func(s string) (string, error) { return Set(s, "phase", "review") },
			"---\rtitle: Old\rtags:\r  - a\rphase: review # c\r---\rBody\r\rmore\r"},
		{"new key", func(s string) (string, error) { return Set(s, "summary", "S.") },
			"---\rtitle: Old\rtags:\r  - a\rphase: draft # c\rsummary: S.\r---\rBody\r\rmore\r"},
		{"new list", func(s string) (string, error) { return Set(s, "aliases", []string{"x", "y"}) },
			"---\rtitle: Old\rtags:\r  - a\rphase: draft # c\raliases:\r  - x\r  - y\r---\rBody\r\rmore\r"},
		{"list replaced", func(s string) (string, error) { return Set(s, "tags", []string{"p", "q"}) },
			"---\rtitle: Old\rtags:\r  - p\r  - q\rphase: draft # c\r---\rBody\r\rmore\r"},
		{"remove", func(s string) (string, error) { return Remove(s, "tags") },
			"---\rtitle: Old\rphase: draft # c\r---\rBody\r\rmore\r"},
		{"set body", func(s string) (string, error) { return SetBody(s, "New\r") },
			"---\rtitle: Old\rtags:\r  - a\rphase: draft # c\r---\rNew\r"},
	}
	for _, e := range edits {
		got, err := e.edit(in)
		if err != nil || got != e.want {
			t.Errorf("%s: got %q, %v\nwant %q", e.name, got, err, e.want)
		}
	}
	// Without frontmatter: one is added in the file's line ending.
	got, err := Set("# Title\rtext\r", "phase", "x")
	if want := "---\rphase: x\r---\r# Title\rtext\r"; err != nil || got != want {
		t.Errorf("Set on a file without frontmatter: %q, %v; want %q", got, err, want)
	}
	// Mixed endings: each line keeps its own.
	got, err = Set("---\r\na: 1\rb: 2\n---\r\nbody\r", "b", "x")
	if want := "---\r\na: 1\rb: x\n---\r\nbody\r"; err != nil || got != want {
		t.Errorf("Set on mixed endings: %q, %v; want %q", got, err, want)
	}
	// Unclosed stays refused.
	if _, err := Parse("---\ra: 1\rbody\r"); err == nil {
		t.Error("unclosed frontmatter with \\r endings parsed")
	}
}

// TestFlow tells flow lists and mappings from block ones and scalars.
func TestFlow(t *testing.T) {
	d, err := Parse("---\na: [x, y]\nb:\n  - x\nc: x\nd: {k: v}\ne: []\n---\n")
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]bool{"a": true, "b": false, "c": false, "d": true, "e": true, "missing": false} {
		if got := d.Flow(key); got != want {
			t.Errorf("Flow(%q) = %v, want %v", key, got, want)
		}
	}
}
