package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"kessho/host/call"
	"kessho/host/engine"
	"kessho/host/vaultfs"
)

// timed wraps an engine to measure the time spent in it, so that a
// benchmark can report the engine's share of a call apart from the host's
// (disk reads, fsyncs).
type timed struct {
	call.Engine
	spent time.Duration
}

func (t *timed) Call(ctx context.Context, req []byte) ([]byte, error) {
	start := time.Now()
	defer func() { t.spent += time.Since(start) }()
	return t.Engine.Call(ctx, req)
}

// report adds the engine's share per op to b's results.
func (t *timed) report(b *testing.B) {
	b.ReportMetric(float64(t.spent.Microseconds())/1000/float64(b.N), "engine-ms/op")
}

// benchEngines returns the native engine and a warm wasm engine.
func benchEngines(b *testing.B) map[string]call.Engine {
	w, err := engine.NewWasm(context.Background(), engine.WasmOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { w.Close(context.Background()) })
	return map[string]call.Engine{"native": engine.Native(), "wasm": w}
}

func writeFile(b *testing.B, dir, rel, text string) {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
}

const benchContext = `---
# kessho-docs — edited by hand and by agents
slug: kessho-docs
kind: project
phase: 'draft'   # draft → review → published
summary: "Writing the user guide; the install chapter is done."
tags: [project, docs, "writing"]
aliases:
  - user guide
last-session: 2026-11-27T17:40:00+01:00
repo_path: /home/ada/src/kessho
---
# Kessho docs — context

## Where we are
The install chapter is done and reviewed. The CLI chapter is half written.

## Decisions
- Use the vault layout of memory-kit as it is: no migration step.
`

// BenchmarkUpdatePhase is one whole mem_update_phase call through the host:
// lock, needs answered from disk, core, plan applied with fsync.
func BenchmarkUpdatePhase(b *testing.B) {
	for name, eng := range benchEngines(b) {
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			writeFile(b, dir, "10-episodes/projects/kessho-docs/context.md", benchContext)
			v, err := vaultfs.Open(dir)
			if err != nil {
				b.Fatal(err)
			}
			defer v.Close()
			opts := call.Options{Now: time.Date(2026, 11, 30, 9, 15, 0, 0, time.UTC), TZ: "Europe/Paris"}
			eng := &timed{Engine: eng}
			defer eng.report(b)
			for i := 0; b.Loop(); i++ {
				args := fmt.Sprintf(`{"slug":"kessho-docs","phase":"p%d"}`, i)
				out, err := call.Run(context.Background(), v, eng, "mem_update_phase", json.RawMessage(args), opts)
				if err != nil || !out.OK {
					b.Fatalf("%s: %v", out.Answer, err)
				}
			}
		})
	}
}

// BenchmarkCore is the core alone on a mem_update_phase request that holds
// everything it needs (no disk, no host): the engines' own cost.
func BenchmarkCore(b *testing.B) {
	text := benchContext
	req, _ := json.Marshal(map[string]any{
		"tool": "mem_update_phase", "args": map[string]string{"slug": "kessho-docs", "phase": "review"},
		"now": "2026-11-30T10:15:00+01:00", "tz": "Europe/Paris",
		"files": map[string]any{
			"10-episodes/projects/kessho-docs/context.md": map[string]any{"sha256": "00", "text": text},
		},
		"missing": []string{"10-episodes/domains", "10-episodes/archived"},
		"dirs":    map[string][]string{"10-episodes/projects": {"kessho-docs/"}},
	})
	for name, eng := range benchEngines(b) {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := eng.Call(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCLI is the whole process, `kessho phase …`, with a warm
// compilation cache: what an agent or a script pays per call.
func BenchmarkCLI(b *testing.B) {
	bin, err := filepath.Abs("../../bin/kessho")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		b.Fatalf("%s: %v (run make build first)", bin, err)
	}
	dir := b.TempDir()
	writeFile(b, dir, "10-episodes/projects/kessho-docs/context.md", benchContext)
	cache := b.TempDir()
	for _, eng := range []string{"wasm", "native"} {
		b.Run(eng, func(b *testing.B) {
			run := func(i int) {
				cmd := exec.Command(bin, "--vault", dir, "--engine", eng, "phase", "kessho-docs", fmt.Sprintf("p%d", i))
				cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%s: %v", out, err)
				}
			}
			run(-1) // fills the compilation cache
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				run(i)
			}
		})
	}
}

// BenchmarkArchive5k is a full mem_archive with a derived atom on a
// generated vault of 5,000 notes (the atom's name is checked against every
// note, so the whole tree is listed).
func BenchmarkArchive5k(b *testing.B) {
	dir := b.TempDir()
	for p := 0; p < 50; p++ {
		slug := fmt.Sprintf("project-%02d", p)
		writeFile(b, dir, "10-episodes/projects/"+slug+"/context.md", benchContext)
		hist := "# History\n\n"
		for a := 0; a < 60; a++ {
			name := fmt.Sprintf("2026-%02d-%02d-10h%02d-%s-session-%d.md", 1+a%11, 1+a%28, a%60, slug, a)
			writeFile(b, dir, "10-episodes/projects/"+slug+"/archives/"+name, "---\nkind: archive\n---\nWork.\n")
			hist += fmt.Sprintf("- [s %d](archives/%s)\n", a, name)
		}
		writeFile(b, dir, "10-episodes/projects/"+slug+"/history.md", hist)
	}
	for i := 0; i < 1950; i++ {
		zone := []string{"20-knowledge", "40-principles", "50-goals", "00-inbox"}[i%4]
		writeFile(b, dir, fmt.Sprintf("%s/sub-%d/note %d.md", zone, i%20, i), "---\nkind: knowledge\n---\nA fact.\n")
	}
	for name, eng := range benchEngines(b) {
		b.Run(name, func(b *testing.B) {
			v, err := vaultfs.Open(dir)
			if err != nil {
				b.Fatal(err)
			}
			defer v.Close()
			now := time.Date(2026, 11, 30, 9, 15, 0, 0, time.UTC)
			eng := &timed{Engine: eng}
			defer eng.report(b)
			opts := call.Options{Now: now, TZ: "Europe/Paris"}
			for b.Loop() {
				args := `{"slug":"project-07","mode":"full","archive_subject":"Bench","archive_body_md":"Did things in /home/ada/src/kessho/core.\n","derive":[{"fact":"Bench fact","body":"Why.","kind":"knowledge"}]}`
				out, err := call.Run(context.Background(), v, eng, "mem_archive", json.RawMessage(args), opts)
				if err != nil || !out.OK {
					b.Fatalf("%s: %v", out.Answer, err)
				}
				// Undo it outside the timer, so every call meets the same
				// 5,000-note vault: the rollback drops the archive and its
				// history line (context.md only gains a last-session).
				b.StopTimer()
				spent := eng.spent
				if out, err := call.Run(context.Background(), v, eng.Engine, "mem_rollback_archive", json.RawMessage(`{"slug":"project-07"}`), opts); err != nil || !out.OK {
					b.Fatalf("rollback: %s: %v", out.Answer, err)
				}
				if err := os.Remove(filepath.Join(dir, "20-knowledge", "Bench fact.md")); err != nil {
					b.Fatal(err)
				}
				eng.spent = spent
				b.StartTimer()
			}
		})
	}
}
