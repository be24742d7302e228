package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kessho/kessho/host/internal/cputime"
)

// weekVault is a vault whose week 2026-W48 holds sessions archives, one
// per project, each with the usual one-key-a-line frontmatter, beside
// older archives the worklog lists but does not read.
func weekVault(sessions int) testVault {
	v := testVault{}
	body := strings.Repeat("Worked on the parser, the proration and the cases; reviewed the numbers with Ada. ", 5)
	for p := 0; p < sessions; p++ {
		slug := fmt.Sprintf("p%03d", p)
		base := "10-episodes/projects/" + slug + "/"
		v[base+"context.md"] = "---\nslug: " + slug + "\nkind: project\nphase: build\n---\n# " + slug + "\n"
		var hist strings.Builder
		for i := 0; i < 5; i++ {
			date := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -7*i).Format("2006-01-02")
			name := fmt.Sprintf("%s-10h%02d-%s-session-%d.md", date, p%60, slug, i)
			v[base+"archives/"+name] = fmt.Sprintf("---\nslug: %s\nkind: archive\ndate: %s\ntime: \"10:%02d\"\nsubject: Session %d\n---\n%s\n\n## Next steps\n- Session %d.\n", slug, date, p%60, i, body, i+1)
			fmt.Fprintf(&hist, "- [%s — Session %d](archives/%s)\n", date, i, name)
		}
		v[base+"history.md"] = "# History — " + slug + "\n\n" + hist.String()
	}
	return v
}

// weekRequest is the last request of a mem_worklog collect of weekVault(100):
// every file it reads, as one crossing carries them.
var weekRequest = sync.OnceValue(func() []byte {
	b, _, err := weekVault(100).resolve(map[string]any{"tool": "mem_worklog", "args": map[string]any{"week_of": "2026-11-26"},
		"now": "2026-11-30T10:15:00+01:00", "tz": "Europe/Paris", "lang": "en"})
	if err != nil {
		panic(err)
	}
	return b
})

// BenchmarkCrossing runs the same request on a warm wasm engine and on the
// native one, alternately, and reports each engine's CPU time (processCPU)
// and their ratio:
// a crossing with nothing to do (a refused request), the last round of a
// mem_update_phase, and the last round of a worklog collect of a week of
// 100 sessions (its per-session cost too). Alternating, and counting CPU
// rather than wall time, keeps the ratio honest on a machine shared with
// other work.
func BenchmarkCrossing(b *testing.B) {
	for _, c := range []struct {
		name     string
		req      func() []byte
		sessions int
	}{
		{"refusal", func() []byte { return []byte(`{"tool":"nope","now":"2026-11-30T10:15:00+01:00"}`) }, 0},
		{"update_phase", benchRequest, 0},
		{"worklog_week_100", weekRequest, 100},
	} {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			w := testWasm(b, WasmOptions{PoolSize: 1})
			req := c.req()
			native := Native()
			if _, err := w.Call(ctx, req); err != nil { // warm up
				b.Fatal(err)
			}
			var onWasm, onNative time.Duration
			for b.Loop() {
				start := cputime.Process()
				if _, err := w.Call(ctx, req); err != nil {
					b.Fatal(err)
				}
				mid := cputime.Process()
				native.Call(ctx, req)
				onWasm += mid - start
				onNative += cputime.Process() - mid
			}
			n := float64(b.N)
			b.ReportMetric(float64(onWasm.Microseconds())/1000/n, "wasm-cpu-ms/op")
			b.ReportMetric(float64(onNative.Microseconds())/1000/n, "native-cpu-ms/op")
			b.ReportMetric(float64(onWasm)/float64(onNative), "wasm/native")
			if c.sessions > 0 {
				b.ReportMetric(float64(onWasm.Microseconds())/1000/n/float64(c.sessions), "wasm-cpu-ms/session")
			}
			b.ReportMetric(float64(len(req)), "request-bytes")
		})
	}
}
