package vaultfs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/search"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
)

// searchFor runs mem_search for query on v with eng, and returns the
// paths of its hits; rounds, when not nil, counts its rounds.
func searchFor(t *testing.T, v *Vault, eng call.Engine, query string, rounds ...*int) []string {
	t.Helper()
	args, _ := json.Marshal(map[string]string{"query": query})
	opts := call.Options{}
	if len(rounds) > 0 {
		opts.Round = func(n int) { *rounds[0] = n }
	}
	out, err := call.Run(context.Background(), v, eng, "mem_search", args, opts)
	if err != nil || !out.OK {
		t.Fatalf("mem_search %q: %s %v", query, out.Answer, err)
	}
	var res struct {
		Result struct {
			Hits []struct{ Path string } `json:"hits"`
		} `json:"result"`
	}
	if err := json.Unmarshal(out.Answer, &res); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, h := range res.Result.Hits {
		paths = append(paths, h.Path)
	}
	return paths
}

// readIndexFile returns the bytes of the index folder's file name (nil
// when there is none) and its FileInfo.
func readIndexFile(t *testing.T, dir, name string) ([]byte, os.FileInfo) {
	t.Helper()
	p := filepath.Join(dir, ".kessho", "index", name)
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, nil
	}
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return b, info
}

// TestOwnWriteStoresTheDeltaAlone: after a Vault's own write (Apply) of
// one note, the next search finds the note's new text without walking
// the vault (on Linux) and in no more rounds than a warm search (the
// note written goes with the first), and stores the index's delta alone: search.idx
// is the very file it was, byte for byte, and search.id names the base
// and the delta. A hand edit is found by the next search (it walks), and
// a one-shot process (a fresh Vault and engine) that finds search.delta
// damaged reads the base alone, finds both edits, and stores a whole
// delta again.
func TestOwnWriteStoresTheDeltaAlone(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("20-knowledge/note %02d.md", i)] = fmt.Sprintf("---\nsubject: note %d\n---\nwebhook retry budget %d\n", i, i)
	}
	makeTree(t, dir, files)
	v := openVault(t, dir)
	eng := engine.Native()
	if got := searchFor(t, v, eng, "webhook"); len(got) != 10 {
		t.Fatalf("hits %v, want the first 10", got)
	}
	searchFor(t, v, eng, "webhook") // the listing kept from now on (Linux)
	base, baseInfo := readIndexFile(t, dir, indexName)
	if base == nil {
		t.Fatal("no search.idx stored")
	}
	edited := "20-knowledge/note 07.md"
	l := lock(t, v)
	err := v.Apply(l, plan.Plan{write(edited, h(files[edited]), "---\nsubject: note 7\n---\nzygomorph\n")})
	l.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	walks := v.notes.walks
	var afterWrite, warm int
	if got := searchFor(t, v, eng, "zygomorph budget", &afterWrite); len(got) == 0 || got[0] != edited {
		t.Fatalf("after the write: hits %v, want %s first", got, edited)
	}
	if runtime.GOOS == "linux" && v.notes.walks != walks {
		t.Error("the search after the Vault's own write walked the vault")
	}
	if searchFor(t, v, eng, "zygomorph budget", &warm); runtime.GOOS == "linux" && afterWrite > warm {
		t.Errorf("the search after the write took %d rounds, a warm one %d: the note written was not sent with the first", afterWrite, warm)
	}
	after, afterInfo := readIndexFile(t, dir, indexName)
	delta, _ := readIndexFile(t, dir, deltaName)
	id, _ := readIndexFile(t, dir, indexIDName)
	if !bytes.Equal(after, base) || !os.SameFile(baseInfo, afterInfo) {
		t.Error("search.idx was written again for one note")
	}
	if !search.IsDelta(delta) || len(delta)*4 > len(base) {
		t.Fatalf("search.delta: %.4q, %d bytes (the base: %d)", delta, len(delta), len(base))
	}
	if joined := append(append([]byte{}, base...), delta...); strings.TrimSpace(string(id)) != search.ID(joined) {
		t.Errorf("search.id %q, want %q", id, search.ID(joined))
	}

	handEdited := filepath.Join(dir, "20-knowledge", "note 12.md")
	if err := os.WriteFile(handEdited, []byte("quokka by hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := searchFor(t, v, eng, "quokka"); strings.Join(got, ",") != "20-knowledge/note 12.md" {
		t.Fatalf("after a hand edit: hits %v", got)
	}

	delta, _ = readIndexFile(t, dir, deltaName)
	delta[len(delta)/2] ^= 1
	if err := os.WriteFile(filepath.Join(dir, ".kessho", "index", deltaName), delta, 0o644); err != nil {
		t.Fatal(err)
	}
	fresh := openVault(t, dir)
	if got := searchFor(t, fresh, engine.Native(), "zygomorph quokka"); len(got) != 2 {
		t.Fatalf("with a damaged delta: hits %v, want both edits", got)
	}
	base, _ = readIndexFile(t, dir, indexName)
	delta, _ = readIndexFile(t, dir, deltaName)
	if search.DeltaSize(delta) != int64(len(delta)) {
		t.Fatalf("the damaged delta was not replaced: %d bytes", len(delta))
	}
	if _, err := search.Decode(append(append([]byte{}, base...), delta...)); err != nil {
		t.Fatal(err)
	}
}
