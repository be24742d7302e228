// Command gen writes lexicon_gen.go, the lexicon's compact form, from
// fr-en.txt (run by go generate in core/search/lexicon).
package main

import (
	"fmt"
	"os"

	"github.com/kessho/kessho/core/search/internal/lexbuild"
)

func main() {
	src, err := os.ReadFile("fr-en.txt")
	if err == nil {
		var out string
		if out, err = lexbuild.Source(string(src)); err == nil {
			err = os.WriteFile("lexicon_gen.go", []byte(out), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "lexicon:", err)
		os.Exit(1)
	}
}
