package toolbench

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/kessho/kessho/core/tools"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/internal/genvault"
	"github.com/kessho/kessho/host/vaultfs"
)

// checkPlants are the findings BenchmarkCheck plants in the generated
// vault (file → text) and the code and path mem_check must report for
// each. The generated vault has one finding of its own, on purpose:
// its session log holds 60 blocks (for the trim's benchmarks), so its
// hygiene check fails (generatedFindings).
var checkPlants = []struct{ path, text, code string }{
	{"00-inbox/planted-broken.md", "See [[no-such-note-anywhere]].\n", "BROKEN_LINK"},
	{"00-inbox/planted-dup.md", "---\nslug: a\nslug: b\n---\n", "FRONTMATTER_DUPLICATE_KEY"},
	{"00-inbox/planted-bad.md", "---\nslug: [a\n---\n", "FRONTMATTER_INVALID"},
	{"00-inbox/planted-latin1.md", "caf\xe9\n", "NOT_UTF8"},
	{"00-inbox/planted.kessho-conflict-20261130T101507Z.md", "other\n", "CONFLICT_COPY"},
	{"40-principles/planted-unlisted.md", "---\nslug: planted-unlisted\n---\nUnlisted.\n", "INDEX_MISSING"},
}

// generatedFindings is what mem_check reports on a vault the generator
// made, before anything is planted.
var generatedFindings = []string{"HYGIENE_FAIL memory/SESSION_LOG.md"}

// BenchmarkCheck is mem_check on the 50k vault with findings planted,
// native engine, the whole call (the host's reads included): every
// planted finding reported, nothing else. The planted files are removed
// at the end, so the cached vault stays as generated.
//
//	go test ./host/internal/toolbench -run '^$' -bench BenchmarkCheck -benchtime 3x
func BenchmarkCheck(b *testing.B) {
	gv, v := openSize(b, Size{"50k", 50000})
	gvDir := gv.Dir
	for _, p := range checkPlants {
		full := filepath.Join(gvDir, filepath.FromSlash(p.path))
		if err := os.WriteFile(full, []byte(p.text), 0o644); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { os.Remove(full) })
	}
	want := slices.Clone(generatedFindings)
	for _, p := range checkPlants {
		want = append(want, p.code+" "+p.path)
	}
	slices.Sort(want)
	eng := engine.Native()
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		out, err := call.Run(ctx, v, eng, "mem_check", json.RawMessage(`{}`), opts)
		if err != nil || !out.OK {
			b.Fatalf("mem_check: %v %s", err, out.Answer)
		}
		b.ReportMetric(float64(time.Since(start).Milliseconds()), "ms/check")
		var res tools.CheckResult
		if err := json.Unmarshal(out.Result, &res); err != nil {
			b.Fatal(err)
		}
		var got []string
		for _, f := range res.Findings {
			got = append(got, f.Code+" "+f.Path)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			b.Fatalf("%d notes: findings %v; want %v", res.Notes, got[:min(len(got), 20)], want)
		}
	}
}

// TestCheckGeneratedVault is BenchmarkCheck's assertion on a 1k vault
// generated in a temporary folder: the generator's vault has only its
// known finding, and every planted finding is reported, nothing else.
func TestCheckGeneratedVault(t *testing.T) {
	gv, err := genvault.Cached(t.TempDir(), genvault.Config{Notes: 1000, Seed: Seed})
	if err != nil {
		t.Fatal(err)
	}
	v, err := vaultfs.Open(gv.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	eng := engine.Native()
	check := func() []string {
		out, err := call.Run(context.Background(), v, eng, "mem_check", json.RawMessage(`{}`), opts)
		if err != nil || !out.OK {
			t.Fatalf("mem_check: %v %s", err, out.Answer)
		}
		var res tools.CheckResult
		if err := json.Unmarshal(out.Result, &res); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range res.Findings {
			got = append(got, f.Code+" "+f.Path)
		}
		slices.Sort(got)
		return got
	}
	if got := check(); !slices.Equal(got, generatedFindings) {
		t.Fatalf("the generated vault: %d findings %v; want %v", len(got), got[:min(len(got), 10)], generatedFindings)
	}
	want := slices.Clone(generatedFindings)
	for _, p := range checkPlants {
		if err := os.WriteFile(filepath.Join(gv.Dir, filepath.FromSlash(p.path)), []byte(p.text), 0o644); err != nil {
			t.Fatal(err)
		}
		want = append(want, p.code+" "+p.path)
	}
	slices.Sort(want)
	if got := check(); !slices.Equal(got, want) {
		t.Errorf("findings %v; want %v", got, want)
	}
}
