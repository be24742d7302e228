package i18ntest

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kessho/kessho/core/i18n"
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

func TestErrors(t *testing.T) {
	ok := i18n.Load[sample](fstest.MapFS{"ok.yaml": {Data: []byte("title: {en: Set, fr: Fixer}\nmsg:\n  setto: {en: \"%s to %d\", fr: \"%s à %d\"}\n  days: [{en: Mon, fr: lun}, {en: Tue, fr: mar}]\n  kinds: {project: {en: project, fr: projet}}\n")}}, "ok.yaml", 0)
	if errs := Errors(ok); len(errs) != 0 {
		t.Errorf("Errors: %v", errs)
	}
	bad := i18n.Load[sample](fstest.MapFS{"bad.yaml": {Data: []byte("title: {en: Set, fr: Fixer}\nmsg:\n  set_to: {en: a, fr: b}\n")}}, "bad.yaml", 0)
	if errs := Errors(bad); len(errs) != 1 || !strings.Contains(errs[0].Error(), "set_to") {
		t.Errorf("Errors = %v; want the decoder's, naming the key", errs)
	}
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
