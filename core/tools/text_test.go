package tools

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/i18n/i18ntest"
)

// TestTextFiles checks every text file of the tools: it decodes (no key
// that no field takes), every text has English and French with the same
// printf verbs, and every file beside the tools' Go files is loaded. The
// catalogue texts are checked as their specs load them; the messages as
// the Go files declare them (textLoads): each loadText's struct of
// fault.Msg fields is the file's msg, key for field.
func TestTextFiles(t *testing.T) {
	for _, e := range i18ntest.Errors(sharedParams) {
		t.Errorf("tools.yaml: %v", e)
	}
	msgs, catalogs := textLoads(t)
	loaded := map[string]bool{"tools.yaml": true}
	for name := range catalogs {
		loaded[name] = true
		for _, e := range i18ntest.Errors(catalogText(name)) {
			t.Errorf("%s: %v", name, e)
		}
	}
	for name, typ := range msgs {
		loaded[name] = true
		for _, e := range decodeMsgs(name, typ) {
			t.Errorf("%s: %v", name, e)
		}
	}
	on, _ := filepath.Glob("*.yaml")
	for _, name := range on {
		if !loaded[name] {
			t.Errorf("%s is loaded by no Go file (//go:embed and loadText)", name)
		}
	}
}

// textLoads finds, in the package's Go files, the text files the tools
// load: for each loadText, its file's name and the type of its messages
// (made from the Go declaration by msgType); for each catalogText, its
// file's name.
func textLoads(t *testing.T) (msgs map[string]reflect.Type, catalogs map[string]bool) {
	msgs, catalogs = map[string]reflect.Type{}, map[string]bool{}
	names, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			file, _ := strconv.Unquote(lit.Value)
			switch fn := call.Fun.(type) {
			case *ast.Ident:
				if fn.Name == "catalogText" {
					catalogs[file] = true
				}
			case *ast.IndexExpr:
				if id, ok := fn.X.(*ast.Ident); ok && id.Name == "loadText" {
					typ, err := msgType(fn.Index)
					if err != nil {
						t.Errorf("%s: loadText's messages: %v", fset.Position(fn.Index.Pos()), err)
					} else {
						msgs[file] = reflect.StructOf([]reflect.StructField{{Name: "Msg", Type: typ}})
					}
				}
			}
			return true
		})
	}
	return msgs, catalogs
}

// msgType is the type e declares, of fault.Msg, structs, maps by string,
// arrays and slices of them: what a tool's messages are made of.
func msgType(e ast.Expr) (reflect.Type, error) {
	switch x := e.(type) {
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok && id.Name == "fault" && x.Sel.Name == "Msg" {
			return reflect.TypeFor[fault.Msg](), nil
		}
	case *ast.MapType:
		if k, ok := x.Key.(*ast.Ident); ok && k.Name == "string" {
			v, err := msgType(x.Value)
			if err != nil {
				return nil, err
			}
			return reflect.MapOf(reflect.TypeFor[string](), v), nil
		}
	case *ast.ArrayType:
		v, err := msgType(x.Elt)
		if err != nil {
			return nil, err
		}
		if x.Len == nil {
			return reflect.SliceOf(v), nil
		}
		if n, ok := x.Len.(*ast.BasicLit); ok {
			if l, err := strconv.Atoi(n.Value); err == nil {
				return reflect.ArrayOf(l, v), nil
			}
		}
	case *ast.StructType:
		var fields []reflect.StructField
		for _, f := range x.Fields.List {
			typ, err := msgType(f.Type)
			if err != nil {
				return nil, err
			}
			var tag reflect.StructTag
			if f.Tag != nil {
				s, _ := strconv.Unquote(f.Tag.Value)
				tag = reflect.StructTag(s)
			}
			for _, n := range f.Names {
				fields = append(fields, reflect.StructField{Name: n.Name, Type: typ, Tag: tag})
			}
		}
		return reflect.StructOf(fields), nil
	}
	return nil, fmt.Errorf("%s is not fault.Msg, a struct, map[string], array or slice of them", types.ExprString(e))
}

// decodeMsgs decodes the messages of the text file name (its first
// document) into typ, strictly as loadText does, and returns the faults
// of the file and of its texts.
func decodeMsgs(name string, typ reflect.Type) []error {
	data, err := textFiles.ReadFile(name)
	if err != nil {
		return []error{err}
	}
	v := reflect.New(typ)
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v.Interface()); err != nil {
		return []error{err}
	}
	return i18ntest.Check(v.Interface())
}

// TestTextFileParams checks that a tool's text file describes only its
// own parameters, and the shared texts only parameters some tool has: a
// description no parameter takes is a misspelt key.
func TestTextFileParams(t *testing.T) {
	shared := map[string]bool{}
	for _, tool := range All {
		if tool.Spec.Text == nil {
			t.Errorf("%s: its texts are written in Go; move them to its text file (see the package doc)", tool.Spec.Name)
			continue
		}
		paths := tool.Spec.TextPaths()
		for key := range tool.Spec.Text().Params {
			if !slices.Contains(paths, key) {
				t.Errorf("%s: its text file describes %q, which is no parameter of it (paths: %s)", tool.Spec.Name, key, strings.Join(paths, ", "))
			}
		}
		for _, p := range paths {
			shared[p] = true
		}
	}
	for key := range sharedParams().Params {
		if !shared[key] {
			t.Errorf("tools.yaml describes %q, which is no tool's parameter", key)
		}
	}
}

// TestTextFilesAreData checks that the texts left Go: no tool's Go file
// holds a fault.Msg or catalog.Text literal.
func TestTextFilesAreData(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, lit := range []string{"fault.Msg{", "catalog.Text{"} {
			if strings.Contains(string(b), lit) {
				t.Errorf("%s holds a %s…} literal: put the text in its text file", name, lit)
			}
		}
	}
}
