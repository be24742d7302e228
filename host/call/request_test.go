package call

import (
	"encoding/json"
	"maps"
	"reflect"
	"testing"

	"github.com/kessho/kessho/core"
	"github.com/kessho/kessho/core/search"
)

// TestSearchRequestVersions: a request carrying the notes' versions,
// written without encoding/json's map encoder, is the request
// encoding/json writes, byte for byte, whatever the paths hold (quotes,
// accents, HTML's characters, a control character), and the versions
// travel with that one round only.
func TestSearchRequestVersions(t *testing.T) {
	notes := map[string]string{
		"20-knowledge/été.md":               "12:1700000000000000000",
		`20-knowledge/a "quoted" name.md`:   "3:1",
		"20-knowledge/<b> & co.md":          "4:2",
		"20-knowledge/tab\there.md":         "5:3",
		"10-episodes/projects/a/context.md": "6:4",
		"20-knowledge/\u2028line.md":        "7:5",
	}
	for _, c := range []*search.Carry{
		{Listing: "abc", ID: "0123-45"},
		{Listing: "abc"},
		{},
	} {
		c.Full, c.Notes = true, maps.Clone(notes)
		req := core.Request{Tool: search.Tool, Args: json.RawMessage(`{"query":"x"}`), Now: "2026-12-01T10:00:00Z", Search: c}
		want, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		s := &searchCarry{carry: c}
		got := s.request(&req)
		if string(got) != string(want) {
			t.Errorf("request\n%s\nwant\n%s", got, want)
		}
		var back core.Request
		if err := json.Unmarshal(got, &back); err != nil || !reflect.DeepEqual(back.Search.Notes, notes) {
			t.Errorf("decoded notes %v (%v), want %v", back.Search.Notes, err, notes)
		}
		again := s.request(&req)
		var next core.Request
		if err := json.Unmarshal(again, &next); err != nil || next.Search.Notes != nil || next.Search.Full {
			t.Errorf("the next round carries %s", again)
		}
	}
}
