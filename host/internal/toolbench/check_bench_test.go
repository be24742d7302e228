package toolbench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kessho/kessho/core/tools"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/cli"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/internal/cputime"
	"github.com/kessho/kessho/host/internal/genvault"
	"github.com/kessho/kessho/host/vaultfs"
)

// checkPlants are the findings the check tests plant in a generated
// vault (file → text), one of each of mem_check's finding codes, and the
// code and path mem_check must report for each (code "" for a file that
// only makes another's finding; at, when the finding names another path
// than the file's; a file with two findings is planted twice; the kit's
// notes carry a display, so that the kit's scan finds nothing more
// there). The generated vault has findings of its own, on
// purpose: its session log holds 60 blocks (for the trim's benchmarks),
// so its hygiene check fails; and the kit's scan's own (generatedFindings).
var checkPlants = []struct{ path, text, code, at string }{
	{"00-inbox/planted-broken.md", "See [[no-such-note-anywhere]].\n", "BROKEN_LINK", ""},
	{"00-inbox/planted-dup.md", "---\nslug: a\nslug: b\n---\n", "FRONTMATTER_DUPLICATE_KEY", ""},
	{"00-inbox/planted-bad.md", "---\nslug: [a\n---\n", "FRONTMATTER_INVALID", ""},
	{"00-inbox/planted-latin1.md", "caf\xe9\n", "NOT_UTF8", ""},
	{"00-inbox/planted.kessho-conflict-20261130T101507Z.md", "other\n", "CONFLICT_COPY", ""},
	{"40-principles/planted-unlisted.md", "---\nslug: planted-unlisted\ndisplay: Planted\n---\nUnlisted.\n", "INDEX_MISSING", ""},
	{"40-principles/planted-unlisted.md", "---\nslug: planted-unlisted\ndisplay: Planted\n---\nUnlisted.\n", "ATOM_ORPHAN", ""},
	{"99-meta/repo-topology/planted-archeo.md", "---\ndisplay: d\nsource: archeo-topology\ncontent_hash: 9f2c\n---\nsrc/\n", "ARCHEO_HASH_MISSING", ""},
	{"10-episodes/projects/planted-dangling/history.md",
		"---\ndisplay: d\n---\n# History — planted-dangling\n\n- [2026-11-20 10h00 — gone](archives/2026-11-20-10h00-planted-dangling-gone.md)\n", "HISTORY_DANGLING", ""},
	{"10-episodes/projects/planted-unlisted/history.md", "---\ndisplay: d\n---\n# History — planted-unlisted\n", "", ""},
	{"10-episodes/projects/planted-unlisted/archives/2026-11-20-10h00-planted-unlisted-x.md", "---\nslug: planted-unlisted\ndisplay: d\n---\nX.\n", "ARCHIVE_NOT_IN_HISTORY", ""},
	{"10-episodes/projects/planted-nohist/archives/2026-11-20-10h00-planted-nohist-x.md", "---\nslug: planted-nohist\ndisplay: d\n---\nX.\n", "HISTORY_MISSING",
		"10-episodes/projects/planted-nohist/history.md"},
	{"10-episodes/projects/planted-twice/context.md", "---\nslug: planted-twice\ndisplay: d\n---\n# planted-twice\n", "SLUG_TWICE", "10-episodes/projects/planted-twice"},
	{"10-episodes/domains/planted-twice/context.md", "---\nslug: planted-twice\ndisplay: d\n---\n# planted-twice\n", "SLUG_TWICE", "10-episodes/domains/planted-twice"},
}

