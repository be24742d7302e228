package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestPrompts lists the prompts in both languages and gets each:
// start-session carries mem_recall's brief of the slug under its framing,
// archive-session names every parameter an archive needs; a slug the core
// refuses is an error naming the code.
func TestPrompts(t *testing.T) {
	dir := newVault(t, "alpha")
	for _, lang := range []string{"en", "fr"} {
		cs := nativeSession(t, dir, lang)
		ctx := context.Background()
		list, err := cs.ListPrompts(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range list.Prompts {
			names = append(names, p.Name)
			if p.Title == "" || p.Description == "" || len(p.Arguments) != 1 || p.Arguments[0].Name != "slug" || !p.Arguments[0].Required {
				t.Errorf("%s: prompt %+v: want a title, a description and one required slug argument", lang, p)
			}
		}
		slices.Sort(names)
		if !slices.Equal(names, []string{"archive-session", "start-session"}) {
			t.Fatalf("%s: prompts %v", lang, names)
		}
		_, recalled := call(t, cs, "mem_recall", map[string]any{"slug": "alpha"})
		var brief struct { // the tool answers the data; the prompt, its briefing
			Context struct {
				Body string `json:"body"`
			} `json:"context"`
		}
		if err := json.Unmarshal(recalled.Result, &brief); err != nil || brief.Context.Body == "" {
			t.Fatalf("mem_recall: %v %s", err, recalled.Result)
		}
		body := strings.TrimSpace(brief.Context.Body)
		start := promptText(t, cs, "start-session", "alpha")
		if !strings.Contains(start, body) || !strings.Contains(start, "mem_search") || strings.Index(start, "alpha") > strings.Index(start, body) {
			t.Errorf("%s: start-session does not frame alpha's recall:\n%s", lang, start)
		}
		archive := promptText(t, cs, "archive-session", "alpha")
		for _, word := range []string{"alpha", "mem_archive", "mode=full", "archive_subject", "archive_body_md", "archive_aliases", "derive", "no_derived_because", "context_md", "mem_set_summary"} {
			if !strings.Contains(archive, word) {
				t.Errorf("%s: archive-session does not say %s:\n%s", lang, word, archive)
			}
		}
		if strings.Contains(archive, "%!") || strings.Contains(start, "%!") {
			t.Errorf("%s: a prompt's format is broken", lang)
		}
		for _, name := range []string{"start-session", "archive-session"} {
			_, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: name, Arguments: map[string]string{"slug": "nobody"}})
			if err == nil || !strings.Contains(err.Error(), "UNKNOWN_SLUG") {
				t.Errorf("%s: %s of an unknown slug: %v, want UNKNOWN_SLUG", lang, name, err)
			}
		}
	}
}

// promptText gets the prompt name for slug and returns its one message.
func promptText(t *testing.T, cs *sdk.ClientSession, name, slug string) string {
	t.Helper()
	res, err := cs.GetPrompt(context.Background(), &sdk.GetPromptParams{Name: name, Arguments: map[string]string{"slug": slug}})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(res.Messages) != 1 || res.Messages[0].Role != "user" {
		t.Fatalf("%s: %d messages, want one from the user", name, len(res.Messages))
	}
	text, ok := res.Messages[0].Content.(*sdk.TextContent)
	if !ok {
		t.Fatalf("%s: content %T", name, res.Messages[0].Content)
	}
	return text.Text
}

// TestCompleteSlug asks completions for the prompts' slug argument: the
// active projects and domains that begin with what was typed, case aside,
// sorted; never an archived one; nothing for another argument.
func TestCompleteSlug(t *testing.T) {
	dir := newVault(t, "alpha", "alfred", "beta")
	for path, text := range map[string]string{
		"10-episodes/domains/algebra/context.md": "---\nkind: domain\n---\n# algebra\n",
		"10-episodes/archived/altair/context.md": "---\nkind: project\nphase: archived\n---\n# altair\n",
	} {
		full := filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cs := nativeSession(t, dir, "en")
	if cs.InitializeResult().Capabilities.Completions == nil {
		t.Error("the server does not announce completions")
	}
	for _, c := range []struct {
		prompt, arg, typed string
		want               []string
	}{
		{"start-session", "slug", "al", []string{"alfred", "algebra", "alpha"}},
		{"archive-session", "slug", "AL", []string{"alfred", "algebra", "alpha"}},
		{"start-session", "slug", "", []string{"alfred", "algebra", "alpha", "beta"}},
		{"start-session", "slug", "z", []string{}},
		{"start-session", "other", "al", []string{}},
	} {
		res, err := cs.Complete(context.Background(), &sdk.CompleteParams{
			Ref:      &sdk.CompleteReference{Type: "ref/prompt", Name: c.prompt},
			Argument: sdk.CompleteParamsArgument{Name: c.arg, Value: c.typed},
		})
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		if got := res.Completion.Values; !slices.Equal(got, c.want) || res.Completion.HasMore {
			t.Errorf("%s %s=%q: %v (more %v), want %v", c.prompt, c.arg, c.typed, got, res.Completion.HasMore, c.want)
		}
	}
}
