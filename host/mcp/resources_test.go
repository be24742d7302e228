package mcp_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/mcp"
)

// writeFile writes text at the vault path p of dir, making its folders.
func writeFile(t testing.TB, dir, p, text string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

const (
	alphaHistory = "# alpha\n\n- [2026-11-27 17h40 — First](archives/2026-11-27-17h40-alpha-first.md)\n"
	alphaArchive = "---\nslug: alpha\nkind: archive\ndate: 2026-11-27\ntime: \"17:40\"\nsubject: First\n---\nThe first session, with an é.\n"
)

// resourceVault is a vault holding the project alpha (context, history,
// two archives, one named in its history), the domain ops (context only)
// and the archived project old (context).
func resourceVault(t testing.TB) string {
	t.Helper()
	dir := newVault(t, "alpha")
	writeFile(t, dir, "10-episodes/projects/alpha/history.md", alphaHistory)
	writeFile(t, dir, "10-episodes/projects/alpha/archives/2026-11-27-17h40-alpha-first.md", alphaArchive)
	writeFile(t, dir, "10-episodes/projects/alpha/archives/2026-11-28-09h00-alpha-second try.md", "---\nsubject: Second try\n---\nAgain.\n")
	writeFile(t, dir, "10-episodes/domains/ops/context.md", "---\nkind: domain\nphase: run\nsummary: Ops.\n---\n# ops\n")
	writeFile(t, dir, "10-episodes/archived/old/context.md", "---\nkind: project\nphase: done\nsummary: Old.\n---\n# old\n")
	return dir
}

// TestResources lists the resource templates and the resources of a
// vault, reads each kind of resource (the file as it is on disk, as
// text/markdown), and refuses what names no resource with the core's code.
func TestResources(t *testing.T) {
	dir := resourceVault(t)
	cs := nativeSession(t, dir, "en")
	ctx := context.Background()

	if caps := cs.InitializeResult().Capabilities; caps.Resources == nil || !caps.Resources.Subscribe || !caps.Resources.ListChanged {
		t.Errorf("capabilities %+v; want resources with subscribe and listChanged", caps.Resources)
	}
	tl, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var templates []string
	for _, rt := range tl.ResourceTemplates {
		templates = append(templates, rt.URITemplate)
		if rt.MIMEType != "text/markdown" || rt.Title == "" || rt.Description == "" {
			t.Errorf("template %+v; want text/markdown, a title and a description", rt)
		}
	}
	slices.Sort(templates)
	want := []string{
		"kessho://domain/{slug}/archive/{name}", "kessho://domain/{slug}/context", "kessho://domain/{slug}/history",
		"kessho://project/{slug}/archive/{name}", "kessho://project/{slug}/context", "kessho://project/{slug}/history",
	}
	if !slices.Equal(templates, want) {
		t.Errorf("templates %q; want %q", templates, want)
	}

	listed, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range listed.Resources {
		uris = append(uris, r.URI)
		if r.MIMEType != "text/markdown" || r.Name == "" {
			t.Errorf("resource %+v; want text/markdown and a name", r)
		}
	}
	wantURIs := []string{
		"kessho://domain/ops/context",
		"kessho://project/alpha/context",
		"kessho://project/alpha/history",
		"kessho://project/alpha/archive/2026-11-28-09h00-alpha-second%20try.md",
		"kessho://project/alpha/archive/2026-11-27-17h40-alpha-first.md",
		"kessho://project/old/context",
	}
	if !slices.Equal(uris, wantURIs) || listed.NextCursor != "" {
		t.Errorf("resources %q (next %q); want %q on one page", uris, listed.NextCursor, wantURIs)
	}

	for uri, want := range map[string]string{
		"kessho://project/alpha/context":                                        contextOf(t, dir, "alpha"),
		"kessho://project/alpha/history":                                        alphaHistory,
		"kessho://project/alpha/archive/2026-11-27-17h40-alpha-first.md":        alphaArchive,
		"kessho://project/alpha/archive/latest":                                 alphaArchive,
		"kessho://project/alpha/archive/2026-11-28-09h00-alpha-second%20try.md": "---\nsubject: Second try\n---\nAgain.\n",
		"kessho://domain/ops/context":                                           "---\nkind: domain\nphase: run\nsummary: Ops.\n---\n# ops\n",
		"kessho://project/old/context":                                          "---\nkind: project\nphase: done\nsummary: Old.\n---\n# old\n",
	} {
		res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		if err != nil {
			t.Errorf("read %s: %v", uri, err)
			continue
		}
		if len(res.Contents) != 1 || res.Contents[0].Text != want || res.Contents[0].MIMEType != "text/markdown" || res.Contents[0].URI != uri {
			t.Errorf("read %s: %+v; want the file's text %q as text/markdown", uri, res.Contents, want)
		}
	}

	for uri, code := range map[string]string{
		"kessho://project/beta/context":             "UNKNOWN_SLUG",
		"kessho://project/ops/context":              "domain",
		"kessho://domain/alpha/history":             "project",
		"kessho://project/alpha/archive/nothing.md": "UNKNOWN_ARCHIVE",
		"kessho://project/..%2Fx/context":           "INVALID_SLUG",
		"kessho://domain/ops/history":               "history.md",
		"kessho://project/alpha/nothing":            "not found",
	} {
		_, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		var rpc *jsonrpc.Error
		if !errors.As(err, &rpc) || rpc.Code != jsonrpc.CodeInvalidParams || !strings.Contains(strings.ToLower(rpc.Message), strings.ToLower(code)) {
			t.Errorf("read %s: %v; want resource not found naming %s", uri, err, code)
		}
	}
}

// TestResourcesPaged lists a vault of 60 projects of 20 archives each
// (1,320 resources) page by page: every resource once, in order, the
// pages bounded.
func TestResourcesPaged(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for p := range 60 {
		slug := fmt.Sprintf("p%02d", p)
		writeFile(t, dir, "10-episodes/projects/"+slug+"/context.md", "---\nkind: project\n---\n")
		writeFile(t, dir, "10-episodes/projects/"+slug+"/history.md", "# h\n")
		want = append(want, "kessho://project/"+slug+"/context", "kessho://project/"+slug+"/history")
		for a := 19; a >= 0; a-- {
			name := fmt.Sprintf("2026-11-%02d-10h00-%s-s.md", a+1, slug)
			writeFile(t, dir, "10-episodes/projects/"+slug+"/archives/"+name, "x\n")
			want = append(want, "kessho://project/"+slug+"/archive/"+name)
		}
	}
	cs := nativeSession(t, dir, "en")
	var got []string
	pages := 0
	for params := (&sdk.ListResourcesParams{}); ; pages++ {
		res, err := cs.ListResources(context.Background(), params)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Resources) > 500 {
			t.Errorf("page %d holds %d resources; want at most 500", pages, len(res.Resources))
		}
		for _, r := range res.Resources {
			got = append(got, r.URI)
		}
		if res.NextCursor == "" {
			break
		}
		params = &sdk.ListResourcesParams{Cursor: res.NextCursor}
	}
	if pages != 2 || !slices.Equal(got, want) {
		t.Errorf("%d pages, %d resources; want 3 pages and the %d resources in order", pages+1, len(got), len(want))
	}
	if _, err := cs.ListResources(context.Background(), &sdk.ListResourcesParams{Cursor: "not a cursor!"}); err == nil {
		t.Error("a broken cursor was accepted")
	}
}