// plant writes checkPlants into the vault dir and returns every finding
// mem_check must report there, sorted ("CODE path"); what it wrote goes
// at the end of the test, so a cached vault stays as generated.
func plant(tb testing.TB, dir string, m genvault.Manifest) []string {
	want := generatedFindings(tb, dir, m)
	for _, p := range checkPlants {
		full := filepath.Join(dir, filepath.FromSlash(p.path))
		top := full
		for d := filepath.Dir(full); d != dir; d = filepath.Dir(d) {
			if _, err := os.Stat(d); err == nil {
				break
			}
			top = d
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(p.text), 0o644); err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { os.RemoveAll(top) })
		switch {
		case p.code != "" && p.at != "":
			want = append(want, p.code+" "+p.at)
		case p.code != "":
			want = append(want, p.code+" "+p.path)
		}
	}
	slices.Sort(want)
	return want
}

// kesshoCheck runs `kessho check --format json` on the vault dir, native
// engine, and returns its exit code and findings, sorted ("CODE path").
func kesshoCheck(tb testing.TB, dir string) (int, []string) {
	tb.Helper()
	var stdout, stderr bytes.Buffer
	code := cli.Run([]string{"--vault", dir, "--engine", "native", "--now", genvault.Now.Format(time.RFC3339), "--tz", "UTC", "check", "--format", "json"}, cli.Env{
		Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
		Getenv: func(string) string { return "" },
		Getwd:  func() (string, error) { return filepath.Dir(dir), nil },
	})
	var res tools.CheckResult
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		tb.Fatalf("kessho check: exit %d, %v: %s %s", code, err, stdout.String(), stderr.String())
	}
	return code, findingKeys(res)
}

// findingKeys is res's findings as "CODE path", sorted.
func findingKeys(res tools.CheckResult) []string {
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Code+" "+f.Path)
	}
	slices.Sort(got)
	return got
}

// generatedFindings is what mem_check reports on a vault the generator
// made in dir, before anything is planted, sorted: its hygiene check
// fails, and, the vault being in the memory-kit's layout (its
// 10-episodes/index.md), what the kit's own health scan reports there:
// each folder's history.md, in the kit's older form with no frontmatter,
// has no display (DISPLAY_MISSING); and the loose notes of 60-people,
// which no project, domain, tag or link attaches (the generator links
// only the atoms of the zones it indexes), are orphans (ATOM_ORPHAN).
func generatedFindings(tb testing.TB, dir string, m genvault.Manifest) []string {
	out := []string{"HYGIENE_FAIL memory/SESSION_LOG.md"}
	for kind, slugs := range map[string][]string{"projects": m.Projects, "domains": m.Domains, "archived": m.Archived} {
		for _, s := range slugs {
			out = append(out, "DISPLAY_MISSING 10-episodes/"+kind+"/"+s+"/history.md")
		}
	}
	people, err := os.ReadDir(filepath.Join(dir, "60-people"))
	if err != nil {
		tb.Fatal(err)
	}
	for _, e := range people {
		if name := e.Name(); strings.HasSuffix(name, ".md") && name != "index.md" {
			out = append(out, "ATOM_ORPHAN 60-people/"+name)
		}
	}
	slices.Sort(out)
	return out
}

// BenchmarkCheck is mem_check on the 50k vault with findings planted (one
// of each code), native engine, the whole call (the host's reads
// included): every planted finding reported, nothing else; then `kessho
// check --format json` on it (untimed) reports the same and exits 1. The
// planted files are removed at the end, so the cached vault stays as
// generated.
//
//	go test ./host/internal/toolbench -run '^$' -bench BenchmarkCheck -benchtime 3x
func BenchmarkCheck(b *testing.B) {
	gv, v := openSize(b, Size{"50k", 50000})
	want := plant(b, gv.Dir, gv.Manifest)
	eng := engine.Native()
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		start, cpu := time.Now(), cputime.Process()
		out, err := call.Run(ctx, v, eng, "mem_check", json.RawMessage(`{}`), opts)
		if err != nil || !out.OK {
			b.Fatalf("mem_check: %v %s", err, out.Answer)
		}
		b.ReportMetric(float64(time.Since(start).Milliseconds()), "ms/check")
		b.ReportMetric(float64((cputime.Process() - cpu).Milliseconds()), "cpu-ms/check")
		var res tools.CheckResult
		if err := json.Unmarshal(out.Result, &res); err != nil {
			b.Fatal(err)
		}
		if got := findingKeys(res); !slices.Equal(got, want) {
			b.Fatalf("%d notes: findings %v; want %v", res.Notes, got[:min(len(got), 20)], want)
		}
	}
	b.StopTimer()
	if code, got := kesshoCheck(b, gv.Dir); code != cli.ExitToolError || !slices.Equal(got, want) {
		b.Fatalf("kessho check: exit %d, findings %v; want 1 and %v", code, got[:min(len(got), 20)], want)
	}
}

