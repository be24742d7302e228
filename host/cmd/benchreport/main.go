// Command benchreport turns the output of `make bench` (`go test -bench`
// runs of github.com/kessho/kessho/host/internal/toolbench and the packages' own
// benchmarks, appended to one file, with "loadavg:" lines before and
// after) into the Markdown tables of docs/PERFORMANCE.md: the machine,
// the date, the load, every tool on both engines at 1k, 10k and 50k
// notes with the 50k ÷ 1k ratios, the whole-process CLI time and peak
// memory, and the other benchmarks. Each figure is the median of the
// runs.
//
//	go run ./host/cmd/benchreport < .work/bench.out              # prints the tables
//	go run ./host/cmd/benchreport -update docs/PERFORMANCE.md < .work/bench.out
//
// -update replaces the part of the document between its benchreport
// markers, and nothing else.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"
)

func main() {
	update := flag.String("update", "", "replace the generated part of this Markdown file instead of printing")
	flag.Parse()
	if err := run(*update); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
}

func run(update string) error {
	res, err := Parse(os.Stdin)
	if err != nil {
		return err
	}
	var out bytes.Buffer
	Write(&out, res, Env{Date: time.Now().UTC().Format("2006-01-02"), Cores: runtime.NumCPU(), Go: runtime.Version()})
	if update == "" {
		_, err := os.Stdout.Write(out.Bytes())
		return err
	}
	doc, err := os.ReadFile(update)
	if err != nil {
		return err
	}
	next, err := Splice(string(doc), out.String())
	if err != nil {
		return err
	}
	return os.WriteFile(update, []byte(next), 0o644)
}
