package core

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
)

// worklogVault is a vault with archives over many weeks in active and
// archived projects and domains, some named without a timestamp, and the
// worklogs domain. inWeek lists the archives whose name dates them in
// 2026-W48; undated those whose name holds no date.
func worklogVault() (m memVault, inWeek, undated []string) {
	m = memVault{}
	arch := func(p, date string) string {
		return fmt.Sprintf("---\nkind: archive\ndate: %s\ntime: \"10:00\"\nsubject: s\n---\nBody of %s.\n", date, p)
	}
	places := []string{"10-episodes/projects/a", "10-episodes/projects/b", "10-episodes/archived/c", "10-episodes/domains/d", "10-episodes/domains/worklogs"}
	for i, dir := range places {
		m[dir+"/context.md"] = "---\nkind: project\n---\n"
		m[dir+"/history.md"] = "# History\n"
		for day := 1; day <= 60; day++ { // 2026-10-01 .. 2026-11-29
			date := fmt.Sprintf("2026-10-%02d", day)
			if day > 31 {
				date = fmt.Sprintf("2026-11-%02d", day-31)
			}
			if (day+i)%3 != 0 {
				continue
			}
			p := fmt.Sprintf("%s/archives/%s-09h%02d-x-session.md", dir, date, i)
			m[p] = arch(p, date)
			if date >= "2026-11-23" && date <= "2026-11-29" && !strings.HasSuffix(dir, "/worklogs") {
				inWeek = append(inWeek, p)
			}
		}
		if !strings.HasSuffix(dir, "/worklogs") {
			u := dir + "/archives/notes-without-date.md"
			m[u] = arch(u, "2026-11-24")
			undated = append(undated, u)
			m[dir+"/archives/attachment.png"] = "not a note"
		}
	}
	m["10-episodes/domains/worklogs/archives/2026-W47-worklog.md"] = "---\nweek: 2026-W47\n---\n"
	m["20-knowledge/Something.md"] = "A note elsewhere."
	return m, inWeek, undated
}

func wlSorted(s []string) []string {
	s = slices.Clone(s)
	sort.Strings(s)
	return s
}

// TestWorklogCollectReadsOnlyTheWeek proves collect's reading economy from
// the needs it asks: the parent folders, then each folder's archives/
// listing, then the content of exactly the archives named in the week and
// those named without a date; never another archive, never a tree; no
// plan; four calls in all.
func TestWorklogCollectReadsOnlyTheWeek(t *testing.T) {
	m, inWeek, undated := worklogVault()
	needs, ans := m.run(t, "mem_worklog", `{"week_of":"2026-11-26"}`)
	if ans["ok"] != true {
		t.Fatalf("collect failed: %v", ans)
	}
	if _, ok := ans["plan"]; ok {
		t.Fatalf("collect returned a plan: %v", ans["plan"])
	}
	if len(needs) != 3 {
		t.Fatalf("collect asked %d rounds of needs; want 3 (parents, archives listings, contents): %+v", len(needs), needs)
	}
	for i, n := range needs {
		if len(n.Trees) > 0 {
			t.Errorf("round %d asked for trees %v; collect lists folders one by one", i+1, n.Trees)
		}
	}
	if got, want := wlSorted(needs[0].Dirs), []string{"10-episodes/archived", "10-episodes/domains", "10-episodes/projects"}; !slices.Equal(got, want) || len(needs[0].Files) > 0 {
		t.Errorf("round 1 = %+v; want the three parent folders only", needs[0])
	}
	// Round 2 asks each archives/ folder for the names of the week and the
	// undated ones only, never a whole listing.
	wantDirs := []string{"10-episodes/archived/c/archives", "10-episodes/domains/d/archives", "10-episodes/projects/a/archives", "10-episodes/projects/b/archives"}
	var matched []string
	for _, mt := range needs[1].Matches {
		matched = append(matched, mt.Dir)
	}
	if got := wlSorted(matched); !slices.Equal(got, wantDirs) || len(needs[1].Files)+len(needs[1].Dirs) > 0 {
		t.Errorf("round 2 = %+v; want matches on the archives/ folders %v (not the worklogs domain's) and nothing else", needs[1], wantDirs)
	}
	wantFiles := wlSorted(append(slices.Clone(inWeek), undated...))
	if got := wlSorted(needs[2].Files); !slices.Equal(got, wantFiles) || len(needs[2].Dirs) > 0 {
		t.Errorf("round 3 read %d files:\n%v\nwant exactly the %d in the week or undated:\n%v", len(got), got, len(wantFiles), wantFiles)
	}
	// Every session found is one of the files read, and each in-week
	// archive is a session.
	res := ans["result"].(map[string]any)
	if n := int(res["sessions"].(float64)); n != len(inWeek)+len(undated) {
		t.Errorf("sessions = %v; want %d (%d named in the week, %d dated by frontmatter)", n, len(inWeek)+len(undated), len(inWeek), len(undated))
	}
}

