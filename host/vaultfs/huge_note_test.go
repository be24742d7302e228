package vaultfs

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/internal/enginetest"
)

// hugeLog is an exported log of more than 4 MiB: "headword" in its first
// lines, "tailword" past its first 4 MiB, and a character of 3 bytes
// across the 4 MiB mark.
func hugeLog() string {
	head := "# Export\n\nheadword in the first line\n"
	fill := strings.Repeat("x", vault.MaxHeadBytes-len(head)-1)
	return head + fill + "€ then more\n" + strings.Repeat("log line\n", 1<<17) + "tailword at the end\n"
}

// TestAnswerHeads: a heads need gets a file's first 4 MiB, cut back to
// the character the cut falls in, and its size; a small file whole; a
// missing one in missing; a folder refused as a files need refuses it.
func TestAnswerHeads(t *testing.T) {
	dir := t.TempDir()
	log := hugeLog()
	makeTree(t, dir, map[string]string{"20-knowledge/log.md": log, "20-knowledge/small.md": "small", "20-knowledge/sub/": ""})
	v := openVault(t, dir)
	var snap vault.Snapshot
	if err := v.answer(vault.Need{Heads: []string{"20-knowledge/log.md", "20-knowledge/small.md", "20-knowledge/none.md"}}, &snap, 1<<20); err != nil {
		t.Fatal(err)
	}
	h := snap.Heads["20-knowledge/log.md"]
	if h.Text == nil || len(*h.Text) != vault.MaxHeadBytes-1 || !utf8.ValidString(*h.Text) || h.Size != int64(len(log)) || *h.Text != log[:vault.MaxHeadBytes-1] {
		t.Errorf("head of the log: %d bytes of text, size %d; want %d bytes (the € left out), size %d", len(deref(h.Text)), h.Size, vault.MaxHeadBytes-1, len(log))
	}
	if s := snap.Heads["20-knowledge/small.md"]; deref(s.Text) != "small" || s.Size != 5 {
		t.Errorf("head of a small note: %+v", s)
	}
	if len(snap.Missing) != 1 || snap.Missing[0] != "20-knowledge/none.md" {
		t.Errorf("missing %v", snap.Missing)
	}
	err := v.answer(vault.Need{Heads: []string{"20-knowledge/sub"}}, &snap, 0)
	if e := wantCode(t, err, "CONFLICT"); e.Details["path"] != "20-knowledge/sub" {
		t.Errorf("a folder's head: %v", err)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// TestHugeNoteSearched: a note of more than 4 MiB beside others, on both
// engines, with a call bound of 4.5 MiB of text (a whole read of the
// note would exceed it, LIMIT_EXCEEDED for every search and recall):
// mem_search finds the other notes and the note by its head, with its
// line, not by what comes after its first 4 MiB, and warns naming it;
// mem_recall of a project that links to it answers too.
func TestHugeNoteSearched(t *testing.T) {
	for name, eng := range enginetest.Both(t) {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			makeTree(t, dir, map[string]string{
				"20-knowledge/log.md":                   hugeLog(),
				"20-knowledge/plain.md":                 "a plain note about headword\n",
				"40-principles/keep logs.md":            "---\nsummary: keep logs\n---\nSee [[alpha]] and [[log]].\n",
				"40-principles/huge.md":                 "See [[alpha]].\n" + hugeLog(),
				"10-episodes/projects/alpha/context.md": "---\nkind: project\nphase: build\n---\n# Alpha\n\nWe export [[log]].\n",
			})
			v := openVault(t, dir)
			opts := call.Options{Now: time.Date(2026, 11, 30, 9, 15, 0, 0, time.UTC), TZ: "Europe/Paris"}
			opts.MaxBytes = vault.MaxHeadBytes + vault.MaxHeadBytes/8
			run := func(tool, args string) map[string]any {
				t.Helper()
				out, err := call.Run(context.Background(), v, eng, tool, json.RawMessage(args), opts)
				if err != nil || !out.OK {
					t.Fatalf("%s: %s, %v", tool, out.Answer, err)
				}
				var r map[string]any
				json.Unmarshal(out.Result, &r)
				return r
			}
			for round := range 2 { // a first build, then the stored index
				r := run("mem_search", `{"query":"headword"}`)
				hits, _ := r["hits"].([]any)
				lines := map[string]any{}
				for _, h := range hits {
					h := h.(map[string]any)
					lines[h["path"].(string)] = h["line"]
				}
				if len(hits) != 3 || lines["20-knowledge/log.md"] != "headword in the first line" || lines["20-knowledge/plain.md"] == nil {
					t.Errorf("round %d: hits %v", round, lines)
				}
				if w := warnings(r); len(w) != 1 || !strings.Contains(w[0], "20-knowledge/log.md") || !strings.Contains(w[0], "4 MiB") || !strings.Contains(w[0], "2 notes") {
					t.Errorf("round %d: warnings %q; want one naming the cut note", round, w)
				}
				if r := run("mem_search", `{"query":"tailword"}`); r["total"] != 0.0 {
					t.Errorf("round %d: found past the head: %v", round, r["hits"])
				}
			}
			r := run("mem_recall", `{"slug":"alpha"}`)
			if w := warnings(r); len(w) != 1 || !strings.Contains(w[0], "20-knowledge/log.md") || !strings.Contains(w[0], "40-principles/huge.md") {
				t.Errorf("recall warnings %q; want one naming the cut notes", w)
			}
			linked, _ := r["linked"].([]any)
			var texts []string
			for _, l := range linked {
				texts = append(texts, l.(map[string]any)["path"].(string)+": "+l.(map[string]any)["text"].(string)[:13])
			}
			if len(linked) != 2 || texts[0] != "40-principles/huge.md: See [[alpha]]" {
				t.Errorf("recall's linked notes: %q", texts)
			}
			os.Remove(filepath.Join(dir, ".kessho", "index", "search.idx")) // the core keeps its warm index: no whole read either way
			run("mem_recall", `{"slug":"alpha"}`)
		})
	}
}

// warnings is a result's warnings.
func warnings(r map[string]any) []string {
	var out []string
	for _, w := range r["warnings"].([]any) {
		out = append(out, w.(string))
	}
	return out
}
