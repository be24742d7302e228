package conformance

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/kessho/kessho/host/call"
)

// TestWorklogAndRewriteRoundTrip runs mem_worklog and
// mem_archive_rewrite_paths on the memory-kit vault through the host, with
// both engines: collect writes nothing and returns no plan; a session
// archived with mem_archive shows up in the next collect with its next
// steps; persist creates the worklogs domain and the note, a second persist
// with the same texts writes nothing, a third with other texts replaces the
// note and adds no second history line; the rewrite's dry run writes
// nothing, its confirm rewrites the archive body and logs it, and a second
// confirm finds nothing left. No other file changes.
func TestWorklogAndRewriteRoundTrip(t *testing.T) {
	for name, eng := range engines(t) {
		t.Run(name, func(t *testing.T) {
			dir := memoryKit(t)
			v := openVault(t, dir)
			now := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC) // 10:00 in Paris, Monday of 2026-W49
			callTool := func(tool, args string) (map[string]any, call.Outcome) {
				t.Helper()
				out, err := call.Run(context.Background(), v, eng, tool, json.RawMessage(args),
					call.Options{Now: now, TZ: "Europe/Paris", Lang: "en"})
				if err != nil {
					t.Fatal(err)
				}
				var ans map[string]any
				if err := json.Unmarshal(out.Answer, &ans); err != nil {
					t.Fatal(err)
				}
				if ans["ok"] != true {
					t.Fatalf("%s %s: %s", tool, args, out.Answer)
				}
				now = now.Add(time.Minute)
				return ans["result"].(map[string]any), out
			}
			tree := func() map[string][]byte {
				t.Helper()
				got, err := ReadTree(dir)
				if err != nil {
					t.Fatal(err)
				}
				return got
			}
			before := tree()

			// Collect is read-only.
			r, out := callTool("mem_worklog", `{"week_of":"2026-11-26"}`)
			if out.Plan != nil || diffTrees(tree(), before) != "" {
				t.Fatalf("collect wrote: plan %v, diff %s", out.Plan, diffTrees(tree(), before))
			}
			thursday := r["days"].([]any)[3].(map[string]any)
			s := thursday["sessions"].([]any)[0].(map[string]any)
			if r["week"] != "2026-W48" || thursday["hours"] != 7.0 || s["project"] != "site-perso" || s["time"] != "18:20" ||
				s["next_steps"] != "- Articles 13 à 25." || s["subject"] != "Migration des articles" {
				t.Errorf("collect 2026-W48: %v", r)
			}

			// A session archived now is in this week's collect.
			callTool("mem_archive", `{"slug":"site-perso","mode":"full","archive_subject":"Chaudière","archive_body_md":"Réglé la chaudière.\n\n## Next steps\n- Purger les radiateurs.\n","no_derived_because":"routine"}`)
			r, _ = callTool("mem_worklog", `{}`)
			monday := r["days"].([]any)[0].(map[string]any)
			if r["week"] != "2026-W49" || r["sessions"] != 1.0 || monday["hours_by_project"].(map[string]any)["site-perso"] != 7.0 ||
				monday["sessions"].([]any)[0].(map[string]any)["next_steps"] != "- Purger les radiateurs." {
				t.Errorf("collect 2026-W49 after an archive: %v", r)
			}
			afterArchive := tree()

			// Persist, persist again (nothing), persist other texts (replace).
			texts := `"brief_md":"Migration des articles.","digest_md":"- site-perso : 12 articles.","detailed_md":"Jeudi : migration."`
			r, out = callTool("mem_worklog", `{"phase":"persist","week_of":"2026-11-26",`+texts+`}`)
			note := "10-episodes/domains/worklogs/archives/2026-W48-worklog.md"
			if r["status"] != "created" || r["domain_created"] != true || r["note"] != note || len(out.Plan) != 3 {
				t.Errorf("first persist: %v, plan %v", r, out.Plan)
			}
			first := tree()
			if !strings.Contains(string(first[note]), "hours_by_project:\n  site-perso: 7\n") ||
				!strings.Contains(string(first[note]), "```mermaid\npie title Hours by project\n    \"site-perso\" : 7\n```\n") {
				t.Errorf("note:\n%s", first[note])
			}
			r, out = callTool("mem_worklog", `{"phase":"persist","week_of":"2026-11-26",`+texts+`}`)
			if r["status"] != "unchanged" || r["history_line_added"] != false || out.Plan != nil || diffTrees(tree(), first) != "" {
				t.Errorf("second persist: %v, plan %v", r, out.Plan)
			}
			r, out = callTool("mem_worklog", `{"phase":"persist","week_of":"2026-11-29","brief_md":"Autre résumé.","digest_md":"d","detailed_md":"x"}`)
			third := tree()
			hist := string(third["10-episodes/domains/worklogs/history.md"])
			if r["status"] != "replaced" || r["history_line_added"] != false || len(out.Plan) != 1 ||
				strings.Count(hist, "2026-W48-worklog.md") != 1 || !strings.Contains(string(third[note]), "Autre résumé.") {
				t.Errorf("third persist: %v, plan %v, history:\n%s", r, out.Plan, hist)
			}
			r, _ = callTool("mem_worklog", `{"week_of":"2026-11-26"}`)
			if r["sessions"] != 1.0 {
				t.Errorf("the worklog itself was counted as a session: %v", r)
			}

			// Rewrite: dry run, confirm, nothing left.
			arch := "10-episodes/projects/site-perso/archives/2026-11-26-18h20-site-perso-migration-des-articles.md"
			r, out = callTool("mem_archive_rewrite_paths", `{"slug":"site-perso"}`)
			if out.Plan != nil || r["paths_rewritten"] != 1.0 || diffTrees(tree(), third) != "" {
				t.Errorf("dry run: %v, plan %v", r, out.Plan)
			}
			r, out = callTool("mem_archive_rewrite_paths", `{"slug":"site-perso","confirm":true}`)
			rewritten := tree()
			if r["applied"] != true || len(out.Plan) != 2 ||
				!strings.Contains(string(rewritten[arch]), "depuis <repo>/content/old/.") ||
				!strings.HasPrefix(string(rewritten["99-meta/migrations/relocations.md"]), "# Path relocations\n") {
				t.Errorf("confirm: %v, plan %v\n%s", r, out.Plan, rewritten[arch])
			}
			if got, want := string(rewritten[arch]), strings.Replace(string(before[arch]), "/Users/ada/dev/site-perso/", "<repo>/", 1); got != want {
				t.Errorf("archive after the rewrite:\n%s\nwant:\n%s", got, want)
			}
			r, out = callTool("mem_archive_rewrite_paths", `{"slug":"site-perso","confirm":true}`)
			if out.Plan != nil || r["paths_rewritten"] != 0.0 || diffTrees(tree(), rewritten) != "" {
				t.Errorf("second confirm: %v, plan %v", r, out.Plan)
			}

			// Nothing else changed since the archive.
			for p, data := range afterArchive {
				if p == arch {
					continue
				}
				if string(rewritten[p]) != string(data) {
					t.Errorf("%s changed though no call should touch it", p)
				}
			}
		})
	}
}
