package worklog

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kessho/kessho/core/frontmatter"
	"github.com/kessho/kessho/core/markdown"
)

func TestNextSteps(t *testing.T) {
	for _, h := range []string{"## Next steps", "## NEXT STEPS", "### Next step", "## Next action", "## Next actions", "## Next action(s)",
		"## TODO", "#### todo", "## To do", "## Reste à faire", "## reste a faire :", "## Prochaines étapes", "## PROCHAINES ÉTAPES",
		"## Prochaine étape", "Next steps\n----------", "## Next steps:", "## 👉 Next steps"} {
		body := "Intro.\n\n" + h + "\n\n- one\n- two\n\n## Other\n\nnot in it\n"
		got := nextSteps(body, markdown.Headings([]byte(body)))
		if got == nil || *got != "- one\n- two" {
			t.Errorf("%q: next steps %v", h, got)
		}
	}
	for _, body := range []string{"## Next\n\n- x\n", "## Steps\n\n- x\n", "## Next steps reviewed\n\n- x\n", "Next steps: none\n", "## Next steps\n\n## Other\n- x\n",
		"```\n## Next steps\n- x\n```\n"} {
		if got := nextSteps(body, markdown.Headings([]byte(body))); got != nil {
			t.Errorf("%q: next steps %q, want none", body, *got)
		}
	}
	// A deeper heading inside the section belongs to it.
	body := "## Next steps\n- a\n### Later\n- b\n## Notes\n- c\n"
	if got := nextSteps(body, markdown.Headings([]byte(body))); got == nil || *got != "- a\n### Later\n- b" {
		t.Errorf("nested: %v", got)
	}
}

func TestExcerpt(t *testing.T) {
	body := "# Title\n\nFirst   line.\nSecond line.\n\nSetext\n======\n\n- item\n"
	if got := excerpt(body, markdown.Headings([]byte(body)), 200); got != "First line. Second line. - item" {
		t.Errorf("excerpt = %q", got)
	}
	long := strings.Repeat("mot éèà ", 60)
	got := excerpt(long, nil, 200)
	if n := utf8.RuneCountInString(got); n > 201 || n < 150 || !strings.HasSuffix(got, "…") || strings.Contains(got, " …") {
		t.Errorf("excerpt of a long text (%d runes) = %q", n, got)
	}
	if got := excerpt(strings.Repeat("x", 300), nil, 200); got != strings.Repeat("x", 200)+"…" {
		t.Errorf("excerpt of one long word = %q", got)
	}
	if got := excerpt("", nil, 200); got != "" {
		t.Errorf("excerpt of nothing = %q", got)
	}
}

func TestFrontmatterTime(t *testing.T) {
	for in, want := range map[string]string{`"10:15"`: "10:15", `9:05`: "09:05", `"09:05:30"`: "09:05", `'14h30'`: "14:30",
		`"25:00"`: "", `"10:5"`: "", `noon`: "", `"10:15pm"`: "", `""`: ""} {
		doc, err := frontmatter.Parse("---\ntime: " + in + "\n---\n")
		if err != nil {
			t.Fatal(err)
		}
		if got := frontmatterTime(doc); got != want {
			t.Errorf("time: %s → %q; want %q", in, got, want)
		}
	}
}

func TestSubjectFromName(t *testing.T) {
	for _, tt := range []struct{ name, slug, want string }{
		{"2026-11-25-15h00-beta-impl.md", "beta", "impl"},
		{"2026-11-25-15h00-beta-big-refactor.md", "beta", "big refactor"},
		{"2026-11-25-beta-kickoff.md", "beta", "kickoff"},
		{"2026-11-25-15h00-beta.md", "beta", "2026-11-25-15h00-beta"},
		{"notes-kickoff.md", "alpha", "notes kickoff"},
		{"2026-11-25.md", "alpha", "2026-11-25"},
	} {
		if got := subjectFromName(tt.name, tt.slug); got != tt.want {
			t.Errorf("subjectFromName(%q) = %q; want %q", tt.name, got, tt.want)
		}
	}
}

func TestIsNote(t *testing.T) {
	for name, want := range map[string]bool{"a.md": true, "A.MD": true, "x.Md": true, ".md": false, "a.mdx": false, "a.txt": false, "md": false, "dir/": false} {
		if isNote(name) != want {
			t.Errorf("isNote(%q) = %v", name, !want)
		}
	}
}

func TestSectionText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Text.", "Text."},
		{"\n\n  \nText.\n\n", "Text."},
		{"## Brief\n\nText.", "Text."},
		{"# brief\nText.", "Text."},
		{"## Briefing\n\nText.", "## Briefing\n\nText."},
		{"Text.\n\n## Brief\n", "Text.\n\n## Brief"},
		{"    code\n", "    code"},
	} {
		if got := sectionText(tt.in, "Brief"); got != tt.want {
			t.Errorf("sectionText(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}
