package core

import (
	"fmt"
	"slices"
	"testing"
)

// linkedVault is project alpha (a context, a history, two archives, one
// of which derived an atom) and n principles and n goals that name
// nothing of alpha, besides the principles and goals that link to alpha
// in every way a recall accepts (its slug, a path in its folder, an
// archive's name, in the body or the frontmatter, any case), those alpha
// links to, and decoys: a link inside code, a note named like the slug's
// prefix, a link to another project.
func linkedVault(n int) memVault {
	m := memVault{
		"10-episodes/projects/alpha/context.md": "---\nslug: alpha\nkind: project\nphase: build\n---\n# Alpha\n\n## Next\n- See [[Ship it]] and [[40-principles/Small steps]].\n",
		"10-episodes/projects/alpha/history.md": "# History — alpha\n\n" +
			"- 2026-11-27 17:40 — [Second](archives/2026-11-27-17h40-alpha-second.md)\n" +
			"- 2026-11-20 09:05 — [First](archives/2026-11-20-09h05-alpha-first.md)\n",
		"10-episodes/projects/alpha/archives/2026-11-27-17h40-alpha-second.md": "---\nsubject: Second\nderived_atoms:\n  - \"[[Plain files]]\"\n---\n## Decisions\n- Plain files.\n",
		"10-episodes/projects/alpha/archives/2026-11-20-09h05-alpha-first.md":  "---\nsubject: First\n---\nThe start.\n",
		"10-episodes/projects/alphabet/context.md":                             "---\nslug: alphabet\n---\n# Alphabet\n",
		"20-knowledge/Plain files.md":                                          "---\nsource: \"[[2026-11-27-17h40-alpha-second]]\"\n---\nObsidian opens them.\n",
		"40-principles/By slug.md":                                             "Learned on [[alpha]].\n",
		"40-principles/By path.md":                                             "See [[10-episodes/projects/Alpha/context.md|the context]].\n",
		"40-principles/By archive.md":                                          "---\nsource: \"[[2026-11-20-09h05-alpha-first]]\"\n---\nFrom the first session.\n",
		"40-principles/Small steps.md":                                         "Keep steps small.\n",
		"40-principles/In code.md":                                             "Write `[[alpha]]` to link.\n\n```\n[[alpha]]\n```\n",
		"40-principles/Other project.md":                                       "Learned on [[alphabet]] and [[10-episodes/projects/alphabet/context]].\n",
		"50-goals/Ship it.md":                                                  "Ship [[alpha]] by December.\n",
		"50-goals/Archived path.md":                                            "Once [[10-episodes/archived/alpha/context]].\n",
	}
	for i := range n {
		m[fmt.Sprintf("40-principles/p%04d.md", i)] = fmt.Sprintf("Principle %d, see [[p%04d]] and [[beta]].\n", i, (i+1)%n)
		m[fmt.Sprintf("50-goals/g%04d.md", i)] = fmt.Sprintf("Goal %d, for [[gamma]].\n", i)
	}
	return m
}

// TestRecallThroughIndex: with a host that keeps the index, mem_recall
// answers as it does without one, and, once the index is up to date,
// reads only the notes it shows (no listing of the atom zones, no
// principle or goal it leaves out): as much of a vault of 400 unrelated
// principles and goals as of one of 4.
func TestRecallThroughIndex(t *testing.T) {
	args := `{"slug":"alpha"}`
	var shown []string
	for _, n := range []int{2, 200} {
		m := linkedVault(n)
		_, want := m.toolRun(t, nil, "mem_recall", args, nil)
		h := &indexHost{}
		_, first := m.toolRun(t, h, "mem_recall", args, nil)
		if first != want {
			t.Fatalf("%d: the first recall through the index differs:\n%s\n%s", n, first, want)
		}
		if h.index == nil {
			t.Fatalf("%d: the recall stored no index", n)
		}
		var trees []string
		read, again := m.toolRun(t, h, "mem_recall", args, &trees)
		if again != want {
			t.Fatalf("%d: the warm recall differs:\n%s\n%s", n, again, want)
		}
		if len(trees) != 0 {
			t.Errorf("%d: the warm recall listed %v", n, trees)
		}
		if shown == nil {
			shown = read
		} else if !slices.Equal(read, shown) {
			t.Errorf("warm recall read %v at 400 notes, %v at 4", read, shown)
		}
	}
	for _, p := range shown {
		switch p {
		case "40-principles/In code.md", "40-principles/Other project.md", "40-principles/p0000.md", "50-goals/g0000.md":
			t.Errorf("the warm recall read %s, which it does not show", p)
		}
	}
}
