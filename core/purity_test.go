package core

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// mutableTypes are the types a package-level variable of which is
// mutable whatever the code does with it: locks, concurrent maps, atomic
// values, the tools' State and the caches it holds.
var mutableTypes = map[string]bool{
	"sync.Mutex": true, "sync.RWMutex": true, "sync.Map": true, "sync.Pool": true, "sync.WaitGroup": true, "sync.Cond": true,
	"tools.State": true, "tools.NewState": true, "State": true, "NewState": true,
	"frontmatter.Cache": true, "Cache": true, "search.Stems": true, "Stems": true,
}

// TestNoPackageMutableState is the rule that the core keeps no state of
// its own between calls: no package-level variable of core/... (its
// non-test files) is assigned, incremented, deleted from, cleared or has
// its address taken outside its declaration and init functions, nor is
// of a mutable type (mutableTypes). What a call keeps for the next is the
// engine instance's (core.Core, tools.State), given in tools.Env. Values
// made once while the package is initialised and only read after
// (sync.OnceValue loaders of texts, tables, compiled expressions) pass.
// What a function does through a pointer or map it was handed is beyond
// this syntactic check; a variable holding one is caught only by its
// type. There is no allowlist.
func TestNoPackageMutableState(t *testing.T) {
	found := map[string]string{}
	err := filepath.WalkDir(".", func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		for k, why := range mutableInDir(t, dir) {
			found[k] = why
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range slices.Sorted(maps.Keys(found)) {
		t.Errorf("%s is package-level mutable state (%s): keep it in the engine instance's state (tools.State, given in tools.Env)", k, found[k])
	}
}

// mutableInDir returns the mutable package-level variables of the Go
// package in dir, keyed "core/<file>:<name>", each with what makes it so.
func mutableInDir(t *testing.T, dir string) map[string]string {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
	}
	key := func(pos token.Pos, name string) string {
		return filepath.ToSlash(filepath.Join("core", fset.Position(pos).Filename)) + ":" + name
	}
	vars := map[string]*ast.ValueSpec{} // name → declaration
	out := map[string]string{}
	for _, f := range files {
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for _, id := range vs.Names {
					if id.Name == "_" {
						continue
					}
					vars[id.Name] = vs
					if ty := mutableType(vs); ty != "" {
						out[key(id.Pos(), id.Name)] = "of type " + ty
					}
				}
			}
		}
	}
	for _, f := range files {
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil || fn.Recv == nil && fn.Name.Name == "init" {
				continue
			}
			writes(fn.Body, func(id *ast.Ident, how string) {
				if vs := packageVar(id, vars); vs != nil {
					out[key(vs.Names[slices.IndexFunc(vs.Names, func(n *ast.Ident) bool { return n.Name == id.Name })].Pos(), id.Name)] =
						how + " at " + fset.Position(id.Pos()).String()
				}
			})
		}
	}
	return out
}

// mutableType returns the mutable type (mutableTypes) vs's type or values
// name, or "".
func mutableType(vs *ast.ValueSpec) string {
	var ty string
	check := func(n ast.Node) bool {
		switch e := n.(type) {
		case *ast.SelectorExpr:
			if x, ok := e.X.(*ast.Ident); ok && (mutableTypes[x.Name+"."+e.Sel.Name] || x.Name == "atomic") {
				ty = x.Name + "." + e.Sel.Name
			}
			return false
		case *ast.Ident:
			if mutableTypes[e.Name] {
				ty = e.Name
			}
		case *ast.FuncLit:
			return false // its body runs later, on what it makes
		}
		return ty == ""
	}
	if vs.Type != nil {
		ast.Inspect(vs.Type, check)
	}
	for _, v := range vs.Values {
		ast.Inspect(v, check)
	}
	return ty
}

// writes calls found with the root variable of each expression body
// writes to: the left of an assignment, an increment's operand, the map
// of delete, what clear empties and what & takes the address of.
func writes(body *ast.BlockStmt, found func(id *ast.Ident, how string)) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			if s.Tok != token.DEFINE {
				for _, l := range s.Lhs {
					rootIdent(l, found, "assigned")
				}
			}
		case *ast.IncDecStmt:
			rootIdent(s.X, found, "incremented")
		case *ast.UnaryExpr:
			if s.Op == token.AND {
				rootIdent(s.X, found, "its address taken")
			}
		case *ast.CallExpr:
			if f, ok := s.Fun.(*ast.Ident); ok && (f.Name == "delete" || f.Name == "clear") && len(s.Args) > 0 {
				rootIdent(s.Args[0], found, "passed to "+f.Name)
			}
		}
		return true
	})
}

// rootIdent calls found with the variable e is part of (x of x.f[i].g).
func rootIdent(e ast.Expr, found func(*ast.Ident, string), how string) {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			found(x, how)
			return
		case *ast.SelectorExpr, *ast.IndexExpr, *ast.IndexListExpr, *ast.StarExpr, *ast.SliceExpr:
			e = reflect.ValueOf(x).Elem().FieldByName("X").Interface().(ast.Expr)
		default:
			return
		}
	}
}

// packageVar returns the declaration of the package-level variable id
// names, or nil: one of this file (the parser resolved id to it) or of
// another file of the package (id is unresolved in its file).
func packageVar(id *ast.Ident, vars map[string]*ast.ValueSpec) *ast.ValueSpec {
	vs, ok := vars[id.Name]
	if !ok {
		return nil
	}
	if id.Obj == nil {
		return vs
	}
	if id.Obj.Kind == ast.Var && id.Obj.Decl == vs {
		return vs
	}
	return nil
}
