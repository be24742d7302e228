package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"kessho/host/call"
	"kessho/host/vaultfs"
)

// worklogBenchVault writes a vault of 50,000 notes: 100 folders (90
// active projects, 6 domains, 4 archived projects), each with context.md,
// history.md and 498 archives, one a week going back about ten years (a
// different weekday for each folder), one of them named without a date.
// It returns how many sessions 2026-W48 holds.
func worklogBenchVault(b *testing.B, dir string) int {
	b.Helper()
	write := func(p, text string) { writeFile(b, dir, p, text) }
	body := strings.Repeat("Worked on the parser, the proration and the cases; reviewed the numbers with Ada. ", 5)
	sunday := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC) // the last day of 2026-W48
	sessions := 0
	for f := 0; f < 100; f++ {
		kind := "projects"
		switch {
		case f >= 96:
			kind = "archived"
		case f >= 90:
			kind = "domains"
		}
		slug := fmt.Sprintf("p%03d", f)
		base := fmt.Sprintf("10-episodes/%s/%s/", kind, slug)
		write(base+"context.md", fmt.Sprintf("---\nslug: %s\nkind: project\nphase: build\n---\n# %s\n\n## Decisions\n- One.\n", slug, slug))
		var hist strings.Builder
		hist.WriteString("# History — " + slug + "\n\n")
		for i := 0; i < 498; i++ {
			day := sunday.AddDate(0, 0, -7*i-f%7)
			date := day.Format("2006-01-02")
			name := fmt.Sprintf("%s-%02dh%02d-%s-session-%d.md", date, 8+f%10, f%60, slug, i)
			if i == 250 {
				name = fmt.Sprintf("notes-%s-%d.md", slug, i) // no date in the name: read for its frontmatter
			}
			if i == 0 {
				sessions++
			}
			write(base+"archives/"+name, fmt.Sprintf("---\nslug: %s\nkind: archive\ndate: %s\ntime: \"%02d:%02d\"\nsubject: Session %d\n---\n%s\n\n## Next steps\n- Session %d.\n",
				slug, date, 8+f%10, f%60, i, body, i+1))
			fmt.Fprintf(&hist, "- [%s — Session %d](archives/%s)\n", date, i, name)
		}
		write(base+"history.md", hist.String())
	}
	return sessions
}

// BenchmarkWorklogCollect50k collects 2026-W48 on a vault of 50,000 notes
// through the whole host call (lock, journal recovery, four rounds: the
// parent folders, the 100 archives/ listings, the content of the week's
// and the undated archives, then the answer), with the native and the
// wasm engine, warm: one call before the timer. Budget: 200 ms a call on
// wasm.
func BenchmarkWorklogCollect50k(b *testing.B) {
	dir := b.TempDir()
	want := worklogBenchVault(b, dir)
	v, err := vaultfs.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	ctx := context.Background()
	opts := call.Options{Now: time.Date(2026, 11, 30, 9, 15, 0, 0, time.UTC), TZ: "Europe/Paris"}
	args := json.RawMessage(`{"week_of":"2026-11-26"}`)
	sessions := fmt.Sprintf(`"sessions":%d,`, want)
	for name, eng := range benchEngines(b) {
		b.Run(name, func(b *testing.B) {
			eng := &timed{Engine: eng}
			callTool := func() {
				out, err := call.Run(ctx, v, eng, "mem_worklog", args, opts)
				if err != nil || !out.OK || out.Plan != nil || !strings.Contains(string(out.Answer), sessions) {
					b.Fatalf("collect: %.300s, %v", out.Answer, err)
				}
			}
			callTool() // warm
			eng.spent = 0
			b.ResetTimer()
			for b.Loop() {
				callTool()
			}
			eng.report(b)
		})
	}
}
