package conformance

import (
	"bytes"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/kessho/kessho/core/frontmatter"
)

// TestKitCasesUseTheFixture holds every case named kit-*.txtar to the
// fixture vault testdata/vaults/kit-conventions.txtar: its vault/ files
// are the fixture's, byte for byte, no more and no fewer. The cases carry
// a copy (so that every host's case loader reads them as any other case);
// this test keeps the copies from drifting.
func TestKitCasesUseTheFixture(t *testing.T) {
	a, err := txtar.ParseFile("../../../testdata/vaults/kit-conventions.txtar")
	if err != nil {
		t.Fatal(err)
	}
	fixture := map[string][]byte{}
	for _, f := range a.Files {
		fixture[f.Name] = f.Data
	}
	cases, err := Load("../../../testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		if !strings.HasPrefix(c.Name, "kit-") {
			continue
		}
		n++
		for p, d := range fixture {
			if got, ok := c.Vault[p]; !ok || !bytes.Equal(got, d) {
				t.Errorf("%s: vault/%s is not the fixture's", c.Name, p)
			}
		}
		for p := range c.Vault {
			if _, ok := fixture[p]; !ok {
				t.Errorf("%s: vault/%s is not in the fixture", c.Name, p)
			}
		}
	}
	if n == 0 {
		t.Error("no kit-*.txtar case")
	}
}

// TestKitVaultSession: Kessho keeps a vault in the memory-kit's
// conventions in them. On the fixture vault, a session of Kessho calls
// (init, archives full with derive, update phase, set summary, worklog
// persist, historize, revive) leaves one last-session form per file (the
// one the file had), one worklog note per week, and every archive tagged
// by its project; and histories whose entries are separated by
// blank lines (the kit's style) still are, the atoms in zones with the
// kit's index.md carry the kit's created_at and context_origin, and the
// worklogs context names the last week persisted, and no older one.
func TestKitVaultSession(t *testing.T) {
	for name, eng := range engines(t) {
		t.Run(name, func(t *testing.T) {
			dir := fixtureVault(t, "kit-conventions")
			v := openVault(t, dir)
			before, err := ReadTree(dir)
			if err != nil {
				t.Fatal(err)
			}
			s := &session{t: t, v: v, eng: eng, now: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}
			s.call("mem_init_project", `{"slug":"potager","scope":"personal","display":"potager — context"}`)
			s.call("mem_archive", `{"slug":"potager","mode":"full","context_md":"# Potager\n","archive_subject":"semis","archive_body_md":"Semis faits.","derive":[{"fact":"Semer après les saints de glace","body":"Pas avant la mi-mai.","kind":"principle"}]}`)
			s.call("mem_archive", `{"slug":"webshop","mode":"full","archive_subject":"release 1.5","archive_body_md":"Publiée.","derive":[{"fact":"CDN purge after release","body":"Purge the CDN after each release.","kind":"knowledge"}]}`)
			s.call("mem_archive", `{"slug":"atelier","mode":"full","archive_subject":"montage","archive_body_md":"Monté.","no_derived_because":"travail manuel"}`)
			s.call("mem_archive", `{"slug":"infra","mode":"full","archive_subject":"sauvegardes","archive_body_md":"Testées.","no_derived_because":"routine"}`)
			s.call("mem_archive", `{"slug":"infra","mode":"incremental","phase":"run"}`)
			s.call("mem_update_phase", `{"slug":"atelier","phase":"build"}`)
			s.call("mem_set_summary", `{"slug":"webshop","summary":"La boutique en ligne."}`)
			s.call("mem_worklog", `{"phase":"persist","week_of":"2026-11-25","brief_md":"b","detailed_md":"d","digest_md":"g"}`)
			s.call("mem_worklog", `{"phase":"persist","brief_md":"b","detailed_md":"d","digest_md":"g"}`)
			s.call("mem_historize", `{"slug":"webshop"}`)
			s.call("mem_historize", `{"slug":"webshop","revive":true}`)
			after, err := ReadTree(dir)
			if err != nil {
				t.Fatal(err)
			}
			checkLastSessionForms(t, before, after)
			checkOneWorklogPerWeek(t, after)
			checkArchivesTagged(t, after)
			checkHistoriesSpaced(t, before, after)
			checkKitAtomKeys(t, before, after)
			checkWorklogsContext(t, string(after["10-episodes/domains/worklogs/context.md"]))
		})
	}
}

// checkWorklogsContext: the worklogs context names the last week
// persisted, 2026-S49, in its heading, its phase and the week's line, and
// no older week anywhere (the kit rewrites all of them).
func checkWorklogsContext(t *testing.T, ctx string) {
	t.Helper()
	for _, want := range []string{"## Dernier relevé : 2026-S49\n", "phase: dernier relevé 2026-S49\n", "- Semaine : 2026-11-30 → 2026-12-06\n", "last-session: '2026-11-30'\n"} {
		if !strings.Contains(ctx, want) {
			t.Errorf("the worklogs context has no line %q:\n%s", want, ctx)
		}
	}
	for _, old := range []string{"S47", "S48", "2026-11-16", "2026-11-23"} {
		if strings.Contains(ctx, old) {
			t.Errorf("the worklogs context still names %s:\n%s", old, ctx)
		}
	}
}

