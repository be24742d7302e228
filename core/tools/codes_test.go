package tools

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
)

// hostCodes are raised by hosts, not by a tool's code: a plan's refused
// precondition, the journal, the lock, a full disk, a call's limits, a
// bug. Host tests prove them (host/vaultfs, host/internal/conformance's conflict
// tests).
var hostCodes = []fault.Code{fault.Conflict, fault.RecoveryConflict, fault.VaultLocked, fault.DiskFull,
	fault.LimitExceeded, fault.Internal, fault.ContextHygieneRace, fault.Declined}

// codesIn returns the fault.<Code> constants that file names, by a static
// scan of its syntax tree: what the tool coded there can raise itself.
func codesIn(t *testing.T, file string) []fault.Code {
	known := map[string]fault.Code{}
	src, err := os.ReadFile("../fault/fault.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`(?m)^\t(\w+)\s+Code = "([A-Z_0-9]+)"`).FindAllStringSubmatch(string(src), -1) {
		known[m[1]] = fault.Code(m[2])
	}
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []fault.Code
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "fault" {
				if c, ok := known[sel.Sel.Name]; ok && !slices.Contains(out, c) {
					out = append(out, c)
				}
			}
		}
		return true
	})
	return out
}

// readOnly are codes a tool's file names only to read another's refusal,
// never raising them: mem_init_project turns vault.Resolve's SLUG_CONFLICT
// into SLUG_EXISTS.
var readOnly = map[string][]fault.Code{"mem_init_project": {fault.SlugConflict}}

// casesRaising maps each code to the tools whose conformance cases raise
// it (the code of the case's expected answer).
func casesRaising(t *testing.T) map[fault.Code][]string {
	files, err := filepath.Glob("../../testdata/cases/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no conformance case found: %v", err)
	}
	toolRe := regexp.MustCompile(`"tool":\s*"(\w+)"`)
	codeRe := regexp.MustCompile(`"ok":\s*false,\s*"error":\s*\{\s*"code":\s*"([A-Z_0-9]+)"`)
	out := map[fault.Code][]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tool, code := toolRe.FindSubmatch(b), codeRe.FindSubmatch(b)
		if tool != nil && code != nil {
			out[fault.Code(code[1])] = append(out[fault.Code(code[1])], string(tool[1]))
		}
	}
	return out
}

// TestDeclaredCodes ties what each tool raises to what its spec declares:
//   - every code a tool's file names (fault.X) is declared in its spec;
//   - every code a tool declares is raised by some conformance case: a code
//     of the tool's own by a case of that tool; a code tools share (the
//     catalogue's Shared, and those raised by the reads they have in
//     common: NO_CONTEXT, SLUG_CONFLICT, FILE_NOT_UTF8, SUMMARY_TOO_LONG) by
//     a case of any tool; the codes hosts raise by host tests (hostCodes).
func TestDeclaredCodes(t *testing.T) {
	raised := casesRaising(t)
	shared := []fault.Code{fault.NoContext, fault.SlugConflict, fault.FileNotUTF8, fault.SummaryTooLong}
	files := toolFiles(t)
	for _, tool := range All {
		spec := tool.Spec
		file, ok := files[spec.Name]
		if !ok {
			t.Errorf("%s: no file named for the scan", spec.Name)
			continue
		}
		for _, c := range codesIn(t, file) {
			if !slices.Contains(spec.Errors, c) && !slices.Contains(readOnly[spec.Name], c) {
				t.Errorf("%s raises %s (in %s) but does not declare it", spec.Name, c, file)
			}
		}
		for _, c := range spec.Errors {
			switch {
			case slices.Contains(hostCodes, c):
			case slices.Contains(shared, c) || slices.Contains(spec.Errors[len(spec.Errors)-len(sharedOf(spec.Errors)):], c):
				if len(raised[c]) == 0 {
					t.Errorf("%s declares %s, which no conformance case raises", spec.Name, c)
				}
			case !slices.Contains(raised[c], spec.Name):
				t.Errorf("%s declares %s, which none of its conformance cases raises (raised by: %s)", spec.Name, c, strings.Join(raised[c], ", "))
			}
		}
	}
}

// toolFiles returns the Go file of each tool, by name: the file beside
// the text file (<tool>.yaml) whose title is the tool's.
func toolFiles(t *testing.T) map[string]string {
	byTitle := map[catalog.Text]string{}
	for _, tool := range All {
		if tool.Spec.Text != nil {
			byTitle[tool.Spec.Text().Title] = tool.Spec.Name
		}
	}
	texts, err := filepath.Glob("*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, y := range texts {
		file := strings.TrimSuffix(y, ".yaml") + ".go"
		if _, err := os.Stat(file); err != nil || y == "tools.yaml" {
			continue
		}
		if name, ok := byTitle[catalogText(y)().Title]; ok {
			out[name] = file
		}
	}
	return out
}

// sharedOf returns the tail of errs that is the catalogue's Shared list.
func sharedOf(errs []fault.Code) []fault.Code {
	for i := range errs {
		if errs[i] == fault.InvalidArgument {
			return errs[i:]
		}
	}
	return nil
}
