package history

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/util"

	"github.com/kessho/kessho/core/markdown"
)

// checkHistoryLine proves, with goldmark, that subject's history line is
// one list item holding one link whose text is exactly the date, time and
// subject, and whose destination is the archive; and that history.md's
// reader finds it by that destination.
func checkHistoryLine(t *testing.T, subject string) {
	t.Helper()
	const file = "2026-11-30-10h15-alpha-x.md"
	line := Line("2026-11-30", "10h15", subject, file)
	var html bytes.Buffer
	if err := goldmark.New().Convert([]byte(line+"\n"), &html); err != nil {
		t.Fatal(err)
	}
	want := `<ul>` + "\n" + `<li><a href="archives/` + file + `">` +
		string(util.EscapeHTML([]byte("2026-11-30 10h15 — "+subject))) + "</a></li>\n</ul>\n"
	if html.String() != want {
		t.Errorf("subject %q: line %s renders\n%s\nwant\n%s", subject, line, html.String(), want)
	}
	text := "# History\n\n" + line + "\n- [2026-11-20 09h05 — Older](archives/2026-11-20-09h05-alpha-older.md)\n"
	e, ok := Find(text, file)
	if items := markdown.LinkedItems([]byte(text)); !ok || len(items) != 2 || e.Line != line || items[0].Line != line {
		t.Errorf("subject %q: the entry of %s is not found by its target (%v, %+v)", subject, line, ok, e)
	}
	if p := Parse(text); len(p) != 2 || p[0].Subject != strings.TrimSpace(subject) || p[0].Date != "2026-11-30" || p[0].Time != "10:15" {
		t.Errorf("subject %q: line %s parses as %+v", subject, line, p)
	}
}

// Subjects that break a link written as is: each reads back exactly.
func TestHistoryLineHostileSubjects(t *testing.T) {
	for _, s := range []string{
		`a ] b`, `a [ b`, `a \ b`, `ends in a backslash \`, `a](archives/old.md) b`, `![img](pic.png)`,
		`[x](archives/old.md)`, `[[wiki link]]`, `]`, `[`, `\]`, `\\`, `*stars* and _under_`, "`code` span",
		`<b>html</b> & &amp; &#91;`, `<https://example.com>`, `~~strike~~ ==mark== %%hidden%% $x$`,
		`a\[b\]c](x)`, `]]]] [[[[ )(`, `\`, `plain subject, accents été`, `50% of $PATH`, `a  b	tab`,
	} {
		checkHistoryLine(t, s)
	}
}

// Random subjects over an alphabet rich in Markdown punctuation.
func TestHistoryLineRandomSubjects(t *testing.T) {
	alphabet := []rune("ab \\[]()!<>&*_`~=$%#|:;'\"{}^-+.é—\t")
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 3000; i++ {
		n := 1 + r.Intn(24)
		var b strings.Builder
		for j := 0; j < n; j++ {
			b.WriteRune(alphabet[r.Intn(len(alphabet))])
		}
		s := strings.TrimSpace(b.String())
		if s == "" {
			continue
		}
		checkHistoryLine(t, s)
	}
}

