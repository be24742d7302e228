package call_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/vaultfs"
)

// benchVault writes n synthetic notes of about 1.1 KB (archives of 50
// projects, atoms in three zones, French and English words) into a new
// folder, the same for a given n.
func benchVault(b testing.TB, n int) string {
	dir := b.TempDir()
	r := rand.New(rand.NewPCG(uint64(n), 7))
	vocab := make([]string, 6000)
	for i := range vocab {
		var w strings.Builder
		for range 4 + r.IntN(6) {
			w.WriteByte("abcdefghijklmnopqrstuvwxyzéè"[r.IntN(26)])
		}
		vocab[i] = w.String()
	}
	word := func() string { return vocab[int(float64(len(vocab))*r.Float64()*r.Float64())] }
	for i := range n {
		var p string
		switch i % 4 {
		case 0, 1:
			p = fmt.Sprintf("10-episodes/projects/p%02d/archives/2026-%02d-%02d-10h00-p%02d-%s-%s.md", i%50, 1+i%12, 1+i%28, i%50, word(), word())
		case 2:
			p = fmt.Sprintf("20-knowledge/%s %s %d.md", word(), word(), i)
		default:
			p = fmt.Sprintf("40-principles/%s %s %d.md", word(), word(), i)
		}
		var body strings.Builder
		fmt.Fprintf(&body, "---\nsubject: %s %s\naliases:\n  - %s %s\ndate: 2026-%02d-%02d\n---\n", word(), word(), word(), word(), 1+i%12, 1+i%28)
		for body.Len() < 1100 {
			for range 12 {
				body.WriteString(word() + " ")
			}
			body.WriteString("\n")
		}
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

func benchEngine(b *testing.B, name string) call.Engine {
	if name == "native" {
		return engine.Native()
	}
	w, err := engine.NewWasm(context.Background(), engine.WasmOptions{PoolSize: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { w.Close(context.Background()) })
	return w
}

func benchSearch(b *testing.B, v *vaultfs.Vault, eng call.Engine, q string) {
	out, err := call.Run(context.Background(), v, eng, "mem_search", json.RawMessage(`{"query":"`+q+`"}`), call.Options{Timeout: -1})
	if err != nil || !out.OK {
		b.Fatalf("%v %s", err, out.Answer)
	}
}

// benchEach runs fn for each engine on a vault of each size.
func benchEach(b *testing.B, sizes []int, fn func(b *testing.B, dir string, v *vaultfs.Vault, name string)) {
	for _, n := range sizes {
		dir := benchVault(b, n)
		for _, name := range []string{"native", "wasm"} {
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				v, _ := vaultfs.Open(dir)
				defer v.Close()
				fn(b, dir, v, name)
			})
		}
	}
}

// BenchmarkSearchFirstBuild is a search with no stored index: every note
// read and indexed, the index encoded and stored (a fresh engine each
// time, so no instance keeps a warm index).
func BenchmarkSearchFirstBuild(b *testing.B) {
	benchEach(b, []int{1000, 10000}, func(b *testing.B, dir string, v *vaultfs.Vault, name string) {
		for b.Loop() {
			b.StopTimer()
			os.RemoveAll(filepath.Join(dir, ".kessho", "index"))
			eng := benchEngine(b, name)
			b.StartTimer()
			benchSearch(b, v, eng, "budget review")
		}
	})
}

// BenchmarkSearchWarm is a search in a running server: the index up to
// date, the engine warm (the whole call: walk, stat, rounds, lines).
func BenchmarkSearchWarm(b *testing.B) {
	benchEach(b, []int{1000, 10000}, func(b *testing.B, _ string, v *vaultfs.Vault, name string) {
		eng := benchEngine(b, name)
		benchSearch(b, v, eng, "budget review")
		for b.Loop() {
			benchSearch(b, v, eng, "budget review")
		}
	})
}

// BenchmarkSearchCold is a search with an up-to-date stored index on a
// fresh engine instance: what a whole `kessho search` process does after
// the engine has started. (A fresh native engine shares the process's
// warm index: for it this is the warm search.)
func BenchmarkSearchCold(b *testing.B) {
	benchEach(b, []int{10000}, func(b *testing.B, _ string, v *vaultfs.Vault, name string) {
		benchSearch(b, v, benchEngine(b, name), "budget review")
		for b.Loop() {
			b.StopTimer()
			eng := benchEngine(b, name)
			b.StartTimer()
			benchSearch(b, v, eng, "budget review")
		}
	})
}
