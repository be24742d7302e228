package recallbench

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// A ranker that refuses (mem_search before it exists: an unknown tool)
// is reported unavailable, never as empty rankings, and the other
// columns are still printed.
func TestRunReportsARefusingRankerUnavailable(t *testing.T) {
	needs := []Need{
		{ID: "a", Split: "dev", Queries: []string{"x", "y"}, Gold: []string{"g.md"}, GoldKind: "atom"},
		{ID: "b", Split: "test", Queries: []string{"x", "y"}, Gold: []string{"g.md"}, GoldKind: "archive"},
		{ID: "c", Split: "test", Queries: []string{"x"}, GoldKind: "none"},
	}
	fake := func(_ context.Context, _ Need, q string) ([]Hit, error) {
		if q == "y" {
			return []Hit{{"o.md", 2}, {"g.md", 1}}, nil
		}
		return []Hit{{"o.md", 3}}, nil
	}
	refuse := func(context.Context, Need, string) ([]Hit, error) {
		return nil, &Refused{Answer: `{"ok":false,"error":{"code":"INVALID_ARGUMENT","message":"unknown tool \"mem_search\""}}`}
	}
	b := &Bench{Needs: needs, Unavailable: map[string]string{}, cleanup: func() {},
		Rankers: []Ranker{{"kessho", refuse}, {"fake", fake}}}
	var out bytes.Buffer
	if err := b.Run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	s := strings.Join(strings.Fields(out.String()), " ") // columns padded by tabwriter
	for _, want := range []string{
		"kessho column UNAVAILABLE: kessho, need a, phrasing 1: mem_search refused:",
		"unknown tool",
		"cannot be checked, the kessho column is unavailable",
		// fake: gold never first, found by the second phrasing (rank 2).
		"fake archive 1 0.00 [0.00 0.00] 0.00 [0.00 0.00] 0.00 [0.00 0.00] 2.00 [2.00 2.00] 0 0",
		"fake 1/1 with hits",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("report lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "kessho archive") {
		t.Errorf("the unavailable column has figures:\n%s", s)
	}
}

// The per-need listing, for tuning, shows the dev half only: the test
// half is reported, never looked at need by need.
func TestDevDetailListsDevNeedsOnly(t *testing.T) {
	needs := []Need{
		{ID: "d1", Split: "dev", Queries: []string{"x", "y"}, Gold: []string{"g.md"}, GoldKind: "atom"},
		{ID: "t1", Split: "test", Queries: []string{"x"}, Gold: []string{"g.md"}, GoldKind: "archive"},
	}
	fake := func(_ context.Context, _ Need, q string) ([]Hit, error) {
		if q == "y" {
			return []Hit{{"o.md", 2}, {"g.md", 1}}, nil
		}
		return nil, nil
	}
	b := &Bench{Needs: needs, Unavailable: map[string]string{}, cleanup: func() {},
		Rankers: []Ranker{{"fake", fake}}, DevDetail: true}
	var out bytes.Buffer
	if err := b.Run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	s := strings.Join(strings.Fields(out.String()), " ")
	if want := "d1 atom fake: rank - attempts 2 EMPTY | x"; !strings.Contains(s, want) {
		t.Errorf("report lacks %q:\n%s", want, out.String())
	}
	if strings.Contains(s, "t1 ") {
		t.Errorf("a test need is listed:\n%s", out.String())
	}
}
