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
// (yaml.v3's KnownFields). The tests of each package that loads texts
// check its files with core/i18n/i18ntest, which finds a text missing a
// language and a text whose printf verbs differ between English and
// French. Nothing here keeps a list of the files loaded: a package's
// tests name its loaders, or find them (core/tools's TestTextFiles).
package i18n

import (
	"bytes"
	"fmt"
	"io/fs"
	"sync"

	"gopkg.in/yaml.v3"
)

// Load returns a function giving document doc (0 for the first) of the
// file name of fsys (an embed.FS) decoded into T, reading and decoding it
// on the first call only. A file may hold several documents, separated by
// "---", so that a call parses only the texts it uses: a tool's text file
// holds its messages first and its catalogue texts second. A document that
// does not decode is a programming error the tests catch (i18ntest):
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
	return func() any {
		t, err := parse()
		if err != nil {
			panic(err)
		}
		return t
	}
}
