package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kessho/kessho/core/tools"
	hostcall "github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/mcp"
	"github.com/kessho/kessho/host/vaultfs"
)

// The clients' test: what a real MCP client does with `kessho mcp`, run
// as a subprocess, over stdio and over streamable HTTP, by the Go SDK's
// client here and by the official TypeScript SDK's client in tsclient/
// (`make test-mcp-clients`). Both read the same files in
// testdata/clients: the vault, calls.json (every tool once, each
// succeeding: each tool's example call, from its text file, in the order
// of the tools' names) and tools.json (each tool's annotations and output
// schema as this package serves them). TestClientsFiles keeps both
// current: they are made from the catalogue.

var updateClients = flag.Bool("update-clients", false, "rewrite testdata/clients/calls.json and tools.json from the catalogue")

// clientCall is one call of testdata/clients/calls.json.
type clientCall struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
}

// clientCalls is testdata/clients/calls.json.
type clientCalls struct {
	Comment string       `json:"comment"`
	Calls   []clientCall `json:"calls"`
}

// callsComment is calls.json's comment.
const callsComment = "Made by go test ./host/mcp -run TestClientsFiles -update-clients: the calls both client tests (clients_test.go, tsclient/) make in order, on a copy of vault/, served with --now 2026-11-30T10:15:00+01:00 --tz Europe/Paris: every tool's example (its text file's example), in the order of the tools' names, each succeeding."

// exampleCalls is every tool's example call, in the order of the tools'
// names: what calls.json holds.
func exampleCalls() clientCalls {
	calls := clientCalls{Comment: callsComment}
	for _, spec := range tools.Specs() {
		calls.Calls = append(calls.Calls, clientCall{spec.Name, spec.Example})
	}
	return calls
}

// servedTool is a tool's entry in testdata/clients/tools.json.
type servedTool struct {
	Annotations  *sdk.ToolAnnotations `json:"annotations"`
	OutputSchema any                  `json:"outputSchema"`
}

// servedTools is each tool as served: what tools.json holds.
func servedTools(t *testing.T) map[string]servedTool {
	all := map[string]servedTool{}
	for _, spec := range tools.Specs() {
		tool := mcp.Tool(spec, "en")
		all[spec.Name] = servedTool{tool.Annotations, roundTrip(t, tool.OutputSchema)}
	}
	return all
}

// indented is v as the files of testdata/clients hold it.
func indented(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestClientsFiles checks that testdata/clients/calls.json and tools.json
// hold what the catalogue makes of them (go test -run TestClientsFiles
// -update-clients rewrites them).
func TestClientsFiles(t *testing.T) {
	for name, want := range map[string][]byte{
		"calls.json": indented(t, exampleCalls()),
		"tools.json": indented(t, servedTools(t)),
	} {
		name = filepath.Join("testdata", "clients", name)
		if *updateClients {
			if err := os.WriteFile(name, want, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(name)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is stale (%v): run go test ./host/mcp -run TestClientsFiles -update-clients", name, err)
		}
	}
}

// TestClientsCalls makes calls.json's calls as the clients' tests do, in
// order on a copy of the clients' vault, but in this process, on the
// native engine: each must succeed. It says at once, without a server,
// which example fails (a new tool's example runs after those of the tools
// before it by name).
func TestClientsCalls(t *testing.T) {
	dir := clientVault(t)
	v, err := vaultfs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	opts := hostcall.Options{Now: time.Date(2026, 11, 30, 10, 15, 0, 0, time.FixedZone("CET", 3600)), TZ: "Europe/Paris"}
	for i, c := range exampleCalls().Calls {
		out, err := hostcall.Run(context.Background(), v, engine.Native(), c.Tool, mustJSON(t, c.Args), opts)
		if err != nil || !out.OK {
			t.Errorf("call %d, %s %s: %s %v", i, c.Tool, mustJSON(t, c.Args), out.Answer, err)
		}
	}
}

// clientVault copies testdata/clients/vault to a new folder.
func clientVault(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "clients", "vault"))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// clientArgs are the flags both client tests serve with: the calls'
// answers then do not depend on the day; --engine wasm makes the first
// call wait for the sandbox to compile (without it, it would answer at
// once on the native engine: TestStdioColdStartNative), so that it can
// be cancelled while it waits.
var clientArgs = []string{"--now", "2026-11-30T10:15:00+01:00", "--tz", "Europe/Paris", "--engine", "wasm"}

// coldCache is an environment whose wasm compilation cache is new: the
// server's sandbox compiles the module before its first call.
func coldCache(t *testing.T) []string {
	return []string{"XDG_CACHE_HOME=" + t.TempDir()}
}

// TestGoClientStdio runs the clients' test with the Go SDK's client over
// stdio, the server started with a cold compilation cache.
func TestGoClientStdio(t *testing.T) {
	dir := clientVault(t)
	log := newProgressLog()
	cmd := kesshoCmd(t, dir, clientArgs...)
	cmd.Env = append(cmd.Env, coldCache(t)...)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "go-client-test", Version: "1"},
		&sdk.ClientOptions{ProgressNotificationHandler: log.handle}).
		Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("starting kessho mcp: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	exercise(t, cs, dir, log)
}

