// Command tsgen writes plugin-shim/src/wire.gen.ts, the TypeScript types
// of core/wire's messages (host/internal/tsgen), to -o or to the standard
// output (`make wire-ts`).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/kessho/kessho/host/internal/tsgen"
)

func main() {
	out := flag.String("o", "", "the file to write (default: the standard output)")
	flag.Parse()
	b, err := tsgen.Generate(tsgen.Roots)
	if err == nil && *out == "" {
		_, err = os.Stdout.Write(b)
	} else if err == nil {
		err = os.WriteFile(*out, b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
