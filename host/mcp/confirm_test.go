package mcp_test

import (
	"bytes"
	"cmp"
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/internal/conformance"
	"github.com/kessho/kessho/host/mcp"
)

// TestConfirmElicitation: a client that declared elicitation is asked,
// before mem_rollback_archive or mem_archive_rewrite_paths confirm=true
// writes, the core's one sentence saying what will be deleted or
// rewritten, in the call's language; accept writes, decline and cancel
// write nothing and answer DECLINED with the user's answer; a client
// without elicitation is never asked and the call writes as it always
// did; a dry run asks nothing.
func TestConfirmElicitation(t *testing.T) {
	const archive = "10-episodes/projects/alpha/archives/2026-11-26-16h40-alpha-reader-cache.md"
	tools := []struct {
		tool     string
		args     map[string]any
		question map[string][]string // by language: what the question says
		wrote    func(before, after map[string][]byte) bool
	}{
		{"mem_rollback_archive", map[string]any{"slug": "alpha"},
			map[string][]string{"en": {"Delete " + archive, "alpha", "history.md"}, "fr": {"Supprimer définitivement " + archive, "alpha", "history.md"}},
			func(before, after map[string][]byte) bool {
				_, kept := after[archive]
				return !kept && before[archive] != nil
			}},
		{"mem_archive_rewrite_paths", map[string]any{"slug": "alpha", "confirm": true},
			map[string][]string{"en": {"Rewrite 1 path(s) under /home/ada/src/alpha", "alpha"}, "fr": {"Réécrire en `<repo>/…` 1 chemin(s) sous /home/ada/src/alpha", "alpha"}},
			func(before, after map[string][]byte) bool {
				return bytes.Contains(before[archive], []byte("/home/ada/src/alpha/reader")) && bytes.Contains(after[archive], []byte("<repo>/reader"))
			}},
	}
	for _, tc := range tools {
		for _, revision := range []string{"", "2025-11-25"} { // the client's newest, and one before multi round-trip requests
			for _, c := range []struct {
				name, lang string
				action     string // the user's answer; "" for a client without elicitation
				writes     bool
			}{
				{"accept", "en", "accept", true},
				{"accept in French", "fr", "accept", true},
				{"decline", "en", "decline", false},
				{"cancel", "fr", "cancel", false},
				{"no elicitation", "en", "", true},
			} {
				t.Run(tc.tool+"/"+c.name+"/"+cmp.Or(revision, "newest"), func(t *testing.T) {
					dir := clientVault(t)
					before := tree(t, dir)
					var asked []*sdk.ElicitParams
					opts := &sdk.ClientOptions{}
					if c.action != "" {
						opts.ElicitationHandler = func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
							asked = append(asked, req.Params)
							return &sdk.ElicitResult{Action: c.action}, nil
						}
					}
					srv := mcp.NewServer(openVault(t, dir), engine.Native(),
						mcp.Options{Lang: c.lang, TZ: "Europe/Paris", Now: func() time.Time { return fixedNow }})
					cs := connectAt(t, srv, opts, revision)
					if revision != "" && cs.InitializeResult().ProtocolVersion != revision {
						t.Fatalf("the session's revision is %s; want %s", cs.InitializeResult().ProtocolVersion, revision)
					}
					_, a := call(t, cs, tc.tool, tc.args)
					after := tree(t, dir)

					if c.action == "" {
						if len(asked) != 0 {
							t.Errorf("a client without elicitation was asked %v", asked)
						}
					} else if len(asked) != 1 {
						t.Fatalf("asked %d times; want once", len(asked))
					} else {
						for _, part := range tc.question[c.lang] {
							if !strings.Contains(asked[0].Message, part) {
								t.Errorf("question %q; want it to say %q", asked[0].Message, part)
							}
						}
						if strings.Count(strings.TrimSuffix(asked[0].Message, "?"), "?") != 0 || !strings.HasSuffix(asked[0].Message, "?") {
							t.Errorf("question %q; want one sentence, a question", asked[0].Message)
						}
					}
					if c.writes {
						if !a.OK || !tc.wrote(before, after) {
							t.Errorf("answer %+v; want the call to write", a)
						}
						return
					}
					if a.OK || a.Error == nil || a.Error.Code != "DECLINED" || a.Error.Details["action"] != c.action {
						t.Errorf("answer %+v; want DECLINED, action %q", a, c.action)
					} else if want := map[string]string{"en": "nothing was written", "fr": "rien n'a été écrit"}[c.lang]; !strings.Contains(a.Error.Message, want) {
						t.Errorf("message %q; want it to say %q", a.Error.Message, want)
					}
					if !maps.EqualFunc(before, after, bytes.Equal) {
						t.Errorf("declined, the vault changed")
					}
				})
			}
		}
	}

	t.Run("a dry run asks nothing", func(t *testing.T) {
		dir := clientVault(t)
		var asked int
		cs := connectWith(t, mcp.NewServer(openVault(t, dir), engine.Native(), mcp.Options{TZ: "Europe/Paris", Now: func() time.Time { return fixedNow }}),
			&sdk.ClientOptions{ElicitationHandler: func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
				asked++
				return &sdk.ElicitResult{Action: "decline"}, nil
			}})
		if _, a := call(t, cs, "mem_archive_rewrite_paths", map[string]any{"slug": "alpha"}); !a.OK || asked != 0 {
			t.Errorf("dry run: answer %+v, asked %d times; want a success, no question", a, asked)
		}
		if _, a := call(t, cs, "mem_update_phase", map[string]any{"slug": "alpha", "phase": "build"}); !a.OK || asked != 0 {
			t.Errorf("mem_update_phase: answer %+v, asked %d times; want a success, no question", a, asked)
		}
	})
}

