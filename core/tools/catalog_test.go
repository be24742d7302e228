package tools

import (
	"os"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/catalog"
)

func TestReferenceIsFresh(t *testing.T) {
	got, err := os.ReadFile("../../docs/reference.md")
	if err != nil {
		t.Fatalf("docs/reference.md: %v (run make docs)", err)
	}
	if string(got) != catalog.Reference(Specs()) {
		t.Fatal("docs/reference.md is stale: run make docs")
	}
}

func TestEveryToolIsComplete(t *testing.T) {
	commands := map[string]string{}
	for _, tool := range Specs() {
		if tool.Description.En == "" || tool.Description.Fr == "" || tool.Title.En == "" || tool.Title.Fr == "" {
			t.Errorf("%s: title and description need English and French", tool.Name)
		}
		if prev, dup := commands[tool.CLI.Command]; dup || tool.CLI.Command == "" {
			t.Errorf("%s: CLI command %q empty or taken by %s", tool.Name, tool.CLI.Command, prev)
		}
		commands[tool.CLI.Command] = tool.Name
		for _, a := range tool.CLI.Args {
			if _, ok := tool.Param(a); !ok {
				t.Errorf("%s: CLI argument %q is no parameter", tool.Name, a)
			}
		}
		// A parameter may go undescribed when its name, type, enum,
		// default and bounds and the tool's description say it all (the
		// model reads no sentence that repeats them), but never in one
		// language only.
		for _, p := range tool.Params {
			if (p.Description.En == "") != (p.Description.Fr == "") {
				t.Errorf("%s.%s: description needs English and French, or neither", tool.Name, p.Name)
			}
		}
		if !strings.Contains(strings.Join(catalog.CodeNames(tool.Errors), " "), "INVALID_ARGUMENT") {
			t.Errorf("%s: errors must list the shared ones", tool.Name)
		}
	}
}

// TestExamples checks that every tool's text file gives an example call
// whose arguments the tool's spec takes. That each succeeds on the MCP
// clients' vault, in the order of All, is the clients' test's to check
// (host/mcp); that each succeeds on the benchmark's vault, toolbench's.
func TestExamples(t *testing.T) {
	for _, tool := range Specs() {
		raw, ok := tool.ExampleOn(nil)
		if !ok {
			t.Errorf("%s: its text file gives no example (example: its arguments; see the package doc)", tool.Name)
			continue
		}
		if _, err := tool.Validate(raw); err != nil {
			t.Errorf("%s: its example %s: %v", tool.Name, raw, err)
		}
	}
}
