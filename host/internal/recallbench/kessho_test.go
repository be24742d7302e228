package recallbench

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// fakeSearch answers every request as mem_search would, and keeps the
// requests it got.
type fakeSearch struct{ got []map[string]any }

func (f *fakeSearch) Call(_ context.Context, req []byte) ([]byte, error) {
	var r map[string]any
	if err := json.Unmarshal(req, &r); err != nil {
		return nil, err
	}
	f.got = append(f.got, r)
	return []byte(`{"ok":true,"result":{"hits":[{"path":"b.md","title":"b","score":2.5},{"path":"a.md","title":"a","score":1}],"total":2,"query_terms":["x"]}}`), nil
}

// The harness asks mem_search through the call loop, with the query,
// limit 10 and include_archived when the need says so, and reads the
// hits in their order.
func TestKesshoRanksThroughTheCallLoop(t *testing.T) {
	k, err := OpenKessho(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	fake := &fakeSearch{}
	k.eng = fake
	hits, err := k.Rank(context.Background(), "penny bug", true)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Hit{{"b.md", 2.5}, {"a.md", 1}}; !reflect.DeepEqual(hits, want) {
		t.Errorf("hits = %v, want %v", hits, want)
	}
	if _, err := k.Rank(context.Background(), "penny", false); err != nil {
		t.Fatal(err)
	}
	if len(fake.got) != 2 {
		t.Fatalf("%d requests, want 2", len(fake.got))
	}
	for i, want := range []map[string]any{
		{"query": "penny bug", "limit": 10.0, "include_archived": true},
		{"query": "penny", "limit": 10.0},
	} {
		if fake.got[i]["tool"] != "mem_search" || !reflect.DeepEqual(fake.got[i]["args"], want) {
			t.Errorf("request %d: tool %v args %v, want mem_search %v", i, fake.got[i]["tool"], fake.got[i]["args"], want)
		}
	}
}

// Today's core has no mem_search: the real call loop answers a refusal,
// which Rank returns as *Refused (the report's "unavailable"), never as
// an empty list. Once mem_search is merged, it answers hits instead.
func TestKesshoRefusalIsNoEmptyRanking(t *testing.T) {
	k, err := OpenKessho(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	hits, err := k.Rank(context.Background(), "anything", false)
	var refused *Refused
	switch {
	case err == nil:
		if hits == nil {
			t.Error("mem_search answered, with a nil hits list")
		}
	case !errors.As(err, &refused):
		t.Errorf("err = %v, want a *Refused or hits", err)
	}
}