// tree is every file of the vault in dir.
func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files, err := conformance.ReadTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestConfirmRetry: the client of the newest revision that handles the
// input request itself (no automatic multi round-trip): the first call
// writes nothing and asks; a yes with a request state the server did not
// seal, or sealed for other arguments, or for a question the plan no
// longer gives (the vault changed meanwhile), writes nothing and asks
// again; a yes with the state as sealed writes.
func TestConfirmRetry(t *testing.T) {
	dir := clientVault(t)
	srv := mcp.NewServer(openVault(t, dir), engine.Native(), mcp.Options{TZ: "Europe/Paris", Now: func() time.Time { return fixedNow }})
	cs := connectWith(t, srv, &sdk.ClientOptions{
		MultiRoundTrip: &sdk.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			t.Error("the server sent elicitation/create to a client of the newest revision")
			return &sdk.ElicitResult{Action: "decline"}, nil
		},
	})
	args := map[string]any{"slug": "alpha", "confirm": true}
	send := func(args map[string]any, state string) *sdk.CallToolResult {
		t.Helper()
		p := &sdk.CallToolParams{Name: "mem_archive_rewrite_paths", Arguments: args}
		if state != "" {
			p.RequestState = state
			p.InputResponses = sdk.InputResponseMap{"confirm": &sdk.ElicitResult{Action: "accept"}}
		}
		res, err := cs.CallTool(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	question := func(res *sdk.CallToolResult) string {
		t.Helper()
		e, ok := res.InputRequests["confirm"].(*sdk.ElicitParams)
		if !res.NeedsInput() || !ok || res.RequestState == "" {
			t.Fatalf("result %+v; want an input-required result asking for the confirmation", res)
		}
		return e.Message
	}
	before := tree(t, dir)
	first := send(args, "")
	q1 := question(first)
	if !maps.EqualFunc(before, tree(t, dir), bytes.Equal) {
		t.Fatal("asking wrote")
	}
	for name, state := range map[string]string{
		"forged":         first.RequestState[:len(first.RequestState)-2] + "AA",
		"other args":     send(map[string]any{"slug": "alpha", "confirm": true, "include_context_history": false}, "").RequestState,
		"not base64":     "%%%.%%%",
		"without a seal": strings.Split(first.RequestState, ".")[0],
	} {
		if q := question(send(args, state)); q != q1 || !maps.EqualFunc(before, tree(t, dir), bytes.Equal) {
			t.Errorf("%s state: asked %q; want the question again, nothing written", name, q)
		}
	}
	// The vault changes after the question: a second path to rewrite.
	ctxPath := filepath.Join(dir, "10-episodes", "projects", "alpha", "context.md")
	text, err := os.ReadFile(ctxPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ctxPath, append(text, "\nSee /home/ada/src/alpha/notes.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	changed := tree(t, dir)
	again := send(args, first.RequestState)
	if q2 := question(again); q2 == q1 || !strings.Contains(q2, "2 path(s)") || !maps.EqualFunc(changed, tree(t, dir), bytes.Equal) {
		t.Errorf("after the change: asked %q; want the new question (2 paths), nothing written", q2)
	}
	res := send(args, again.RequestState)
	if res.NeedsInput() || res.IsError {
		t.Fatalf("yes to the question asked: %+v; want the rewrite", res)
	}
	if a := decode(t, res); !a.OK || !strings.Contains(string(a.Result), `"paths_rewritten":2`) {
		t.Errorf("answer %+v; want 2 paths rewritten", a)
	}
}

// connectAt is connectWith for a client that asks for the protocol
// revision given ("" for its newest).
func connectAt(t *testing.T, srv *sdk.Server, opts *sdk.ClientOptions, revision string) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, opts).Connect(ctx, ct, &sdk.ClientSessionOptions{ProtocolVersion: revision})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// TestConfirmChangedWhileAsked: on 2025-11-25 (the SDK sends the
// elicitation and calls the handler again once), a vault that changes
// while the user is asked (here, a second path to rewrite) makes the
// call after the yes a CONFLICT that writes nothing, not a rewrite of
// what the user did not see.
func TestConfirmChangedWhileAsked(t *testing.T) {
	dir := clientVault(t)
	ctxPath := filepath.Join(dir, "10-episodes", "projects", "alpha", "context.md")
	srv := mcp.NewServer(openVault(t, dir), engine.Native(), mcp.Options{TZ: "Europe/Paris", Now: func() time.Time { return fixedNow }})
	cs := connectAt(t, srv, &sdk.ClientOptions{ElicitationHandler: func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
		text, err := os.ReadFile(ctxPath)
		if err == nil {
			err = os.WriteFile(ctxPath, append(text, "\nSee /home/ada/src/alpha/notes.\n"...), 0o644)
		}
		if err != nil {
			t.Error(err)
		}
		return &sdk.ElicitResult{Action: "accept"}, nil
	}}, "2025-11-25")
	_, a := call(t, cs, "mem_archive_rewrite_paths", map[string]any{"slug": "alpha", "confirm": true})
	if a.OK || a.Error == nil || a.Error.Code != "CONFLICT" || !strings.Contains(a.Error.Message, "2 path(s)") {
		t.Fatalf("answer %+v; want CONFLICT naming the new question", a)
	}
	after := tree(t, dir)
	for p, b := range after {
		if bytes.Contains(b, []byte("<repo>/")) {
			t.Errorf("%s was rewritten", p)
		}
	}
}
