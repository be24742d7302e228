package conformance

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
)

var (
	update     = flag.Bool("update", false, "rewrite answer.json of every case from the native engine's answer, indented")
	updateWant = flag.Bool("update-want", false, "rewrite want/ and deleted/ of every case from the native engine's vault")
	nativeOnly = flag.Bool("native", false, "run the cases on the native engine only, the wasm engine neither built nor compared (a quick check: core/tools' TestAddingATool)")
)

// TestCases runs every case of testdata/cases through the native and the
// wasm engine: both must give byte-identical raw answers (plans included),
// the printed answer must equal answer.json, and the vault after the call
// must equal the case's expected vault byte for byte.
func TestCases(t *testing.T) {
	cases, err := Load("../../../testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no conformance case found in testdata/cases")
	}
	engines := caseEngines(t)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			var raws [][]byte
			for _, e := range engines {
				out := run(t, c, e.eng, *updateWant && e.name == "native")
				raws = append(raws, out.Raw)
				if *update && e.name == "native" { // rewritten even when equal, indented

					if err := c.SetAnswer(string(out.Answer)); err != nil {
						t.Fatal(err)
					}
				}
				if string(out.Answer) != c.Answer {
					t.Errorf("%s engine: answer\n got %s\nwant %s", e.name, out.Answer, c.Answer)
				}
			}
			for i := 1; i < len(raws); i++ {
				if !bytes.Equal(raws[0], raws[i]) {
					t.Errorf("engines differ:\nnative %s\n%-6s %s", raws[0], engines[i].name, raws[i])
				}
			}
		})
	}
}

// caseEngines returns the engines TestCases runs each case on: native
// (which takes the rounds with no search index as values:
// call.DirectPinner), native through JSON alone, and wasm; or the first
// two under -native.
func caseEngines(t *testing.T) []caseEngine {
	if _, ok := engine.Native().(call.DirectPinner); !ok {
		t.Fatal("the native engine is no call.DirectPinner: every case would run through JSON twice")
	}
	engines := []caseEngine{{"native", engine.Native()}, {"json", jsonOnly{engine.Native().(call.Pinner)}}}
	if *nativeOnly {
		return engines
	}
	ctx := context.Background()
	wasm, err := engine.NewWasm(ctx, engine.WasmOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wasm.Close(ctx) })
	return append(engines, caseEngine{"wasm", wasm})
}

// jsonOnly is an engine that takes its requests as JSON only: the
// native engine without its DirectPinner, so that the request as a
// value is proved to give what its JSON gives.
type jsonOnly struct{ call.Pinner }

func (j jsonOnly) Call(ctx context.Context, req []byte) ([]byte, error) {
	call, release := j.Pin()
	defer release()
	return call(ctx, req)
}

// caseEngine is an engine TestCases runs the cases on, by name.
type caseEngine struct {
	name string
	eng  call.Engine
}

func run(t *testing.T, c *Case, eng call.Engine, setWant bool) call.Outcome {
	t.Helper()
	dir := t.TempDir()
	if err := c.WriteVault(dir); err != nil {
		t.Fatal(err)
	}
	opts, err := c.Options()
	if err != nil {
		t.Fatal(err)
	}
	v := openVault(t, dir)
	out, err := call.Run(context.Background(), v, eng, c.Call.Tool, c.Call.Args, opts)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	if setWant {
		if err := c.SetWant(got); err != nil {
			t.Fatal(err)
		}
	}
	if diff := diffTrees(got, c.Want); diff != "" {
		t.Errorf("vault after the call differs from the expected one:\n%s", diff)
	}
	return out
}

func diffTrees(got, want map[string][]byte) string {
	var paths []string
	seen := map[string]bool{}
	for p := range got {
		paths, seen[p] = append(paths, p), true
	}
	for p := range want {
		if !seen[p] {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	var b strings.Builder
	for _, p := range paths {
		g, gok := got[p]
		w, wok := want[p]
		switch {
		case !gok:
			fmt.Fprintf(&b, "missing %s\n", p)
		case !wok:
			fmt.Fprintf(&b, "unexpected %s:\n%q\n", p, g)
		case !bytes.Equal(g, w):
			fmt.Fprintf(&b, "%s:\n got %q\nwant %q\n", p, g, w)
		}
	}
	return b.String()
}
