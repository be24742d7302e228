package core

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kessho/kessho/core/vault"
)

// lastRequest runs tool on m, answering its needs, and returns the last
// request: the one the core answers without needing more.
func (m memVault) lastRequest(tb testing.TB, tool, args string) []byte {
	tb.Helper()
	req := Request{Tool: tool, Args: json.RawMessage(args), Now: "2026-11-30T10:15:00+01:00", TZ: "Europe/Paris", Lang: "en"}
	for range 8 {
		b, _ := json.Marshal(req)
		var ans struct{ Need *json.RawMessage }
		if err := json.Unmarshal(Handle(b), &ans); err != nil {
			tb.Fatal(err)
		}
		if ans.Need == nil {
			return b
		}
		var n vault.Need
		if err := json.Unmarshal(*ans.Need, &n); err != nil {
			tb.Fatal(err)
		}
		m.answer(n, &req.Snapshot)
	}
	tb.Fatalf("%s %s: still needing after 8 rounds", tool, args)
	return nil
}

// benchWeek is a vault whose week 2026-W48 holds sessions archives, one a
// project, beside four older archives a project (host/engine's weekVault,
// the same shape).
func benchWeek(sessions int) memVault {
	m := memVault{}
	body := strings.Repeat("Worked on the parser, the proration and the cases; reviewed the numbers with Ada. ", 5)
	for p := range sessions {
		slug := fmt.Sprintf("p%03d", p)
		base := "10-episodes/projects/" + slug + "/"
		m[base+"context.md"] = "---\nslug: " + slug + "\nkind: project\nphase: build\n---\n# " + slug + "\n"
		var hist strings.Builder
		for i := range 5 {
			date := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -7*i).Format("2006-01-02")
			name := fmt.Sprintf("%s-10h%02d-%s-session-%d.md", date, p%60, slug, i)
			m[base+"archives/"+name] = fmt.Sprintf("---\nslug: %s\nkind: archive\ndate: %s\ntime: \"10:%02d\"\nsubject: Session %d\n---\n%s\n\n## Next steps\n- Session %d.\n", slug, date, p%60, i, body, i+1)
			fmt.Fprintf(&hist, "- [%s — Session %d](archives/%s)\n", date, i, name)
		}
		m[base+"history.md"] = "# History — " + slug + "\n\n" + hist.String()
	}
	return m
}

// BenchmarkHandle runs core.Core.Handle on the last request of four calls:
// a refused request, a mem_update_phase on a 4.4 KB context note, a full
// mem_archive (archiveRequest) and a worklog collect of a week of 100
// sessions. The same benchmark runs
// natively and compiled to wasip1 (docs/PERFORMANCE.md tells how): their
// ratio is what Go's WebAssembly code costs, without any crossing.
func BenchmarkHandle(b *testing.B) {
	var note strings.Builder
	note.WriteString("---\ntitle: Kessho — documentation\nphase: rédaction\nstatus: active\ntags: [kessho, docs, été]\nupdated: 2026-11-29\n---\n\n# Contexte\n\n")
	for i := 0; note.Len() < 4400; i++ {
		fmt.Fprintf(&note, "- Étape %d : relire le chapitre, vérifier les liens [[note-%d]] et noter les décisions.\n", i, i)
	}
	for _, c := range []struct {
		name string
		req  func() []byte
	}{
		{"refusal", func() []byte { return []byte(`{"tool":"nope","now":"2026-11-30T10:15:00+01:00"}`) }},
		{"update_phase", func() []byte {
			m := memVault{"10-episodes/projects/kessho-docs/context.md": note.String(), "10-episodes/projects/other/context.md": "---\nphase: draft\n---\n"}
			return m.lastRequest(b, "mem_update_phase", `{"slug":"kessho-docs","phase":"relecture"}`)
		}},
		{"archive", func() []byte { return archiveRequest(b) }},
		{"worklog_week_100", func() []byte {
			return benchWeek(100).lastRequest(b, "mem_worklog", `{"week_of":"2026-11-26"}`)
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := c.req()
			if ok := strings.HasPrefix(string(Handle(req)), `{"ok":true`); ok == (c.name == "refusal") {
				b.Fatalf("%s: the answer is %.200s", c.name, Handle(req))
			}
			b.SetBytes(int64(len(req)))
			for b.Loop() {
				Handle(req)
			}
		})
	}
}

// archiveArgs are a full mem_archive's arguments, 12 KB of Markdown.
func archiveArgs() string {
	body := strings.Repeat("We chose plain Markdown & kept the <notes> short; the reader comes next.\n", 110)
	args, _ := json.Marshal(map[string]any{"slug": "alpha", "mode": "full", "archive_subject": "First session",
		"archive_body_md": body, "context_md": "# alpha\n\n" + body[:4000], "archive_aliases": []string{"the first try"},
		"no_derived_because": "nothing durable yet"})
	return string(args)
}

// archiveRequest is the last request of the full mem_archive of
// archiveArgs.
func archiveRequest(b *testing.B) []byte {
	m := memVault{"10-episodes/projects/alpha/context.md": "---\nslug: alpha\nkind: project\nphase: build\n---\n# alpha\n",
		"10-episodes/projects/alpha/history.md": "# History — alpha\n"}
	return m.lastRequest(b, "mem_archive", archiveArgs())
}

// BenchmarkHandleArgs is the first round of the full mem_archive of
// archiveArgs, which the core answers with a need: what a round costs
// besides the tool's work, mostly its arguments. "later" runs it again
// and again on one Core, as a call's later rounds send the same
// arguments to the core that served the first; "first" alternates it
// with a call whose arguments differ by a byte, so that each round is
// the first of a call on that core.
func BenchmarkHandleArgs(b *testing.B) {
	request := func(args string) []byte {
		req, _ := json.Marshal(Request{Tool: "mem_archive", Args: json.RawMessage(args), Now: "2026-11-30T10:15:00+01:00", TZ: "Europe/Paris", Lang: "en"})
		return req
	}
	reqs := [2][]byte{request(archiveArgs()), request(strings.Replace(archiveArgs(), "First session", "First session.", 1))}
	if !strings.HasPrefix(string(New().Handle(reqs[1])), `{"need":`) {
		b.Fatalf("the answer is %.200s", New().Handle(reqs[1]))
	}
	b.Run("first", func(b *testing.B) {
		c := New()
		b.SetBytes(int64(len(reqs[0])))
		for i := 0; b.Loop(); i++ {
			c.Handle(reqs[i%2])
		}
	})
	b.Run("later", func(b *testing.B) {
		c := New()
		b.SetBytes(int64(len(reqs[0])))
		for b.Loop() {
			c.Handle(reqs[0])
		}
	})
}