// lastSessionForm is how a file writes last-session: "date" or
// "datetime", with its quote ("'", "\"" or none); "" when absent.
func lastSessionForm(text string) []string {
	var forms []string
	for _, l := range strings.Split(text, "\n") {
		v, ok := strings.CutPrefix(l, "last-session:")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		q := ""
		if v != "" && (v[0] == '\'' || v[0] == '"') {
			q, v = v[:1], strings.Trim(v, `'"`)
		}
		kind := "datetime"
		if _, err := time.Parse("2006-01-02", v); err == nil {
			kind = "date"
		} else if _, err := time.Parse(time.RFC3339, v); err != nil {
			kind = "other:" + v
		}
		forms = append(forms, q+kind+q)
	}
	return forms
}

func checkLastSessionForms(t *testing.T, before, after map[string][]byte) {
	t.Helper()
	for p, data := range after {
		forms := lastSessionForm(string(data))
		if len(forms) > 1 {
			t.Errorf("%s holds last-session %d times: %v", p, len(forms), forms)
		}
		if len(forms) == 1 && strings.HasPrefix(forms[0], "other") {
			t.Errorf("%s: last-session in no known form: %s", p, forms[0])
		}
		if old := lastSessionForm(string(before[p])); len(old) == 1 && len(forms) == 1 && old[0] != forms[0] {
			t.Errorf("%s: last-session went from the form %s to %s", p, old[0], forms[0])
		}
	}
}

func checkOneWorklogPerWeek(t *testing.T, after map[string][]byte) {
	t.Helper()
	var notes []string
	for p := range after {
		if rest, ok := strings.CutPrefix(p, "10-episodes/domains/worklogs/archives/"); ok {
			notes = append(notes, rest)
		}
	}
	sort.Strings(notes)
	want := []string{"2026-11-16-worklog-S47.md", "2026-11-23-worklog-S48.md", "2026-11-30-worklog-S49.md"}
	if !slices.Equal(notes, want) {
		t.Errorf("worklog notes %v; want one a week, named as the kit's: %v", notes, want)
	}
}

func checkArchivesTagged(t *testing.T, after map[string][]byte) {
	t.Helper()
	n := 0
	for p, data := range after {
		parts := strings.Split(p, "/")
		if len(parts) != 5 || parts[0] != "10-episodes" || parts[3] != "archives" || parts[2] == "worklogs" || !strings.HasSuffix(p, ".md") {
			continue
		}
		n++
		kind := map[string]string{"projects": "project", "archived": "project", "domains": "domain"}[parts[1]]
		doc, err := frontmatter.Parse(string(data))
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		tags, _ := doc.Strings("tags")
		key, _ := doc.String(kind)
		if !slices.Contains(tags, kind+"/"+parts[2]) || key != parts[2] {
			t.Errorf("%s: tags %v, %s %q; want the tag %s/%s and the key", p, tags, kind, key, kind, parts[2])
		}
	}
	if n < 8 {
		t.Errorf("%d archives checked; want the fixture's 4 and the session's 4", n)
	}
}

// checkHistoriesSpaced: a history.md whose entries were separated by
// blank lines (or that held one entry or the kit's placeholder, under the
// kit's title) has every entry so separated after the session.
func checkHistoriesSpaced(t *testing.T, before, after map[string][]byte) {
	t.Helper()
	n := 0
	for p, data := range after {
		old, ok := before[p]
		if !strings.HasSuffix(p, "/history.md") || !ok || !strings.Contains(string(old), "— Historique des sessions") || bytes.Equal(old, data) {
			continue
		}
		n++
		text := string(data)
		if strings.Contains(text, "_(no sessions yet") {
			t.Errorf("%s still holds the placeholder line:\n%s", p, text)
		}
		lines := strings.Split(text, "\n")
		for i := 1; i < len(lines); i++ {
			if strings.HasPrefix(lines[i], "- [") && strings.HasPrefix(lines[i-1], "- [") {
				t.Errorf("%s: entries with no blank line between them:\n%s", p, text)
				break
			}
		}
	}
	if n != 4 {
		t.Errorf("%d kit histories written; want webshop's, atelier's, infra's and worklogs'", n)
	}
}

// checkKitAtomKeys: each atom the session created in a zone with the
// kit's index.md has created_at and context_origin (not created and
// source), and the index links it.
func checkKitAtomKeys(t *testing.T, before, after map[string][]byte) {
	t.Helper()
	n := 0
	for p, data := range after {
		zone, name, ok := strings.Cut(p, "/")
		if _, old := before[p]; old || !ok || strings.Contains(name, "/") || name == "index.md" {
			continue
		}
		index, ok := after[zone+"/index.md"]
		if !ok || (zone != "20-knowledge" && zone != "40-principles") {
			continue
		}
		n++
		doc, err := frontmatter.Parse(string(data))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		_, at := doc.Lookup("created_at")
		_, origin := doc.Lookup("context_origin")
		_, created := doc.Lookup("created")
		_, source := doc.Lookup("source")
		if !at || !origin || created || source {
			t.Errorf("%s: keys %v; want created_at and context_origin, not created and source", p, doc.Keys())
		}
		if !strings.Contains(string(index), "[["+strings.TrimSuffix(name, ".md")+"]]") {
			t.Errorf("%s/index.md does not link %s", zone, name)
		}
	}
	if n != 2 {
		t.Errorf("%d new atoms in the kit's zones; want the session's 2", n)
	}
}