// TestWorklogPersistReads: persist reads what collect reads, plus the
// worklogs domain's three files in the first round; still four calls.
func TestWorklogPersistReads(t *testing.T) {
	m, inWeek, undated := worklogVault()
	needs, ans := m.run(t, "mem_worklog", `{"phase":"persist","week_of":"2026-11-26","brief_md":"b","detailed_md":"d","digest_md":"g"}`)
	if ans["ok"] != true || ans["plan"] == nil {
		t.Fatalf("persist: %v", ans)
	}
	if len(needs) != 3 {
		t.Fatalf("persist asked %d rounds of needs; want 3: %+v", len(needs), needs)
	}
	want := []string{"10-episodes/domains/worklogs/archives/2026-W48-worklog.md", "10-episodes/domains/worklogs/context.md", "10-episodes/domains/worklogs/history.md"}
	if got := wlSorted(needs[0].Files); !slices.Equal(got, want) {
		t.Errorf("round 1 files = %v; want %v", got, want)
	}
	wantFiles := wlSorted(append(slices.Clone(inWeek), undated...))
	if got := wlSorted(needs[2].Files); !slices.Equal(got, wantFiles) {
		t.Errorf("round 3 read %v; want %v", got, wantFiles)
	}
	var paths []string
	for _, op := range ans["plan"].([]any) {
		paths = append(paths, op.(map[string]any)["path"].(string))
	}
	if !slices.Equal(paths, []string{want[0], want[2]}) {
		t.Errorf("plan writes %v; want the note then history.md", paths)
	}
}

// TestRewriteRounds: the rewrite reads everything in three rounds, and a
// dry run returns no plan.
func TestRewriteRounds(t *testing.T) {
	m := memVault{
		"10-episodes/projects/a/context.md":                     "---\nrepo_path: /src/a\n---\nSee /src/a/x.\n",
		"10-episodes/projects/a/history.md":                     "# History\n",
		"10-episodes/projects/a/archives/2026-11-23-09h00-a.md": "---\nk: /src/a/fm\n---\n/src/a/y and /src/ab\n",
	}
	needs, ans := m.run(t, "mem_archive_rewrite_paths", `{"slug":"a"}`)
	if ans["ok"] != true || ans["plan"] != nil {
		t.Fatalf("dry run: %v", ans)
	}
	if len(needs) != 3 {
		t.Errorf("dry run asked %d rounds of needs; want 3: %+v", len(needs), needs)
	}
	res := ans["result"].(map[string]any)
	if res["paths_rewritten"].(float64) != 2 || res["files_changed"].(float64) != 2 {
		t.Errorf("dry run result %v", res)
	}
	_, ans = m.run(t, "mem_archive_rewrite_paths", `{"slug":"a","confirm":true}`)
	p, _ := ans["plan"].([]any)
	if ans["ok"] != true || len(p) != 3 {
		t.Fatalf("confirm: %v", ans)
	}
	if text := p[1].(map[string]any)["text"].(string); text != "---\nk: /src/a/fm\n---\n<repo>/y and /src/ab\n" {
		t.Errorf("archive rewritten as %q", text)
	}
}
