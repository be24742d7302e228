package call_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/vaultfs"
	"github.com/kessho/kessho/internal/wordy"
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
		body := wordy.Body(i, word)
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
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

// wordyVault is a vault of n notes of about 1.1 KB whose words come
// from a vocabulary of vocabSize made-up words, drawn by Zipf's law as a
// language's are: at 50,000 notes its index holds some 100,000 terms, as
// a real vault of that size does (benchVault's 6,000 words are too few
// for what scales with the terms: typo and prefix lookups). It returns
// the folder and the vocabulary, most frequent first. The vault is kept
// under $KESSHO_BENCH_CACHE when set (made once), else in a new folder.
func wordyVault(b *testing.B, n int) (string, []string) {
	vocab, notes := wordy.New(n)
	dir := b.TempDir()
	if root := os.Getenv("KESSHO_BENCH_CACHE"); root != "" {
		dir = filepath.Join(root, fmt.Sprintf("wordy-%d-v1", n))
		if _, err := os.Stat(filepath.Join(dir, "stamp")); err == nil {
			return filepath.Join(dir, "vault"), vocab
		}
		if err := os.RemoveAll(dir); err != nil {
			b.Fatal(err)
		}
	}
	for p, text := range notes {
		full := filepath.Join(dir, "vault", filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "stamp"), nil, 0o644); err != nil {
		b.Fatal(err)
	}
	return filepath.Join(dir, "vault"), vocab
}

// typoQueries are warm searches of each kind on wordyVault's
// vocabulary, two of each so that the calls alternate (the core answers
// a query the same as the last one from what it kept): words as
// written; a typo in each word (one edit, two in a long word); the last
// word cut short, with prefix; and long words the vault does not hold
// (made up from the same letters: each looked up within two edits, what
// costs most).
func typoQueries(vocab []string) map[string][2]string {
	out := map[string][2]string{}
	for kind, qs := range wordy.Queries(vocab) {
		for i, q := range qs {
			v := out[kind]
			v[i] = fmt.Sprintf(`{"query":%q,"prefix":%t}`, q.Text, q.Prefix)
			out[kind] = v
		}
	}
	return out
}

// BenchmarkSearchTypos is a warm mem_search at 50,000 notes with some
// 100,000 terms (wordyVault) on each engine, for each kind of query
// (typoQueries): p50-ms is the median call. Each query but the unknown
// one finds notes.
func BenchmarkSearchTypos(b *testing.B) {
	dir, vocab := wordyVault(b, 50000)
	queries := typoQueries(vocab)
	for _, name := range []string{"native", "wasm"} {
		b.Run(name, func(b *testing.B) {
			v, _ := vaultfs.Open(dir)
			defer v.Close()
			eng := benchEngine(b, name)
			for _, kind := range []string{"exact", "typo", "prefix", "unknown"} {
				b.Run(kind, func(b *testing.B) {
					var took []time.Duration
					for i := 0; b.Loop(); i++ {
						start := time.Now()
						total := typoSearch(b, v, eng, queries[kind][i%2])
						took = append(took, time.Since(start))
						if total == 0 && kind != "unknown" {
							b.Fatalf("%s: %d hits", queries[kind][i%2], total)
						}
					}
					slices.Sort(took)
					b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
				})
			}
		})
	}
}

// typoSearch runs mem_search with args and returns its total.
func typoSearch(b *testing.B, v *vaultfs.Vault, eng call.Engine, args string) int {
	out, err := call.Run(context.Background(), v, eng, "mem_search", json.RawMessage(args), call.Options{Timeout: -1})
	if err != nil || !out.OK {
		b.Fatalf("%v %.300s", err, out.Answer)
	}
	var res struct {
		Result struct {
			Total int `json:"total"`
		} `json:"result"`
	}
	if err := json.Unmarshal(out.Answer, &res); err != nil {
		b.Fatal(err)
	}
	return res.Result.Total
}
