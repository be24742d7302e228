// Command benchrecall is Kessho's retrieval benchmark: how well mem_search
// finds the notes a need asks for, against three baselines.
//
//	benchrecall               ranks testdata/recall/needs.json with mem_search and three baselines, prints the figures
//	benchrecall -dev-detail   the same, and the dev half need by need
//	benchrecall -json         only the issue 29 splits (language, typos, kind, no answer), as JSON
//	benchrecall -make-vault   rebuilds testdata/recall/vault from script.txt
//
// It runs from the repository's root (make bench-recall, make
// recall-vault); testdata/recall/README.md describes the benchmark.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kessho/kessho/host/internal/recallbench"
)

func main() {
	dir := flag.String("dir", "testdata/recall", "the benchmark's folder: script.txt, vault/, needs.json")
	devDetail := flag.Bool("dev-detail", false, "also list the dev half need by need (to tune on; the test half is never listed)")
	asJSON := flag.Bool("json", false, "print only the issue 29 split figures, as JSON")
	makeVault := flag.Bool("make-vault", false, "rebuild <dir>/vault from <dir>/script.txt by calling Kessho's tools")
	phrasing := flag.Int("dev-phrasing", 0, "only the dev half's aggregate figures on this phrasing (1-based; 3: the other language)")
	half := flag.String("phrasing-half", "dev", "the half -dev-phrasing reads: dev to tune on; test once, to report")
	confidence := flag.String("confidence", "", "report mem_search's confidence signal on this half (dev, or test once) instead")
	flag.Parse()
	var err error
	switch {
	case *confidence != "":
		err = recallbench.ConfidenceReport(context.Background(), *dir, *confidence, os.Stdout)
	case *makeVault:
		err = rebuildVault(*dir)
	case *phrasing > 0:
		err = benchPhrasing(*dir, *half, *phrasing)
	default:
		err = bench(*dir, *devDetail, *asJSON)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchrecall:", err)
		os.Exit(1)
	}
}

func bench(dir string, devDetail, asJSON bool) error {
	b, err := recallbench.Load(dir)
	if err != nil {
		return err
	}
	defer b.Close()
	b.DevDetail = devDetail
	b.JSON = asJSON
	return b.Run(context.Background(), os.Stdout)
}

// rebuildVault runs the script on an empty temporary vault and puts its
// notes (not .kessho/) in place of <dir>/vault.
func rebuildVault(dir string) error {
	f, err := os.Open(filepath.Join(dir, "script.txt"))
	if err != nil {
		return err
	}
	defer f.Close()
	steps, err := recallbench.ParseScript(f)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "recall-vault-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := recallbench.Build(context.Background(), tmp, steps); err != nil {
		return err
	}
	out := filepath.Join(dir, "vault")
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	return recallbench.CopyNotes(tmp, out)
}

// benchPhrasing writes one half's aggregates on one phrasing.
func benchPhrasing(dir, half string, i int) error {
	b, err := recallbench.Load(dir)
	if err != nil {
		return err
	}
	defer b.Close()
	return b.RunPhrasing(context.Background(), os.Stdout, half, i)
}
