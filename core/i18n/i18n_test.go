package i18n

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

type pairT struct{ En, Fr string }

type sample struct {
	Title pairT
	Msg   struct {
		SetTo pairT
		Days  [2]pairT
		Kinds map[string]pairT
	}
}

func TestLoadDecodesLazily(t *testing.T) {
	get := Load[sample](fstest.MapFS{"ok.yaml": {Data: []byte("title: {en: Set, fr: Fixer}\nmsg:\n  setto: {en: \"%s to %d\", fr: \"%s à %d\"}\n  days: [{en: Mon, fr: lun}, {en: Tue, fr: mar}]\n  kinds: {project: {en: project, fr: projet}}\n")}}, "ok.yaml", 0)
	s := get()
	if s.Title.Fr != "Fixer" || s.Msg.SetTo.En != "%s to %d" || s.Msg.Days[1].Fr != "mar" || s.Msg.Kinds["project"].Fr != "projet" {
		t.Fatalf("decoded %+v", s)
	}
	if get() != s {
		t.Error("a second call parsed the file again")
	}
	if errs := Check(s); len(errs) != 0 {
		t.Errorf("Check: %v", errs)
	}
}

func TestLoadReadsTheDocumentAsked(t *testing.T) {
	fsys := fstest.MapFS{"two.yaml": {Data: []byte("title: {en: First, fr: Premier}\n---\ntitle: {en: Second, fr: Second}\n")}}
	if got := Load[struct{ Title pairT }](fsys, "two.yaml", 1)(); got.Title.En != "Second" {
		t.Errorf("document 1: %+v; want the second document", got)
	}
	if got := Load[struct{ Title pairT }](fsys, "two.yaml", 0)(); got.Title.En != "First" {
		t.Errorf("document 0: %+v; want the first document", got)
	}
}

func TestLoadRefusesAnUnknownKey(t *testing.T) {
	get := Load[sample](fstest.MapFS{"bad.yaml": {Data: []byte("title: {en: Set, fr: Fixer}\nmsg:\n  set_to: {en: a, fr: b}\n")}}, "bad.yaml", 0)
	var f File
	for _, x := range Files() {
		if x.Name == "bad.yaml" {
			f = x
		}
	}
	if _, err := f.Texts(); err == nil || !strings.Contains(err.Error(), "bad.yaml") || !strings.Contains(err.Error(), "set_to") {
		t.Fatalf("Texts() error = %v; want one naming the file and the key", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("the getter of a file that does not decode did not panic")
		}
	}()
	get()
}

func TestCheckFindsMissingLanguagesAndVerbs(t *testing.T) {
	var s sample
	s.Title = pairT{En: "Set", Fr: ""}
	s.Msg.SetTo = pairT{En: "%s set to %d", Fr: "%d fixé à %s"}
	s.Msg.Days = [2]pairT{{"Mon", "lun"}, {"", "mar"}}
	s.Msg.Kinds = map[string]pairT{"domain": {"domain %q", "domaine %s"}}
	var got []string
	for _, e := range Check(&s) {
		got = append(got, e.Error())
	}
	want := []string{
		"title: no French text (fr)",
		`msg.setto: the English text's printf verbs ["%s" "%d"] differ from the French text's ["%d" "%s"]`,
		"msg.days[1]: no English text (en)",
		`msg.kinds.domain: the English text's printf verbs ["%q"] differ from the French text's ["%s"]`,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Check:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestVerbs(t *testing.T) {
	got := verbs("100%% of %s, %-5d, %[2]q, %.2f, %v")
	want := []string{"%%", "%s", "%-5d", "%[2]q", "%.2f", "%v"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("verbs = %q; want %q", got, want)
	}
}
