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
	defer func() {
		r := recover()
		if r == nil {
			t.Fatal("the getter of a file that does not decode did not panic")
		}
		if err := fmt.Sprint(r); !strings.Contains(err, "bad.yaml") || !strings.Contains(err, "set_to") {
			t.Errorf("panic %q; want one naming the file and the key", err)
		}
	}()
	get()
}
