package tools

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/kessho/kessho/core/search"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/core/wire"
	"github.com/kessho/kessho/internal/wordy"
)

// wordyNotes is the notes of host/call's wordyVault (internal/wordy:
// 50,000 of them give some 100,000 terms), by path, and its vocabulary,
// most frequent first.
func wordyNotes(n int) (map[string]string, []string) {
	vocab, made := wordy.New(n)
	notes := make(map[string]string, n)
	for p, text := range made {
		notes[p] = text
	}
	return notes, vocab
}

// wordyQueries are host/call's typoQueries as searchArgs: two of each
// kind, so that the calls alternate.
func wordyQueries(vocab []string) map[string][2]searchArgs {
	out := map[string][2]searchArgs{}
	for kind, qs := range wordy.Queries(vocab) {
		for i, q := range qs {
			v := out[kind]
			v[i] = searchArgs{Query: q.Text, Prefix: q.Prefix, Limit: 10}
			out[kind] = v
		}
	}
	return out
}

// warmSearchEnv is an Env whose State holds the index of notes warm (as
// a host that carries it sent it, decoded), up to date with the Carry's
// listing, and whose View holds every note: a search on it runs in one
// round, as the last round of a warm call does.
func warmSearchEnv(notes map[string]string) (*Env, vault.Snapshot) {
	idx := search.New()
	st := NewState()
	idx.UseStems(&st.stems)
	snap := vault.Snapshot{Files: map[string]wire.File{}}
	for _, p := range slices.Sorted(maps.Keys(notes)) {
		text := notes[p]
		idx.Put(search.ParseNote(p, fmt.Sprintf("%d:1", len(text)), &text))
		snap.Files[p] = wire.File{SHA256: "-", Text: &text}
	}
	idx.Compact()
	idx, err := search.Decode(idx.EncodeRoom(0))
	if err != nil {
		panic(err)
	}
	idx.UseStems(&st.stems)
	st.warm.idx, st.warm.carried, st.warm.listing = idx, true, "L"
	return &Env{Now: time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC), Lang: "en", State: st}, snap
}

// BenchmarkSearchWarmCore is BenchmarkSearchTypos (host/call) without
// the host: a warm mem_search at 50,000 wordy notes, the core's work
// alone (searchTool), for each kind of query. Compiled to wasip1 and run
// under wazero, it shows what the wasm engine spends in the core.
func BenchmarkSearchWarmCore(b *testing.B) {
	notes, vocab := wordyNotes(50000)
	env, snap := warmSearchEnv(notes)
	queries := wordyQueries(vocab)
	for _, kind := range []string{"exact", "typo", "prefix", "unknown"} {
		b.Run(kind, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				env.View = vault.NewView(snap)
				env.Search = &search.Carry{Listing: "L"}
				res, _, err := searchTool(env, queries[kind][i%2])
				if err != nil {
					b.Fatal(err)
				}
				if r := res.(searchResult); r.Total == 0 && kind != "unknown" {
					b.Fatalf("%v: no hit", queries[kind][i%2])
				}
			}
		})
	}
}