// TestGoClientHTTP runs the clients' test with the Go SDK's client over
// streamable HTTP, with a token, the server started with a cold
// compilation cache. The client speaks the newest protocol revision.
func TestGoClientHTTP(t *testing.T) {
	dir := clientVault(t)
	url, _ := startHTTP(t, dir, coldCache(t), append([]string{"--token", "s3cret"}, clientArgs...)...)
	log := newProgressLog()
	tr := &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearerTransport{"s3cret"}}, MaxRetries: -1}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "go-client-test", Version: "1"},
		&sdk.ClientOptions{ProgressNotificationHandler: log.handle}).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if got, newest := cs.InitializeResult().ProtocolVersion, sdk.SupportedProtocolVersions()[0]; got != newest {
		t.Errorf("protocol %s; want the newest, %s", got, newest)
	}
	exercise(t, cs, dir, log)
}

// exercise is the clients' test on a session of a server whose engine is
// still compiling, on a copy of testdata/clients/vault.
func exercise(t *testing.T, cs *sdk.ClientSession, dir string, log *progressLog) {
	ctx := context.Background()

	// A cold start: the first call is told it waits for the engine; it is
	// cancelled then, and ends at once, having written nothing (the
	// calls below find phase "start" where it would have set another).
	callCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		params := &sdk.CallToolParams{Name: "mem_update_phase", Arguments: map[string]any{"slug": "alpha", "phase": "cancelled"}}
		params.SetProgressToken("cold")
		_, err := cs.CallTool(callCtx, params)
		done <- err
	}()
	notes := waitNotes(t, log, 1)
	if notes[0].ProgressToken != "cold" || !strings.Contains(notes[0].Message, "engine") {
		t.Errorf("first progress notification %+v; want the engine's start, for token cold", notes[0])
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the cancelled call returned %v; want context.Canceled", err)
		}
	case <-time.After(hang):
		t.Fatal("the cancelled call did not end")
	}

	// Tools: every one of the catalogue, annotations and output schema as
	// tools.json says.
	served := servedTools(t)
	listed, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas := listedSchemas(t, cs)
	var names []string
	for _, tool := range listed.Tools {
		names = append(names, tool.Name)
		want, ok := served[tool.Name]
		if !ok {
			t.Errorf("tool %s is not in the catalogue", tool.Name)
			continue
		}
		if got, want := mustJSON(t, tool.Annotations), mustJSON(t, want.Annotations); !bytes.Equal(got, want) {
			t.Errorf("%s: annotations %s; want %s", tool.Name, got, want)
		}
		if got, want := mustJSON(t, roundTrip(t, tool.OutputSchema)), mustJSON(t, want.OutputSchema); !bytes.Equal(got, want) {
			t.Errorf("%s: outputSchema %s; want %s", tool.Name, got, want)
		}
	}
	if len(names) != len(served) {
		t.Errorf("tools %q; want the catalogue's %d", names, len(served))
	}

	// Every tool called, structuredContent valid against its schema.
	called := map[string]bool{}
	for i, c := range exampleCalls().Calls {
		res, a := call(t, cs, c.Tool, c.Args)
		if !a.OK {
			t.Errorf("call %d, %s: refused: %+v", i, c.Tool, a.Error)
			continue
		}
		if err := validate(schemas[c.Tool], res.StructuredContent); err != nil {
			t.Errorf("call %d, %s: structuredContent does not match its outputSchema: %v", i, c.Tool, err)
		}
		if c.Tool == "mem_update_phase" && !strings.Contains(string(a.Result), `"previous_phase":"start"`) {
			t.Errorf("mem_update_phase: %s; want previous_phase start (the cancelled call landed?)", a.Result)
		}
		called[c.Tool] = true
	}
	for _, name := range names {
		if !called[name] {
			t.Errorf("calls.json never calls %s", name)
		}
	}

	// Prompts, resources and templates.
	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var promptNames []string
	for _, p := range prompts.Prompts {
		promptNames = append(promptNames, p.Name)
	}
	if slices.Sort(promptNames); !slices.Equal(promptNames, []string{"archive-session", "start-session"}) {
		t.Errorf("prompts %q", promptNames)
	}
	got, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "start-session", Arguments: map[string]string{"slug": "alpha"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := got.Messages[0].Content.(*sdk.TextContent).Text; !strings.Contains(text, "alpha") || !strings.Contains(text, "Building the first version.") {
		t.Errorf("start-session: %q; want alpha's recall", text)
	}
	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(templates.ResourceTemplates) != 6 {
		t.Fatalf("resource templates: %v %v; want 6", templates, err)
	}
	resources, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	uri := "kessho://project/alpha/context"
	if !slices.ContainsFunc(resources.Resources, func(r *sdk.Resource) bool { return r.URI == uri }) {
		t.Errorf("resources/list does not list %s", uri)
	}
	read, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatal(err)
	}
	if want := contextOf(t, dir, "alpha"); len(read.Contents) != 1 || read.Contents[0].Text != want || read.Contents[0].MIMEType != "text/markdown" {
		t.Errorf("%s: %+v; want context.md's text %q", uri, read.Contents, want)
	}
}
