package tools

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestToolsStandAlone is the rule that no tool leans on another: a tool's
// file (<tool>.go, beside its text file <tool>.yaml) names no function,
// type, variable or constant declared in another tool's file. What
// several tools share lives in the files that are no tool's (tools.go,
// args.go, context.go, project_archives.go, search_index.go, summary.go,
// undo.go) or in the noun packages.
func TestToolsStandAlone(t *testing.T) {
	fset := token.NewFileSet()
	names, _ := filepath.Glob("*.go")
	decls := map[string]string{} // name → the tool file declaring it
	files := map[string]*ast.File{}
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(strings.TrimSuffix(n, ".go") + ".yaml"); err != nil || n == "tools.go" {
			continue // not a tool's file
		}
		files[n] = f
		for _, name := range topLevel(f) {
			decls[name] = n
		}
	}
	if len(files) < len(All) {
		t.Fatalf("found %d tool files for %d tools", len(files), len(All))
	}
	for n, f := range files {
		var used []string
		uses(f, func(id *ast.Ident) {
			if other, ok := decls[id.Name]; ok && other != n && !slices.Contains(used, id.Name) {
				used = append(used, id.Name)
				t.Errorf("%s uses %s of %s: move it to a file that is no tool's, or to a noun package", n, id.Name, other)
			}
		})
	}
}

// topLevel returns the names f declares at the package level, methods
// aside.
func topLevel(f *ast.File) []string {
	var out []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				out = append(out, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					out = append(out, s.Name.Name)
				case *ast.ValueSpec:
					for _, id := range s.Names {
						out = append(out, id.Name)
					}
				}
			}
		}
	}
	return out
}

// uses calls found with each identifier of f that names something of
// another file (unresolved in f), field names and keys aside.
func uses(f *ast.File, found func(*ast.Ident)) {
	skip := map[*ast.Ident]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			skip[x.Sel] = true
		case *ast.KeyValueExpr:
			if id, ok := x.Key.(*ast.Ident); ok {
				skip[id] = true
			}
		case *ast.Field:
			for _, id := range x.Names {
				skip[id] = true
			}
		case *ast.FuncDecl:
			skip[x.Name] = true
		case *ast.Ident:
			if x.Obj == nil && !skip[x] {
				found(x)
			}
		}
		return true
	})
}
