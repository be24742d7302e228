package tsgen

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// generated is wire.gen.ts, from this package's folder.
var generated = filepath.Join("..", "..", "..", "plugin-shim", "src", "wire.gen.ts")

// TestGenerated fails when plugin-shim/src/wire.gen.ts is not what
// Generate writes from the Go types: a field of core/wire renamed,
// retyped, added or dropped since the file was made.
func TestGenerated(t *testing.T) {
	want, err := Generate(Roots)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(generated)
	if err != nil {
		t.Fatalf("%v: run %s", err, Command)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("plugin-shim/src/wire.gen.ts is stale (core/wire's types changed): run %s\n%s", Command, firstDiff(got, want))
	}
}

// firstDiff names the first line where got and want differ.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d: the file has %q, the Go types make %q", i+1, gl, wl)
		}
	}
	return ""
}

// TestGenerateKinds checks the TypeScript of each kind of field, and the
// refusal of two types of one name.
func TestGenerateKinds(t *testing.T) {
	type Inner struct {
		A string `json:"a"`
	}
	type Base struct {
		B int `json:"b,omitempty"`
	}
	type Sample struct {
		Base
		Plain    string           `json:"plain"`
		Ptr      *Inner           `json:"ptr"`
		PtrOmit  *Inner           `json:"ptr_omit,omitempty"`
		List     []Inner          `json:"list"`
		Bytes    []byte           `json:"bytes"`
		Map      map[string][]int `json:"map,omitempty"`
		Any      any              `json:"any"`
		Quoted   int64            `json:"quoted,string"`
		Dash     string           `json:"a-b"`
		Untagged bool
		Skipped  string            `json:"-"`
		Anon     struct{ X bool }  `json:"anon"`
		Nullable map[string]string `json:"nullable"`
	}
	b, err := Generate([]reflect.Type{reflect.TypeFor[Sample]()})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"export interface Sample extends Base {\n  plain: string;\n  ptr?: Inner | null;\n  ptr_omit?: Inner;\n  list: Inner[] | null;\n  bytes: string | null;\n  map?: Record<string, number[]>;\n  any: unknown;\n  quoted: string;\n  \"a-b\": string;\n  Untagged: boolean;\n  anon: {\n    X: boolean;\n  };\n  nullable: Record<string, string> | null;\n}\n",
		"export interface Base {\n  b?: number;\n}\n",
		"export interface Inner {\n  a: string;\n}\n",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("Generate wrote\n%s\nwithout\n%s", b, want)
		}
	}
	if _, err := Generate([]reflect.Type{reflect.TypeFor[Sample](), otherInner()}); err == nil {
		t.Error("Generate took two types named Inner")
	}
}

// otherInner is a type named Inner that is not TestGenerateKinds' Inner.
func otherInner() reflect.Type {
	type Inner struct{}
	return reflect.TypeFor[Inner]()
}
