// Package i18n loads Kessho's human texts — every sentence a tool or a
// host says, in English and French — from YAML data files that
// translators edit without touching Go.
//
// A text file is embedded beside the Go code that uses it (//go:embed)
// and decoded into a typed Go struct, so a text the code uses is a struct
// field, checked by the compiler: fields of type fault.Msg or
// catalog.Text (a pair {en, fr}), or arrays, maps and structs of them. A
// field's key in the file is its Go name in lower case ("SetTo" is
// "setto"). Load parses a document of a file on its first use only
// (sync.OnceValues), so a call parses the texts of what it runs and
// nothing else.
//
// The file's shape is checked strictly: a key no field takes is an error
// (yaml.v3's KnownFields). Check, run by the tests on every loaded file
// (Files), finds a text missing a language and a text whose printf verbs
// differ between English and French.
package i18n

import (
	"bytes"
	"fmt"
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// File is one loaded text document: its file's name, its place in the
// file (0 for the first document), and its texts, parsed on first use.
type File struct {
	Name  string
	Doc   int
	Texts func() (any, error)
}

var (
	filesMu sync.Mutex
	files   []File
)

// Files returns every text document Load was given, in the order of Load.
func Files() []File {
	filesMu.Lock()
	defer filesMu.Unlock()
	return slices.Clone(files)
}

// Load returns a function giving document doc (0 for the first) of the
// file name of fsys (an embed.FS) decoded into T, reading and decoding it
// on the first call only. A file may hold several documents, separated by
// "---", so that a call parses only the texts it uses: a tool's text file
// holds its messages first and its catalogue texts second. A document that
// does not decode is a programming error the tests catch (Files, Check):
// the function panics with the decoder's message.
func Load[T any](fsys fs.FS, name string, doc int) func() *T {
	get := load(fsys, name, doc, func() any { return new(T) })
	return func() *T { return get().(*T) }
}

// load is Load without its type: into is a new value to decode into.
// (Load's generic part is kept this thin so that each text file's type
// adds little code to the module.)
func load(fsys fs.FS, name string, doc int, into func() any) func() any {
	parse := sync.OnceValues(func() (any, error) {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		t := into()
		dec := yaml.NewDecoder(bytes.NewReader(data))
		for range doc {
			var skip yaml.Node
			if err := dec.Decode(&skip); err != nil {
				return nil, fmt.Errorf("%s: document %d: %v", name, doc+1, err)
			}
		}
		dec.KnownFields(true)
		if err := dec.Decode(t); err != nil {
			return nil, fmt.Errorf("%s: document %d: %v", name, doc+1, err)
		}
		return t, nil
	})
	filesMu.Lock()
	files = append(files, File{Name: name, Doc: doc, Texts: parse})
	filesMu.Unlock()
	return func() any {
		t, err := parse()
		if err != nil {
			panic(err)
		}
		return t
	}
}

// Check returns the faults of the texts in v (a struct, or a pointer to
// one, as Load gives): every pair {En, Fr} must have both languages and
// the same printf verbs in the same order. Each fault names the text by
// its path ("msg.setto.fr").
func Check(v any) []error {
	var errs []error
	walk(reflect.ValueOf(v), "", &errs)
	return errs
}

func walk(v reflect.Value, path string, errs *[]error) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walk(v.Elem(), path, errs)
		}
	case reflect.Struct:
		if en, fr, ok := pair(v); ok {
			checkPair(path, en, fr, errs)
			return
		}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if f.IsExported() {
				walk(v.Field(i), join(path, f), errs)
			}
		}
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			walk(v.MapIndex(k), path+"."+k.String(), errs)
		}
	case reflect.Array, reflect.Slice:
		for i := range v.Len() {
			walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i), errs)
		}
	}
}

// pair reports whether v is a text in two languages: a struct of exactly
// the string fields En and Fr.
func pair(v reflect.Value) (en, fr string, ok bool) {
	t := v.Type()
	if t.NumField() != 2 || t.Field(0).Name != "En" || t.Field(1).Name != "Fr" ||
		t.Field(0).Type.Kind() != reflect.String || t.Field(1).Type.Kind() != reflect.String {
		return "", "", false
	}
	return v.Field(0).String(), v.Field(1).String(), true
}

// join is the path of field f under path, named as the file names it.
func join(path string, f reflect.StructField) string {
	tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	switch {
	case tag == "" && f.Anonymous && f.Tag.Get("yaml") != "":
		return path // inline
	case tag == "":
		tag = strings.ToLower(f.Name)
	}
	if path == "" {
		return tag
	}
	return path + "." + tag
}

func checkPair(path, en, fr string, errs *[]error) {
	if en == "" {
		*errs = append(*errs, fmt.Errorf("%s: no English text (en)", path))
	}
	if fr == "" {
		*errs = append(*errs, fmt.Errorf("%s: no French text (fr)", path))
	}
	if a, b := verbs(en), verbs(fr); en != "" && fr != "" && !slices.Equal(a, b) {
		*errs = append(*errs, fmt.Errorf("%s: the English text's printf verbs %q differ from the French text's %q", path, a, b))
	}
}

// verbs returns the printf verbs of format, in order ("%%" included), each
// with its flags, argument index, width and precision ("%-5d", "%[2]q").
func verbs(format string) []string {
	var out []string
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		j := i + 1
		for j < len(format) && !isVerb(format[j]) {
			j++
		}
		if j < len(format) {
			out = append(out, format[i:j+1])
		}
		i = j
	}
	return out
}

// isVerb reports whether c ends a printf directive: a letter or '%'.
func isVerb(c byte) bool {
	return c == '%' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
