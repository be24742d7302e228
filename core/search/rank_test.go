package search

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestRankingUpdatedAsRankedAnew: a Ranking brought up to date after
// notes are put, replaced and removed (a word the query names appearing
// for the first time, compactions between), its candidates alone scored
// when its bound allows, ranks as a Ranking made anew on the same index:
// the same hits, scores, fields and count, for a filter that keeps some
// notes and not others.
func TestRankingUpdatedAsRankedAnew(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	words := []string{"webhook", "retry", "cache", "budget", "deploy", "schema", "review"}
	text := func() string {
		var b strings.Builder
		fmt.Fprintf(&b, "---\nsubject: %s %s\n---\n", words[r.IntN(len(words))], words[r.IntN(len(words))])
		for range 3 + r.IntN(20) {
			b.WriteString(words[r.IntN(len(words))] + " ")
		}
		return b.String()
	}
	x := New()
	for i := range 1500 { // more than candidates keeps: the bound decides
		tx := text()
		x.Put(ParseNote(fmt.Sprintf("20-knowledge/n%03d.md", i), key(tx)+fmt.Sprint(i), &tx))
	}
	keep := func(m *Meta) bool { return !strings.HasSuffix(m.Path, "7.md") }
	query := Terms("webhook retry zygomorph deploy")
	rk := x.Rank(query, keep)
	updated, again, floors := 0, 0, 0.0
	for round := range 240 {
		limit := 1 + round%12
		for range 1 + r.IntN(6) {
			p := fmt.Sprintf("20-knowledge/n%03d.md", r.IntN(1600))
			switch tx := text(); {
			case r.IntN(4) == 0:
				x.Remove(p)
			case round == 120:
				tx += " zygomorph"
				fallthrough
			default:
				x.Put(ParseNote(p, key(tx)+fmt.Sprint(round), &tx))
			}
		}
		if round%80 == 79 {
			x.Compact()
		}
		floors += rk.floor
		if rk.Update(x, keep) {
			updated++
		} else {
			rk = x.Rank(query, keep)
		}
		var got []Hit
		var gotN int
		s := rk.statsOf(x)
		fast := false
		if rk.ranked {
			got, fast = rk.again(x, limit, &s)
			gotN = rk.total
		}
		if fast {
			again++
		} else {
			got, gotN = rk.Top(x, limit)
		}
		want, wantN := x.Rank(query, keep).Top(x, limit)
		if gotN != wantN || !reflect.DeepEqual(hitsOf(got), hitsOf(want)) {
			t.Fatalf("round %d: %d %v\nwant %d %v", round, gotN, hitsOf(got), wantN, hitsOf(want))
		}
	}
	if floors == 0 {
		t.Error("every document was a candidate: the bound was never needed")
	}
	if updated < 160 || again < 80 {
		t.Errorf("of 240 rounds, %d updated the ranking and %d scored its candidates alone: the test ranks anew", updated, again)
	}
}

func hitsOf(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, fmt.Sprintf("%s %v %v", h.Path, h.Score, h.Matched))
	}
	return out
}

// TestFindEntry checks findEntry against slices.BinarySearchFunc on
// sorted entries with gaps, for ids present, absent, below and above.
func TestFindEntry(t *testing.T) {
	for n := range 40 {
		entries := make([]rankEntry, n)
		for i := range entries {
			entries[i].id = uint32(3*i + 1)
		}
		for id := uint32(0); id < uint32(3*n+3); id++ {
			wk, wok := slices.BinarySearchFunc(entries, id, func(e rankEntry, id uint32) int { return int(e.id) - int(id) })
			if k, ok := findEntry(entries, id); k != wk || ok != wok {
				t.Fatalf("%d entries, id %d: findEntry = %d, %v; want %d, %v", n, id, k, ok, wk, wok)
			}
		}
	}
}
