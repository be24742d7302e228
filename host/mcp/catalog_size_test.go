package mcp_test

import (
	"context"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// modelView is what a client shows the model of one tool: its name,
// title, description and input schema. The output schema and the
// annotations are for the client (it validates structuredContent against
// the one, and asks the user's consent by the others).
type modelView struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	InputSchema any    `json:"inputSchema"`
}

// catalogueBudget is the most the model's view of every tool may weigh,
// in bytes of JSON, by language: 10 KB, about 2,500 tokens, in English;
// French says the same in longer words. A model reads it before every
// conversation, whether it calls a tool or not: a new tool, or a longer
// sentence, fits in it or makes room.
var catalogueBudget = map[string]int{"en": 10 * 1024, "fr": 11 * 1024}

// listedSizes returns, for the tools the server lists in lang, the bytes
// of the model's view of them all and of the whole tools/list result.
func listedSizes(t *testing.T, lang string) (view, total int, list *sdk.ListToolsResult) {
	t.Helper()
	cs := nativeSession(t, newVault(t), lang)
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var views []modelView
	for _, tool := range list.Tools {
		views = append(views, modelView{tool.Name, tool.Title, tool.Description, tool.InputSchema})
	}
	return len(mustJSON(t, views)), len(mustJSON(t, list)), list
}

// TestCatalogueBudget lists the tools as a client does and checks that
// the model's view of them (each tool's name, title, description and
// input schema, as JSON) stays within catalogueBudget, in English and in
// French. It logs the sizes (go test -v -run TestCatalogueBudget).
func TestCatalogueBudget(t *testing.T) {
	for _, lang := range []string{"en", "fr"} {
		view, total, list := listedSizes(t, lang)
		t.Logf("%s: the model's view of %d tools is %d bytes; tools/list is %d bytes", lang, len(list.Tools), view, total)
		for _, tool := range list.Tools {
			one := len(mustJSON(t, modelView{tool.Name, tool.Title, tool.Description, tool.InputSchema}))
			t.Logf("%s:   %-28s %5d bytes (description %d)", lang, tool.Name, one, len(tool.Description))
		}
		if view > catalogueBudget[lang] {
			t.Errorf("%s: the model's view of the tools is %d bytes, over its budget of %d: say it in fewer words", lang, view, catalogueBudget[lang])
		}
	}
}
