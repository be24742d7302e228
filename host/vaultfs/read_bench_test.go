package vaultfs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/vault"
)

// BenchmarkAnswerFiles reads 10,000 notes of about 1.5 KB in batches of
// 2,500 (what a first search index build asks for, four batches of 4
// MiB), with 1, 2 and 4 read workers.
func BenchmarkAnswerFiles(b *testing.B) {
	dir := b.TempDir()
	files := map[string]string{}
	var paths []string
	for i := range 10000 {
		p := fmt.Sprintf("10-episodes/projects/p%02d/archives/2026-01-%02d-n%05d.md", i%50, 1+i%28, i)
		files[p] = fmt.Sprintf("---\nsubject: note %d\n---\n", i) + strings.Repeat("des mots et des words ", 70)
		paths = append(paths, p)
	}
	makeTree(b, dir, files)
	v := openVault(b, dir)
	for _, n := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("workers=%d", n), func(b *testing.B) {
			old := readWorkers
			readWorkers = n
			defer func() { readWorkers = old }()
			b.SetBytes(int64(len(files[paths[0]]) * len(paths)))
			for b.Loop() {
				for i := 0; i < len(paths); i += 2500 {
					var snap vault.Snapshot
					if err := v.answer(vault.Need{Files: paths[i : i+2500]}, &snap, 0); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
