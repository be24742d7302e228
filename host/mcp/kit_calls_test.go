package mcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/tools"
)

// TestKitCallsUnlisted: the memory-kit's shapes that Kessho accepts
// without advertising them (catalog.Tool.Unlisted, Param.Synonyms) are in
// no input schema tools/list gives, and a client's call that sends them
// is answered (the SDK lets them through to the core): the kit's
// filename, case_insensitive, a zone by its folder, and mem_recall with
// no slug, whose vault-wide answer the output schema takes.
func TestKitCallsUnlisted(t *testing.T) {
	cs := nativeSession(t, newVault(t, "alpha", "beta"), "en")
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]string{}
	for _, tool := range list.Tools {
		schemas[tool.Name] = string(mustJSON(t, tool.InputSchema))
	}
	hidden := 0
	for _, spec := range tools.Specs() {
		var names []string
		for _, u := range spec.Unlisted {
			names = append(names, u.Name)
		}
		for _, p := range spec.Params {
			for syn := range p.Synonyms {
				names = append(names, syn)
			}
		}
		for _, n := range names {
			hidden++
			if strings.Contains(schemas[spec.Name], `"`+n+`"`) {
				t.Errorf("%s: tools/list's input schema shows %q, which is accepted but not advertised", spec.Name, n)
			}
		}
	}
	if hidden == 0 {
		t.Fatal("no tool accepts an unlisted parameter or value")
	}
	_, a := call(t, cs, "mem_recall", map[string]any{})
	var brief struct {
		Scope    string `json:"scope"`
		Projects []struct {
			Slug string `json:"slug"`
		} `json:"projects"`
	}
	if err := json.Unmarshal(a.Result, &brief); err != nil || brief.Scope != "vault" || len(brief.Projects) != 2 {
		t.Errorf("mem_recall without slug = %s, %v; want the vault-wide briefing of alpha and beta", a.Result, err)
	}
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"mem_search", map[string]any{"query": "context", "case_insensitive": true, "zone": "10-episodes"}},
		{"mem_recall", map[string]any{}},
		{"mem_worklog", map[string]any{"phase": "persist", "week_of": "2026-11-26", "hours_by_project": map[string]any{"alpha": 3.5},
			"brief_md": "b", "digest_md": "d", "detailed_md": "x"}},
	}
	for _, c := range calls {
		res, a := call(t, cs, c.tool, c.args)
		if !a.OK {
			t.Errorf("%s %v: %+v", c.tool, c.args, a.Error)
			continue
		}
		if res.StructuredContent == nil {
			t.Errorf("%s %v: no structuredContent", c.tool, c.args)
		}
	}
	_, a = call(t, cs, "mem_worklog", map[string]any{"phase": "persist", "week_of": "2026-11-26", "hours_by_project": map[string]any{"alpah": 3.5},
		"brief_md": "b", "digest_md": "d", "detailed_md": "x"})
	if a.OK || a.Error.Code != "INVALID_ARGUMENT" || a.Error.Details["parameter"] != "hours_by_project.alpah" || !strings.Contains(a.Error.Message, "alpha") {
		t.Errorf("hours_by_project with a typo: %+v; want INVALID_ARGUMENT naming hours_by_project.alpah and alpha", a.Error)
	}
}