// TestResourceCompletion: a template's slug argument completes to the
// active slugs of its kind.
func TestResourceCompletion(t *testing.T) {
	dir := resourceVault(t)
	writeFile(t, dir, "10-episodes/projects/apollo/context.md", "---\nkind: project\n---\n")
	writeFile(t, dir, "10-episodes/domains/apps/context.md", "---\nkind: domain\n---\n")
	cs := nativeSession(t, dir, "en")
	for uri, want := range map[string][]string{
		"kessho://project/{slug}/context":       {"alpha", "apollo"},
		"kessho://domain/{slug}/archive/{name}": {"apps"},
		"file:///{path}":                        {},
	} {
		res, err := cs.Complete(context.Background(), &sdk.CompleteParams{
			Ref:      &sdk.CompleteReference{Type: "ref/resource", URI: uri},
			Argument: sdk.CompleteParamsArgument{Name: "slug", Value: "a"},
		})
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		if !slices.Equal(res.Completion.Values, want) {
			t.Errorf("%s: completions %q; want %q", uri, res.Completion.Values, want)
		}
	}
}

// TestResourceNotifications: a client subscribed to alpha's context is
// told when a call of this server writes it, and when a person edits it
// (the poll); every client is told the list changed when an archive is
// added by hand.
func TestResourceNotifications(t *testing.T) {
	dir := resourceVault(t)
	srv := mcp.NewServer(openVault(t, dir), engine.Native(), mcp.Options{Poll: 20 * time.Millisecond})
	updated := make(chan string, 10)
	listChanged := make(chan struct{}, 10)
	// A client of revision 2025-11-25, as most clients are: the newest
	// revision's clients listen with subscriptions/listen, which the SDK
	// serves with the same handlers and notifications.
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, &sdk.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *sdk.ResourceUpdatedNotificationRequest) {
			updated <- req.Params.URI
		},
		ResourceListChangedHandler: func(context.Context, *sdk.ResourceListChangedRequest) { listChanged <- struct{}{} },
	}).Connect(context.Background(), ct, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	ctx := context.Background()
	uri := "kessho://project/alpha/context"
	if err := cs.Subscribe(ctx, &sdk.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	if err := cs.Subscribe(ctx, &sdk.SubscribeParams{URI: "https://example.com/"}); err == nil {
		t.Error("a subscription to a foreign URI was accepted")
	}
	wait := func(what string, c <-chan string, want string) {
		t.Helper()
		select {
		case got := <-c:
			if got != want {
				t.Errorf("%s: updated %s; want %s", what, got, want)
			}
		case <-time.After(hang):
			t.Fatalf("%s: no resources/updated for %s", what, want)
		}
	}
	call(t, cs, "mem_update_phase", map[string]any{"slug": "alpha", "phase": "notified"})
	wait("a call's write", updated, uri)

	// The poll sees the call's write too, and may say so again: let it,
	// then forget what it said.
	time.Sleep(300 * time.Millisecond)
	for len(updated) > 0 {
		<-updated
	}
	writeFile(t, dir, "10-episodes/projects/alpha/context.md", "---\nkind: project\nphase: by-hand\n---\n")
	wait("an edit by hand", updated, uri)

	writeFile(t, dir, "10-episodes/projects/alpha/archives/2026-11-29-08h00-alpha-hand.md", "x\n")
	select {
	case <-listChanged:
	case <-time.After(hang):
		t.Fatal("no resources/list_changed for an archive added by hand")
	}
	select {
	case got := <-updated:
		t.Errorf("resources/updated for %s, which no edit touched", got)
	case <-time.After(200 * time.Millisecond):
	}
}

// TestCacheScope: every cacheable result that carries the vault's notes
// or their names (a resource read, the resources' and their templates'
// lists) says cacheScope private; the catalogue and the prompts, the same
// for everyone, stay public.
func TestCacheScope(t *testing.T) {
	dir := resourceVault(t)
	cs := nativeSession(t, dir, "en")
	ctx := context.Background()
	read, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "kessho://project/alpha/context"})
	if err != nil {
		t.Fatal(err)
	}
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, got, want string
	}{
		{"resources/read", read.CacheScope, "private"},
		{"resources/list", list.CacheScope, "private"},
		{"resources/templates/list", templates.CacheScope, "private"},
		{"tools/list", tools.CacheScope, "public"},
		{"prompts/list", prompts.CacheScope, "public"},
	} {
		if c.got != c.want {
			t.Errorf("%s: cacheScope %q, want %q", c.name, c.got, c.want)
		}
	}
}