// FuzzHistoryLine checks the same for any one-line subject an archive
// accepts (trimmed, no control character).
func FuzzHistoryLine(f *testing.F) {
	for _, s := range []string{`a ] b`, `\`, `[x](y)`, "`x`", `&amp;`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		s = strings.TrimSpace(s)
		if s == "" || !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool {
			return unicode.IsControl(r) && r != '\t' || r == '\u2028' || r == '\u2029' || r == utf8.RuneError
		}) >= 0 {
			return
		}
		checkHistoryLine(t, s)
	})
}

func TestArchiveStamp(t *testing.T) {
	for name, want := range map[string]string{
		"2026-11-30-10h15-alpha-x.md":    "2026-11-30 10:15",
		"2026-11-30-10H15-alpha-x.md":    "2026-11-30 10:15",
		"2026-11-30-10h15-a-x-2.md":      "2026-11-30 10:15",
		"2026-W48-worklog.md":            "2026-11-29 23:59",
		"2026-W53-worklog.md":            "2027-01-03 23:59",
		"2026-W01-worklog.md":            "2026-01-04 23:59",
		"2025-W53-worklog.md":            "",
		"2026-W00-worklog.md":            "",
		"2026-W4x-worklog.md":            "",
		"2026-11-30-10h15.md":            "",
		"2026-11-30-alpha.md":            "",
		"2026-11-30-25h00-alpha.md":      "",
		"2026-02-30-10h15-alpha.md":      "",
		"2026-11-30-10h15-alpha.txt":     "",
		"notes.md":                       "",
		"2026-11-30-10h150-alpha-x.md":   "",
		"2026-11-30-10h15-alpha-x.md.md": "2026-11-30 10:15",
	} {
		got, ok := Stamp(name)
		if got != want || ok != (want != "") {
			t.Errorf("Stamp(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
}

func TestNewestArchives(t *testing.T) {
	got := Newest([]string{"2026-11-30-10h15-a-y.md", "2026-11-30-10h15-a-x.md", "2026-11-29-23h59-a-z.md",
		"zzz.md", "2026-12-01-00h00-dir/", "2026-11-30-10h14-a-w.md"})
	if strings.Join(got, ",") != "2026-11-30-10h15-a-x.md,2026-11-30-10h15-a-y.md" {
		t.Errorf("newestArchives = %q", got)
	}
	if got := Newest([]string{"notes.md", "sub/"}); len(got) != 0 {
		t.Errorf("newestArchives of undated names = %q", got)
	}
	got = Newest([]string{"2026-W47-worklog.md", "2026-W48-worklog.md", "2026-11-29-20h00-worklogs-x.md"})
	if strings.Join(got, ",") != "2026-W48-worklog.md" {
		t.Errorf("newestArchives with worklogs = %q", got)
	}
}

func TestFindByTarget(t *testing.T) {
	hist := "# History\n\n- [W48](archives/2026-W48-worklog.md)\n- [x](<./archives/a%20b.md>)\n"
	for dest, want := range map[string]bool{"2026-W48-worklog.md": true, "a b.md": true, "2026-W47-worklog.md": false} {
		if _, ok := Find(hist, dest); ok != want {
			t.Errorf("Find(%q) found %v", dest, ok)
		}
	}
}

func TestStem(t *testing.T) {
	listing := []string{"2026-11-25-15h00-beta-impl.md", "2026-11-25-15h00-beta-impl-2.MD", "old/"}
	if got := Stem("2026-11-25", "15h00", "beta", "Impl", listing); got != "2026-11-25-15h00-beta-impl-3" {
		t.Errorf("Stem = %q", got)
	}
	if got := Stem("2026-11-25", "15h00", "beta", "", nil); got != "2026-11-25-15h00-beta-session" {
		t.Errorf("Stem of no subject = %q", got)
	}
}

func TestParseEntries(t *testing.T) {
	text := "# History — alpha\n\n" +
		Line("2026-11-30", "10h15", "Décision *été* [x]", "2026-11-30-10h15-alpha-decision.md") + "\n" +
		"- [2026-11-20 09h05 — Lancement](<archives/2026-11-20-09h05-alpha-lancement.md>)\n" +
		"- Not an entry: [elsewhere](notes/x.md)\n" +
		WeekLine("2026-W48", "2026-W48-worklog.md") + "\n" +
		"- [Hand-written note](./archives/notes%20de%20main.md)\n"
	got := Parse(text)
	want := []Entry{
		{Date: "2026-11-30", Time: "10:15", Subject: "Décision *été* [x]", Target: "archives/2026-11-30-10h15-alpha-decision.md"},
		{Date: "2026-11-20", Time: "09:05", Subject: "Lancement", Target: "archives/2026-11-20-09h05-alpha-lancement.md"},
		{Date: "", Time: "", Subject: "Worklog", Week: "2026-W48", Target: "archives/2026-W48-worklog.md"},
		{Subject: "Hand-written note", Target: "archives/notes de main.md"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d entries %+v, want %d", len(got), got, len(want))
	}
	for i := range want {
		g := got[i]
		g.Line = ""
		if g != want[i] {
			t.Errorf("entry %d: got %+v, want %+v", i, g, want[i])
		}
	}
	if got[0].Line != strings.SplitN(text, "\n", 4)[2] {
		t.Errorf("entry 0 line %q", got[0].Line)
	}
}

func TestSections(t *testing.T) {
	body := "Intro.\n\n## Décisions prises\n- Keep it.\n### Why\nBecause.\n## Notes\nx\n## Next steps:\n- Ship.\n## Next\n\n## Prochaines étapes\n- Relire.\n```\n## Decisions\n```\n"
	got := Sections(body)
	want := []Section{
		{sectionDecisions, "Décisions prises", "- Keep it.\n### Why\nBecause."},
		{sectionNext, "Next steps:", "- Ship."},
		{sectionNext, "Prochaines étapes", "- Relire.\n```\n## Decisions\n```"},
	}
	if len(got) != len(want) {
		t.Fatalf("sections %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("section %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	lead := Sections("# Title\n\nFirst para\nline two.\n\n- item\n\n" + strings.Repeat("long ", 100) + "\n\nNot this.\n")
	if len(lead) != 1 || lead[0].Kind != sectionLead || !strings.HasPrefix(lead[0].Text, "First para\nline two.\n\n- item\n\nlong") || strings.Contains(lead[0].Text, "Not this") {
		t.Errorf("lead %+v", lead)
	}
	if s := Sections("  \n"); s != nil {
		t.Errorf("empty body: %+v", s)
	}
}

// TestInsertFollowsTheFileStyle: a new entry goes before the first one,
// separated as the file's entries are (by a blank line in the
// memory-kit's histories, by none in Kessho's), and takes the place of the
// kit's "no sessions yet" line; the file's line ending is kept.
func TestInsertFollowsTheFileStyle(t *testing.T) {
	const kit = "# Webshop — Historique des sessions\n\n"
	// kitInit: the kit's mem_init_project writes a frontmatter and an intro
	// line before the title.
	const kitInit = "---\nproject: webshop\nslug: webshop\ndisplay: Webshop — history\n---\n\n> Fil chronologique des sessions du projet. Voir aussi : [contexte](context.md)\n\n" + kit
	a := "- [2026-11-27 17h30 — a](archives/a.md)\n"
	b := "- [2026-11-25 15h30 — b](archives/b.md)\n"
	n := "- [2026-11-30 10h15 — n](archives/n.md)"
	for _, c := range []struct{ name, text, want string }{
		{"compact", Title("p") + a + b, Title("p") + n + "\n" + a + b},
		{"spaced", "# P\n\n" + a + "\n" + b, "# P\n\n" + n + "\n\n" + a + "\n" + b},
		{"spaced CRLF", strings.ReplaceAll("# P\n\n"+a+"\n"+b, "\n", "\r\n"), strings.ReplaceAll("# P\n\n"+n+"\n\n"+a+"\n"+b, "\n", "\r\n")},
		{"one entry, Kessho's", Title("p") + a, Title("p") + n + "\n" + a},
		{"one entry, the kit's", kit + a, kit + n + "\n\n" + a},
		{"one entry, as the kit's init writes it", kitInit + a, kitInit + n + "\n\n" + a},
		{"one entry, hand-written", "# P\n\n" + a, "# P\n\n" + n + "\n" + a},
		{"placeholder", kit + "_(no sessions yet — mem_archive will prepend new entries here)_\n", kit + n + "\n"},
		{"placeholder, no ending", kit + "_(no sessions yet — mem_archive will prepend new entries here)_", kit + n + "\n"},
		{"placeholder then text", kit + "_(no sessions yet — mem_archive will prepend new entries here)_\n\nNotes.\n", kit + n + "\n\nNotes.\n"},
		{"empty", "", n + "\n"},
		{"title only", Title("p"), Title("p") + n + "\n"},
	} {
		if got := Insert(c.text, n); got != c.want {
			t.Errorf("%s: Insert = %q; want %q", c.name, got, c.want)
		}
	}
}

// TestRemoveUndoesInsert: removing the entry Insert added gives the text
// back, blank-line separated or not.
func TestRemoveUndoesInsert(t *testing.T) {
	a := "- [2026-11-27 17h30 — a](archives/a.md)\n"
	b := "- [2026-11-25 15h30 — b](archives/b.md)\n"
	n := "- [2026-11-30 10h15 — n](archives/n.md)"
	for _, text := range []string{
		Title("p") + a + b,
		"# P\n\n" + a + "\n" + b,
		strings.ReplaceAll("# P\n\n"+a+"\n"+b, "\n", "\r\n"),
		"# W — Historique des sessions\n\n" + a,
		Title("p") + a,
		Title("p"),
	} {
		with := Insert(text, n)
		e, ok := Find(with, "n.md")
		if !ok {
			t.Fatalf("no entry n.md in %q", with)
		}
		if got := Remove(with, e); got != text {
			t.Errorf("Remove(Insert(%q)) = %q", text, got)
		}
	}
}

// TestInsertKitHistoryWithFrontmatter: the kit fixture's histories with
// one entry start with the kit's frontmatter (`---`, its slug), and a new
// entry still gets the kit's blank line (the spacing once read the file's
// first line, `---`, and missed the kit's title).
func TestInsertKitHistoryWithFrontmatter(t *testing.T) {
	a, err := txtar.ParseFile("../../testdata/vaults/kit-conventions.txtar")
	if err != nil {
		t.Fatal(err)
	}
	n := "- [2026-11-30 10h15 — n](archives/n.md)"
	checked := 0
	for _, f := range a.Files {
		text := string(f.Data)
		if !strings.HasSuffix(f.Name, "/history.md") || !strings.HasPrefix(text, "---\n") || len(Entries(text)) != 1 {
			continue
		}
		checked++
		at := Entries(text)[0].Start
		want := text[:at] + n + "\n\n" + text[at:]
		if got := Insert(text, n); got != want {
			t.Errorf("%s: Insert = %q; want %q", f.Name, got, want)
		}
	}
	if checked < 2 {
		t.Fatalf("the kit fixture has %d histories with frontmatter and one entry; want atelier's and carnet's", checked)
	}
}
