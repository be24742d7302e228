package tsgen

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/kessho/kessho/core"
	"github.com/kessho/kessho/core/hostlogic"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/wire"
	"github.com/kessho/kessho/internal/vaulttest"
)

var update = flag.Bool("update", false, "write testdata/wire's fixtures (make wire-ts)")

// fixtures is testdata/wire, from this package's folder.
var fixtures = filepath.Join("..", "..", "..", "testdata", "wire")

// The values of the fixtures. plugin-shim/tests/wire/codec.test.ts writes
// the same values: the requests with the plugin's request writer, compared
// byte for byte with these; the answers as it expects to read them.
var (
	// text holds what JSON escapes (a quote, a backslash, controls) and
	// characters beyond ASCII of one to four bytes.
	text    = "---\nsubject: \"Été\" \\ 日本\n---\n\ttab\r\u0001 😀\n"
	html    = "<b>a & b</b>\u2028\u2029"
	written = "# Kessho — été\n"
)

func requests() map[string]wire.Request {
	head := "x"
	return map[string]wire.Request{
		"snapshot": {Tool: "mem_worklog", Args: json.RawMessage(`{"since":"2026-11-30","note":"été 😀 \"q\" \\n"}`), Now: "2026-12-01T10:00:00Z",
			Snapshot: wire.Snapshot{
				Files: map[string]wire.File{
					"10-episodes/projects/été/context.md": vaulttest.FileOf(text),
					"10-episodes/projects/été/notes.md":   vaulttest.FileOf("\xff\xfe"),
				},
				Heads:      map[string]wire.Head{"big.md": {Text: &head, Size: 5 << 20}, "bin.md": {NotUTF8: true, Size: 4<<20 + 1}},
				Missing:    []string{"10-episodes/archived/été/context.md", "a/b.md"},
				Dirs:       map[string][]string{".": {"10-episodes/", "x.md"}, "10-episodes": {}},
				Matches:    map[string][]string{"logs\n2026-*\n!*.tmp": {"2026-12-01.md"}},
				RawDirs:    map[string][]string{"10-episodes/projects": {"été/", ".obsidian/", "a.md"}},
				RawMatches: map[string][]string{"10-episodes/domains\nété": {"b/", "été/"}},
			}},
		"search": {Tool: "mem_search", Args: json.RawMessage(`{"query":"été"}`), Now: "2026-12-01T10:00:00Z", TZ: "Europe/Paris", Lang: "fr",
			Search: &wire.Carry{Listing: "9f86d081", ID: "0123456789abcdef-42", Full: true, Notes: map[string]string{"a.md": "12:1700000000000", "été.md": "3:1"}}},
		"html": {Tool: "mem_capture", Args: json.RawMessage(`{"text":"` + html + `"}`), Now: "2026-12-01T10:00:00Z",
			Snapshot: wire.Snapshot{Files: map[string]wire.File{"a&b.md": vaulttest.FileOf(html)}}},
		"order": {Tool: "mem_update_phase", Now: "2026-12-01T10:00:00Z", TZ: "UTC", Lang: "en",
			Snapshot: wire.Snapshot{Files: map[string]wire.File{"a.md": vaulttest.FileOf(text)}, Missing: []string{"b.md"}}},
	}
}

