package vault

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/fault"
)

func TestCheckSlug(t *testing.T) {
	good := []string{"a", "kessho-docs", "v1.2_x", strings.Repeat("a", 100), "A.b-C_d"}
	bad := []string{"", "..", ".", ".hidden", "a/b", `a\b`, "a\x00b", "C:", "../x", "é", "a b", strings.Repeat("a", 101)}
	for _, s := range good {
		if err := CheckSlug("slug", s); err != nil {
			t.Errorf("CheckSlug(%q) = %v; want nil", s, err)
		}
	}
	for _, s := range bad {
		err := CheckSlug("slug", s)
		if fault.CodeOf(err) != fault.InvalidSlug {
			t.Errorf("CheckSlug(%q) = %v; want INVALID_SLUG", s, err)
		}
	}
}

func TestClosest(t *testing.T) {
	got := Closest("kesho", []string{"kessho", "kessho-docs", "alpha", "kesh", "zzzzzz"}, 5)
	want := []string{"kesh", "kessho"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Closest = %v; want %v", got, want)
	}
	if got := Closest("x", []string{"a", "b", "c", "d", "e", "f", "x1", "x2", "x3", "x4", "x5", "x6"}, 5); len(got) != 5 {
		t.Errorf("Closest returned %d names; want at most 5: %v", len(got), got)
	}
}

func TestViewNeeds(t *testing.T) {
	text := "hello"
	v := NewView(Snapshot{
		Files:   map[string]File{"a/x.md": {SHA256: "00", Text: &text}, "a/bin": {SHA256: "11", NotUTF8: true}},
		Missing: []string{"gone"},
		Dirs:    map[string][]string{"a": {"bin", "sub/", "x.md"}, "a/sub": {"y.md"}},
	})
	// One read says what it found: text, not UTF-8, absent; and the
	// precondition a plan puts on the file, in the plan's spelling.
	reads := []struct {
		path string
		want Content
	}{
		{"a/x.md", Content{Path: "a/x.md", Exists: true, Text: "hello", Expect: "sha256:00"}},
		{"a/bin", Content{Path: "a/bin", Exists: true, NotUTF8: true, Expect: "sha256:11"}},
		{"gone/deep/file.md", Content{Path: "gone/deep/file.md", Expect: "absent"}},
	}
	for _, r := range reads {
		if got, err := v.Read(r.path); got != r.want || err != nil {
			t.Errorf("Read(%s) = %+v, %v; want %+v", r.path, got, err, r.want)
		}
	}
	if err := mustText(v, "a/bin"); fault.CodeOf(err) != fault.FileNotUTF8 {
		t.Errorf("Text of a/bin = %v; want FILE_NOT_UTF8", err)
	}
	if _, err := v.Read("b/z.md"); !errors.Is(err, ErrNeed) {
		t.Errorf("Read(b/z.md) = %v; want ErrNeed", err)
	}
	files, err := v.Walk("a")
	if err != nil || !reflect.DeepEqual(files, []string{"a/bin", "a/sub/y.md", "a/x.md"}) {
		t.Errorf("Walk(a) = %v, %v", files, err)
	}
	if _, err := v.Walk("c"); !errors.Is(err, ErrNeed) {
		t.Errorf("Walk(c) = %v; want ErrNeed", err)
	}
	want := Need{Files: []string{"b/z.md"}, Trees: []Tree{{Root: "c"}}}
	if got := v.Need(); !reflect.DeepEqual(got, want) {
		t.Errorf("Need = %+v; want %+v", got, want)
	}
}

func mustText(v *View, p string) error {
	c, err := v.Read(p)
	if err != nil {
		return err
	}
	_, err = c.Textual()
	return err
}

// TestViewAsk: needs of every kind are asked in one call, which returns
// ErrNeed once when anything is lacking and records exactly that.
func TestViewAsk(t *testing.T) {
	v := NewView(Snapshot{
		Files:   map[string]File{"a/x.md": {SHA256: "00", Text: new(string)}},
		Missing: []string{"gone"},
		Dirs:    map[string][]string{"a": {"sub/", "x.md"}, "a/sub": {}},
	})
	m := Match{Dir: "m", Patterns: []string{"2026-*"}}
	err := v.Ask(Need{Files: []string{"a/x.md", "b/z.md", "gone/q"}, Dirs: []string{"a", "d"},
		Trees: []Tree{{Root: "a"}, {Root: "t"}}, Matches: []Match{m, {Dir: "gone/m", Patterns: []string{"*"}}}})
	if !errors.Is(err, ErrNeed) {
		t.Fatalf("Ask = %v; want ErrNeed", err)
	}
	want := Need{Files: []string{"b/z.md"}, Dirs: []string{"d"}, Trees: []Tree{{Root: "t"}}, Matches: []Match{m}}
	if got := v.Need(); !reflect.DeepEqual(got, want) {
		t.Errorf("Need = %+v; want %+v", got, want)
	}
	if err := v.Ask(Need{Files: []string{"a/x.md", "gone/q"}, Dirs: []string{"a"}, Trees: []Tree{{Root: "a"}}}); err != nil {
		t.Errorf("Ask of what the snapshot answers = %v; want nil", err)
	}
}

