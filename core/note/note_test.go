package note

import (
	"testing"

	"gopkg.in/yaml.v3"
)

// TestRenderFlush: lists of one-line scalars are written flush with
// their key, as the memory-kit writes them; everything else is Render's,
// and the frontmatter decodes to the same values.
func TestRenderFlush(t *testing.T) {
	f := Fields{
		{Key: "project", Node: Str("web-shop")},
		{Key: "tags", Node: List([]string{"project/web-shop", "zone/episodes", "kind/project"})},
		{Key: "empty", Node: List(nil)},
		{Key: "note", Node: Str("a: colon # and hash")},
		{Key: "aliases", Node: List([]string{"- dash first", "two words"})},
	}
	got, err := f.RenderFlush("# Body\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "---\nproject: web-shop\ntags:\n- project/web-shop\n- zone/episodes\n- kind/project\nempty: []\nnote: \"a: colon # and hash\"\naliases:\n- \"- dash first\"\n- two words\n---\n# Body\n"
	if got != want {
		t.Errorf("RenderFlush:\n%s\nwant:\n%s", got, want)
	}
	plain, _ := f.Render("# Body\n")
	var a, b map[string]any
	if err := yaml.Unmarshal([]byte(plain[4:len(plain)-len("---\n# Body\n")]), &a); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal([]byte(got[4:len(got)-len("---\n# Body\n")]), &b); err != nil {
		t.Fatal(err)
	}
	if len(a) != 5 || len(b) != 5 || a["tags"].([]any)[2] != b["tags"].([]any)[2] || b["aliases"].([]any)[0] != "- dash first" {
		t.Errorf("decoded: %v, flush: %v", a, b)
	}
}