func answers() map[string]wire.Answer {
	yes, no := true, false
	result, _ := json.Marshal(map[string]any{"slug": "été", "html": html, "n": 3, "list": []string{text}})
	return map[string]wire.Answer{
		"ok": {OK: &yes, Result: result, Conflict: "CONTEXT_HYGIENE_RACE", Plan: plan.Plan{
			{Op: plan.Write, Path: "10-episodes/projects/été/context.md", Text: &written, Expect: plan.Absent},
			{Op: plan.Delete, Path: "a.md", Expect: "sha256:" + vaulttest.FileOf(text).SHA256},
			{Op: plan.Move, From: "b.md", To: "c/b.md"},
			{Op: plan.Check, Path: "d.md", Expect: plan.Absent},
		}},
		"need": {Need: &wire.Need{Files: []string{"a.md"}, Heads: []string{"big.md"}, Dirs: []string{"."},
			Trees: []wire.Tree{{Root: "10-episodes", Content: true}}, Matches: []wire.Match{{Dir: "logs", Patterns: []string{"2026-*", "!*.tmp"}}}, Search: "notes"}},
		"error":  {OK: &no, Error: &wire.ErrorBody{Code: "NOT_FOUND", Message: "no project « été » <here>", Details: map[string]any{"slug": "été", "max": 5}}},
		"search": {OK: &yes, Result: json.RawMessage(`{"hits":[]}`), Search: &wire.Carry{ID: "0123456789abcdef-42@9f86d081", Index: []byte{1, 2}}},
	}
}

// encoded is every fixture's name and bytes: the requests by
// wire.CompactArgs and wire.EncodeCompacted (their carry's notes as the
// Go host passes them), the answers by wire.EncodeAnswer (a search
// index's bytes, which follow the JSON, left out), and a call's step by
// hostlogic.Step.
func encoded(t *testing.T) map[string][]byte {
	out := map[string][]byte{}
	for name, req := range requests() {
		var notes map[string]string
		if req.Search != nil {
			notes = req.Search.Notes
		}
		args, err := wire.CompactArgs(req.Args) // as a host does once a call
		if err != nil {
			t.Fatalf("request %s: %v", name, err)
		}
		req.Args = args
		out["request-"+name+".json"] = wire.EncodeCompacted(&req, notes)
	}
	for name, ans := range answers() {
		b, err := wire.EncodeAnswer(ans)
		if err != nil {
			t.Fatalf("answer %s: %v", name, err)
		}
		out["answer-"+name+".json"] = b
	}
	// A call's first step, its round run at once: the core's refusal, and
	// nothing handed back to print or keep.
	step := `{"start":{"lang":"fr","call":{"tool":"mem_nope","max_rounds":8},"journals":[]},"now":"2026-11-30T10:15:00Z","wall":"2026-11-30T10:15:00Z","random":"00"}`
	out["step-call.json"] = hostlogic.Step([]byte(step+"\x002026-11-30T10:15:00Z\x00{\"tool\":\"mem_nope\",\"now\":\x00}"), core.New().HandleAnswer)
	return out
}

// TestFixtures fails when testdata/wire is not what the Go codec writes
// of the values above (-update writes it: make wire-ts), and checks that
// the codec reads each request back to its value.
func TestFixtures(t *testing.T) {
	want := encoded(t)
	if *update {
		if err := os.MkdirAll(fixtures, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, b := range want {
			if err := os.WriteFile(filepath.Join(fixtures, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	entries, err := os.ReadDir(fixtures)
	if err != nil {
		t.Fatalf("%v: run %s", err, Command)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
		got, err := os.ReadFile(filepath.Join(fixtures, e.Name()))
		if err != nil || !bytes.Equal(got, want[e.Name()]) {
			t.Errorf("testdata/wire/%s is stale (%v): run %s", e.Name(), err, Command)
		}
	}
	if len(names) != len(want) {
		t.Errorf("testdata/wire holds %q, not the %d fixtures the codec writes: run %s", names, len(want), Command)
	}
	for name := range requests() {
		b := want["request-"+name+".json"]
		back, err := wire.DecodeRequest(b)
		if back.Search != nil {
			back.Search.Sorted = nil // no JSON's (the wire package's tests check it)
		}
		var viaJSON wire.Request
		if jerr := json.Unmarshal(b, &viaJSON); err != nil || jerr != nil || !reflect.DeepEqual(back, viaJSON) {
			t.Errorf("request %s read back: %v, %v\n%+v\n%+v", name, err, jerr, back, viaJSON)
		}
	}
}
