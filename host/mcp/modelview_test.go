package mcp_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kessho/kessho/host/mcp"
)

// jsonEqual reports whether a and b are the same JSON value.
func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// TestModelViewSaysEachFactOnce checks every successful conformance
// case's result as the model reads it: no summary_md; search hits and
// recalled archives that are resources addressed by their kessho:// URI
// (a URI resources/read takes) and not by their path as well; a search
// hit without the fields its address already says; every other field the
// core's, in the core's order.
func TestModelViewSaysEachFactOnce(t *testing.T) {
	uris := 0
	for c, a := range successes(t) {
		view, err := mcp.ModelView(c.Call.Tool, a.Result)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		var v, core map[string]any
		if err := json.Unmarshal(view, &v); err != nil {
			t.Fatalf("%s: %v\n%s", c.Name, err, view)
		}
		if err := json.Unmarshal(a.Result, &core); err != nil {
			t.Fatal(err)
		}
		if _, ok := v["summary_md"]; ok {
			t.Errorf("%s: the model's view holds summary_md", c.Name)
		}
		delete(core, "summary_md")
		for _, list := range []string{"hits", "archives"} {
			if !(list == "hits" && c.Call.Tool == "mem_search" || list == "archives" && c.Call.Tool == "mem_recall") {
				continue
			}
			if _, ok := core[list]; !ok {
				continue // mem_recall without a slug: the vault's briefing, no archives
			}
			got, want := v[list].([]any), core[list].([]any)
			if len(got) != len(want) {
				t.Fatalf("%s: %d %s; the core gave %d", c.Name, len(got), list, len(want))
			}
			for i := range got {
				g, w := got[i].(map[string]any), want[i].(map[string]any)
				path := w["path"].(string)
				uri, linked := g["uri"].(string)
				_, hasPath := g["path"]
				resource := strings.HasPrefix(path, "10-episodes/") && (strings.HasSuffix(path, "/context.md") || strings.HasSuffix(path, "/history.md") || strings.Contains(path, "/archives/"))
				switch {
				case linked == hasPath:
					t.Errorf("%s: %s[%d] has uri %v and path %v: want one", c.Name, list, i, linked, hasPath)
				case resource != linked:
					t.Errorf("%s: %s[%d] (%s): uri %q", c.Name, list, i, path, uri)
				case linked:
					uris++
					if !strings.HasPrefix(uri, "kessho://") || !strings.HasSuffix(path, uriTail(uri)) {
						t.Errorf("%s: %s[%d]: uri %s for %s", c.Name, list, i, uri, path)
					}
				}
				for k, wv := range w {
					gv, ok := g[k]
					switch {
					case k == "path":
					case list == "hits" && (k == "zone" || k == "slug" || k == "matched" || k == "terms" || k == "marks"):
						if ok {
							t.Errorf("%s: hit %d keeps %s", c.Name, i, k)
						}
					case list == "hits" && k == "date" && (wv == nil || strings.Contains(fmt.Sprint(w["title"]), fmt.Sprint(wv))):
						if ok {
							t.Errorf("%s: hit %d keeps a date that is null or in its title", c.Name, i)
						}
					case list == "hits" && k == "line":
						if l, _ := wv.(string); len([]rune(l)) <= 160 && gv != wv || len([]rune(gv.(string))) > 160 {
							t.Errorf("%s: hit %d: line %q from %q", c.Name, i, gv, wv)
						}
					case !reflect.DeepEqual(gv, wv):
						t.Errorf("%s: %s[%d].%s = %v; the core gave %v", c.Name, list, i, k, gv, wv)
					}
				}
			}
			delete(v, list)
			delete(core, list)
		}
		if !reflect.DeepEqual(v, core) {
			t.Errorf("%s: the view's other fields differ from the core's:\n%s\n%s", c.Name, view, a.Result)
		}
		if keys(view) != keys(a.Result, "summary_md") {
			t.Errorf("%s: the view's fields are not in the core's order: %s", c.Name, keys(view))
		}
	}
	if uris == 0 {
		t.Error("no case has a search hit or a recalled archive that is a resource")
	}
}