func TestResolve(t *testing.T) {
	ctx := "---\nphase: x\n---\n"
	snap := Snapshot{
		Files: map[string]File{Projects + "/alpha/context.md": {SHA256: "0", Text: &ctx}},
		Missing: []string{Domains + "/alpha/context.md", Archived + "/alpha/context.md",
			Projects + "/beta/context.md", Domains + "/beta/context.md", Archived + "/beta/context.md"},
		Dirs: map[string][]string{Projects: {"alpha/", "alphabet/", "notes.md"}, Domains: {"beta/"}},
	}
	snap.Missing = append(snap.Missing, Archived, Projects+"/alph", Domains+"/alph")
	p, err := Resolve(NewView(snap), "alpha")
	if err != nil || p.Kind != KindProject || p.Context() != Projects+"/alpha/context.md" {
		t.Errorf("Resolve(alpha) = %+v, %v", p, err)
	}
	p, err = Resolve(NewView(snap), "beta")
	if err != nil || p.Kind != KindDomain {
		t.Errorf("Resolve(beta) = %+v, %v", p, err)
	}
	_, err = Resolve(NewView(snap), "alph")
	e, ok := fault.As(err)
	if !ok || e.Code != fault.UnknownSlug || !strings.Contains(e.En, "alpha, alphabet") {
		t.Errorf("Resolve(alph) = %v; want UNKNOWN_SLUG suggesting alpha, alphabet", err)
	}
	if _, err := Resolve(NewView(snap), "../x"); fault.CodeOf(err) != fault.InvalidSlug {
		t.Errorf("Resolve(../x) = %v; want INVALID_SLUG", err)
	}
	// The first round probes the three places and asks for their context
	// files at once, listing no folder.
	v := NewView(Snapshot{})
	if _, err := Resolve(v, "alpha"); !errors.Is(err, ErrNeed) {
		t.Fatalf("Resolve on an empty snapshot = %v", err)
	}
	if n := v.Need(); len(n.Files) != 3 || len(n.Matches) != 3 || len(n.Dirs) != 0 {
		t.Errorf("first round need = %+v; want 3 files and 3 matches", n)
	}
}

// TestResolveProbes: a slug is found from the probes of its three places
// alone; the parent folders are listed only when it names none of them.
func TestResolveProbes(t *testing.T) {
	probe := func(parent, slug string) string { return Match{Dir: parent, Patterns: []string{slug}}.Key() }
	snap := Snapshot{
		Missing: []string{Projects + "/alpha/context.md", Domains + "/alpha/context.md", Archived + "/alpha/context.md",
			Projects + "/notes/context.md", Domains + "/notes/context.md", Archived + "/notes/context.md"},
		Matches: map[string][]string{
			probe(Projects, "alpha"): {"alpha/"}, probe(Domains, "alpha"): {}, probe(Archived, "alpha"): {"alpha/"},
			probe(Projects, "notes"): {"notes"}, probe(Domains, "notes"): {}, probe(Archived, "notes"): {},
		},
	}
	v := NewView(snap)
	_, err := Resolve(v, "alpha")
	if e, ok := fault.As(err); !ok || e.Code != fault.SlugConflict || !reflect.DeepEqual(e.Details["places"], []string{Projects + "/alpha", Archived + "/alpha"}) {
		t.Errorf("Resolve(alpha) = %v; want SLUG_CONFLICT naming the project and the archived folder", err)
	}
	if n := v.Need(); !n.Empty() {
		t.Errorf("Resolve(alpha) asked for %+v; the probes answer it", n)
	}
	// A file named as the slug is no project: the slug is unknown, and
	// only then are the parents listed, for close matches.
	v = NewView(snap)
	if _, err := Resolve(v, "notes"); !errors.Is(err, ErrNeed) {
		t.Fatalf("Resolve(notes) = %v; want the parents' listings asked for", err)
	}
	if n := v.Need(); !reflect.DeepEqual(n.Dirs, []string{Projects, Domains, Archived}) {
		t.Errorf("Resolve(notes) asked for %+v; want the three parents", n)
	}
	if found, err := Locate(NewView(snap), "notes"); err != nil || len(found) != 0 {
		t.Errorf("Locate(notes) = %v, %v; want nothing, with no listing", found, err)
	}
}

func TestViewShowsRawListings(t *testing.T) {
	m := Match{Dir: "p", Patterns: []string{"a*"}}
	v := NewView(Snapshot{
		RawDirs:    map[string][]string{"p": {"b.md", ".obsidian/", "a/", "c:d.md"}, "p/a": {"x.md"}, "q": {"raw.md"}},
		RawMatches: map[string][]string{m.Key(): {"b.md", "ab.md", ".a.md"}},
		Dirs:       map[string][]string{"q": {"shown.md"}},
	})
	if got, err := v.List("p"); err != nil || !reflect.DeepEqual(got, []string{"a/", "b.md"}) {
		t.Errorf("List(p) = %q, %v; want the raw listing shown: sorted, no dot-name, no name a plan refuses", got, err)
	}
	if got, err := v.List("q"); err != nil || !reflect.DeepEqual(got, []string{"shown.md"}) {
		t.Errorf("List(q) = %q, %v; want Dirs' listing, which wins", got, err)
	}
	if got, err := v.Match(m); err != nil || !reflect.DeepEqual(got, []string{"ab.md"}) {
		t.Errorf("Match = %q, %v; want the raw match's listing selected by its patterns", got, err)
	}
	if got, err := v.Walk("p"); err != nil || !reflect.DeepEqual(got, []string{"p/a/x.md", "p/b.md"}) {
		t.Errorf("Walk(p) = %q, %v", got, err)
	}
	if err := v.Ask(Need{Dirs: []string{"p", "p/a"}, Matches: []Match{m}}); err != nil {
		t.Errorf("Ask of what the raw listings answer: %v", err)
	}
}
