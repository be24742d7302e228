// Package codeshape checks the shape of the repository's Go code: no
// function of core/, host/ or wasm/ is longer than maxLines, so that each
// can be read whole. Tests and generated files are left out, and so is a
// table: a function whose body is one return of literals.
package codeshape

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// maxLines is the longest a function may be, from its func keyword to its
// closing brace (its doc comment aside).
const maxLines = 60

// longer lists the functions over maxLines that stay for now, each with
// its length: one may shrink, not grow, and one within maxLines must
// leave the list (the test says so), so that the list only shrinks.
var longer = map[string]int{
	"core/handle.go: handle":                     62,
	"core/hostlogic/check.go: Check":             69,
	"core/request.go: scanner.escaped":           63,
	"core/tools/rollback.go: rollback":           73,
	"core/tools/search.go: upToDate":             69,
	"host/call/call.go: Run":                     89,
	"host/call/request.go: encodeRequest":        78,
	"host/engine/wasm.go: Wasm.Call":             66,
	"host/vaultfs/answer.go: answerer.tree":      82,
	"host/vaultfs/apply.go: Vault.land":          83,
	"host/vaultfs/apply.go: Vault.replaceAs":     65,
	"host/vaultfs/lock.go: Vault.Lock":           77,
	"host/vaultfs/swap_linux.go: Vault.swapInto": 73,
}

// root is the repository's root, from this package's folder.
const root = "../../.."

func TestNoLongFunction(t *testing.T) {
	lengths, err := functionLengths(root, "core", "host", "wasm")
	if err != nil {
		t.Fatal(err)
	}
	if len(lengths) < 500 {
		t.Fatalf("only %d functions found under %s: is root the repository's?", len(lengths), root)
	}
	var long []string
	for name, n := range lengths {
		limit, listed := longer[name]
		switch {
		case n > maxLines && !listed:
			long = append(long, fmt.Sprintf("%s is %d lines, over %d: split it", name, n, maxLines))
		case listed && n > limit:
			long = append(long, fmt.Sprintf("%s is %d lines, over the %d it is allowed: split it", name, n, limit))
		case listed && n <= maxLines:
			long = append(long, fmt.Sprintf("%s is %d lines now: remove it from longer", name, n))
		}
	}
	for name := range longer {
		if _, ok := lengths[name]; !ok {
			long = append(long, fmt.Sprintf("%s is gone: remove it from longer", name))
		}
	}
	sort.Strings(long)
	for _, l := range long {
		t.Error(l)
	}
}

// functionLengths returns the length in lines of every function of the
// non-test, non-generated Go files under dirs of root, by "path: Recv.Name"
// (the path from root, with slashes), tables aside.
func functionLengths(root string, dirs ...string) (map[string]int, error) {
	fset := token.NewFileSet()
	out := map[string]int{}
	for _, dir := range dirs {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, p, nil, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			if ast.IsGenerated(f) {
				return nil
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok || fd.Body == nil || isTable(fd.Body) {
					continue
				}
				n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
				out[filepath.ToSlash(rel)+": "+funcName(fd)] = n
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// isTable reports whether body is a table: one return of literals.
func isTable(body *ast.BlockStmt) bool {
	if len(body.List) != 1 {
		return false
	}
	ret, ok := body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) == 0 {
		return false
	}
	for _, r := range ret.Results {
		if _, ok := r.(*ast.CompositeLit); !ok {
			return false
		}
	}
	return true
}

// funcName is fd's name, after its receiver's type when it is a method.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

func TestFunctionLengths(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a/a.go": "package a\n\nfunc f() {\n\tx := 1\n\t_ = x\n}\n\ntype T struct{}\n\nfunc (*T) m() {\n\tg()\n}\n\n" +
			"func table() map[string]int {\n\treturn map[string]int{\n\t\t\"a\": 1,\n\t}\n}\n\nfunc g()\n",
		"a/a_test.go":     "package a\n\nfunc h() {\n\tg()\n\tg()\n}\n",
		"a/gen.go":        "// Code generated by hand. DO NOT EDIT.\n\npackage a\n\nfunc k() {\n\tg()\n\tg()\n}\n",
		"a/testdata/t.go": "package t\n\nfunc l() {\n\tg()\n\tg()\n}\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := functionLengths(dir, "a")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"a/a.go: f": 4, "a/a.go: T.m": 3}
	if !maps.Equal(got, want) {
		t.Errorf("functionLengths = %v; want %v", got, want)
	}
}