// uriTail is the file a kessho:// URI names, as its path ends.
func uriTail(uri string) string {
	parts := strings.Split(uri, "/")
	switch last := parts[len(parts)-1]; last {
	case "context", "history":
		return "/" + parts[len(parts)-2] + "/" + last + ".md"
	default:
		return "/archives/" + last
	}
}

// keys is the top-level keys of the JSON object raw, in order, less skip.
func keys(raw []byte, skip ...string) string {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	var out []string
	if _, err := dec.Token(); err != nil {
		return ""
	}
	for dec.More() {
		k, _ := dec.Token()
		var v json.RawMessage
		_ = dec.Decode(&v)
		if s := k.(string); !contains(skip, s) {
			out = append(out, s)
		}
	}
	return strings.Join(out, ",")
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// TestModelViewLinksRead calls mem_search and mem_recall over MCP on the
// clients' vault and reads every kessho:// URI their answers carry with
// resources/read: each names the file the core's path did.
func TestModelViewLinksRead(t *testing.T) {
	cs := nativeSession(t, clientVault(t), "en")
	var uris []string
	for _, c := range []struct {
		tool string
		args map[string]any
		list string
	}{
		{"mem_search", map[string]any{"query": "parser cache release"}, "hits"},
		{"mem_recall", map[string]any{"slug": "alpha"}, "archives"},
	} {
		res, a := call(t, cs, c.tool, c.args)
		if !a.OK {
			t.Fatalf("%s: refused: %+v", c.tool, a.Error)
		}
		if len(res.Content) != 1 {
			t.Errorf("%s: %d content items; want the one text (links are in the data)", c.tool, len(res.Content))
		}
		var r map[string][]map[string]any
		_ = json.Unmarshal(a.Result, &r)
		for _, it := range r[c.list] {
			if u, ok := it["uri"].(string); ok {
				uris = append(uris, u)
			}
		}
	}
	if len(uris) < 2 {
		t.Fatalf("uris %q; want the search's and the recall's", uris)
	}
	for _, u := range uris {
		got, err := cs.ReadResource(t.Context(), &sdk.ReadResourceParams{URI: u})
		if err != nil {
			t.Errorf("resources/read %s: %v", u, err)
			continue
		}
		if len(got.Contents) != 1 || got.Contents[0].URI != u || got.Contents[0].Text == "" {
			t.Errorf("resources/read %s: %+v", u, got.Contents)
		}
	}
}

// TestResourceOf: the vault paths that are resources, and their URIs; an
// archived project is a project, a domain a domain, anything else none.
func TestResourceOf(t *testing.T) {
	for p, want := range map[string]string{
		"10-episodes/projects/alpha/context.md":                     "kessho://project/alpha/context",
		"10-episodes/projects/alpha/history.md":                     "kessho://project/alpha/history",
		"10-episodes/projects/alpha/archives/2026-11-30-10h15-a.md": "kessho://project/alpha/archive/2026-11-30-10h15-a.md",
		"10-episodes/archived/old/archives/x y.md":                  "kessho://project/old/archive/x%20y.md",
		"10-episodes/domains/worklogs/context.md":                   "kessho://domain/worklogs/context",
		"10-episodes/domains/worklogs/2026-W49.md":                  "",
		"10-episodes/projects/alpha/archives/sub/x.md":              "",
		"10-episodes/projects/alpha/notes.md":                       "",
		"20-knowledge/Fact.md":                                      "",
		"40-principles/Rule.md":                                     "",
	} {
		got, ok := mcp.ResourceOf(p)
		if !ok {
			got = ""
		}
		if got != want {
			t.Errorf("%s: %q; want %q", p, got, want)
		}
	}
}