// BenchmarkCheckProcess is `kessho check --format json` as a user or a
// CI job runs it (bin/kessho, `make build`): the whole process on the
// 50k vault with findings planted, its collection as a one-shot
// command's (host/cli/gc.go), native engine; it must exit 1 with every
// planted finding and nothing else. It reports the process's wall time.
//
//	go test ./host/internal/toolbench -run '^$' -bench BenchmarkCheckProcess -benchtime 3x
func BenchmarkCheckProcess(b *testing.B) {
	gv, _ := openSize(b, Size{"50k", 50000})
	want := plant(b, gv.Dir, gv.Manifest)
	bin := kesshoBin(b)
	var wall time.Duration
	for b.Loop() {
		cmd := exec.Command(bin, "--vault", gv.Dir, "--engine", "native", "--now", genvault.Now.Format(time.RFC3339), "--tz", "UTC", "check", "--format", "json")
		start := time.Now()
		out, err := cmd.Output()
		wall += time.Since(start)
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != cli.ExitToolError {
			b.Fatalf("kessho check: %v, want exit %d", err, cli.ExitToolError)
		}
		var res tools.CheckResult
		if err := json.Unmarshal(out, &res); err != nil {
			b.Fatal(err)
		}
		if got := findingKeys(res); !slices.Equal(got, want) {
			b.Fatalf("findings %v; want %v", got[:min(len(got), 20)], want)
		}
	}
	b.ReportMetric(float64(wall.Milliseconds())/float64(b.N), "wall-ms")
}

// TestCheckGeneratedVault is BenchmarkCheck's assertion on a 1k vault
// generated in a temporary folder: the generator's vault has only its
// known finding, and every planted finding is reported, nothing else, by
// mem_check and by `kessho check --format json` (exit 1); each mem_check
// in two rounds (the tree, then the answer), projects without history.md
// planted or not.
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
		o, rounds := opts, 0
		o.Round = func(int) { rounds++ }
		out, err := call.Run(context.Background(), v, eng, "mem_check", json.RawMessage(`{}`), o)
		if err != nil || !out.OK {
			t.Fatalf("mem_check: %v %s", err, out.Answer)
		}
		// One round asks for the vault's tree, the next answers: a
		// round more would check every note again.
		if rounds != 2 {
			t.Errorf("mem_check took %d rounds, want 2", rounds)
		}
		var res tools.CheckResult
		if err := json.Unmarshal(out.Result, &res); err != nil {
			t.Fatal(err)
		}
		return findingKeys(res)
	}
	if got, want := check(), generatedFindings(t, gv.Dir, gv.Manifest); !slices.Equal(got, want) {
		t.Fatalf("the generated vault: %d findings %v; want %v", len(got), got[:min(len(got), 10)], want)
	}
	want := plant(t, gv.Dir, gv.Manifest)
	if got := check(); !slices.Equal(got, want) {
		t.Errorf("findings %v; want %v", got, want)
	}
	if code, got := kesshoCheck(t, gv.Dir); code != cli.ExitToolError || !slices.Equal(got, want) {
		t.Errorf("kessho check: exit %d, findings %v; want 1 and %v", code, got, want)
	}
}
