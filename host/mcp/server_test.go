package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kessho/kessho/core/tools"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/mcp"
)

// TestListTools checks that the server offers every tool of the catalogue,
// with its title, description, annotations and input schema exactly as
// the catalogue states them, in both languages.
func TestListTools(t *testing.T) {
	dir := newVault(t)
	for _, lang := range []string{"en", "fr"} {
		t.Run(lang, func(t *testing.T) {
			cs := nativeSession(t, dir, lang)
			got := map[string]*sdk.Tool{}
			for tool, err := range cs.Tools(context.Background(), nil) {
				if err != nil {
					t.Fatal(err)
				}
				got[tool.Name] = tool
			}
			if len(got) != len(tools.Specs()) {
				t.Errorf("the server lists %d tools, the catalogue holds %d", len(got), len(tools.Specs()))
			}
			for _, want := range tools.Specs() {
				tool, ok := got[want.Name]
				if !ok {
					t.Errorf("tool %s is missing", want.Name)
					continue
				}
				if tool.Title != want.Title.In(lang) || tool.Description != want.Description.In(lang) {
					t.Errorf("%s: title %q, description %q; want the catalogue's", want.Name, tool.Title, tool.Description)
				}
				if tool.Annotations == nil || tool.Annotations.ReadOnlyHint != !want.Writes {
					t.Errorf("%s: annotations %+v; want readOnlyHint %v", want.Name, tool.Annotations, !want.Writes)
				}
				gotSchema := mustJSON(t, tool.InputSchema)
				wantSchema := mustJSON(t, roundTrip(t, want.Schema(lang)))
				if !bytes.Equal(gotSchema, wantSchema) {
					t.Errorf("%s: inputSchema\n got %s\nwant %s", want.Name, gotSchema, wantSchema)
				}
			}
		})
	}
}

// TestCall sets a phase and checks the answer, the structured content and
// the file.
func TestCall(t *testing.T) {
	dir := newVault(t, "alpha")
	cs := nativeSession(t, dir, "en")
	res, a := call(t, cs, "mem_update_phase", map[string]any{"slug": "alpha", "phase": "review"})
	if !a.OK || res.IsError {
		t.Fatalf("call refused: %+v", a.Error)
	}
	var result struct {
		Phase         string `json:"phase"`
		PreviousPhase string `json:"previous_phase"`
	}
	if err := json.Unmarshal(a.Result, &result); err != nil || result.Phase != "review" || result.PreviousPhase != "start" {
		t.Errorf("result = %s (%v); want phase review, previous start", a.Result, err)
	}
	sc, ok := res.StructuredContent.(map[string]any)
	if !ok || sc["phase"] != "review" {
		t.Errorf("structuredContent = %#v; want the result object", res.StructuredContent)
	}
	if got := phaseOf(contextOf(t, dir, "alpha")); got != "review" {
		t.Errorf("context.md phase = %q; want review", got)
	}
}

// TestRefusals checks that refusals are tool errors naming the code, in
// the server's language, and that none harms the session.
func TestRefusals(t *testing.T) {
	dir := newVault(t, "alpha")
	before := contextOf(t, dir, "alpha")
	for _, tc := range []struct {
		name, lang, tool string
		args             any
		code, message    string
	}{
		{"unknown slug", "en", "mem_update_phase", map[string]any{"slug": "nope", "phase": "x"}, "UNKNOWN_SLUG", "nope"},
		{"unknown slug fr", "fr", "mem_update_phase", map[string]any{"slug": "nope", "phase": "x"}, "UNKNOWN_SLUG", "nope"},
		{"wrong type", "en", "mem_update_phase", map[string]any{"slug": "alpha", "phase": 3}, "INVALID_ARGUMENT", "phase"},
		{"missing parameter", "en", "mem_set_summary", map[string]any{"slug": "alpha"}, "INVALID_ARGUMENT", "summary"},
		{"unknown parameter", "en", "mem_set_summary", map[string]any{"slug": "alpha", "summary": "S.", "colour": "red"}, "INVALID_ARGUMENT", "colour"},
		{"arguments not an object", "en", "mem_set_summary", "alpha", "INVALID_ARGUMENT", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := nativeSession(t, dir, tc.lang)
			res, a := call(t, cs, tc.tool, tc.args)
			if !res.IsError || a.Error == nil || a.Error.Code != tc.code {
				t.Fatalf("answer %+v (isError %v); want error %s", a.Error, res.IsError, tc.code)
			}
			if !strings.Contains(a.Error.Message, tc.message) {
				t.Errorf("message %q does not name %q", a.Error.Message, tc.message)
			}
			if res.StructuredContent != nil {
				t.Errorf("a refusal has structuredContent %v", res.StructuredContent)
			}
			// The session goes on.
			if _, a := call(t, cs, "mem_set_summary", map[string]any{"slug": "alpha", "summary": "Start."}); !a.OK {
				t.Errorf("the call after a refusal failed: %+v", a.Error)
			}
		})
	}
	if after := contextOf(t, dir, "alpha"); after != before {
		t.Errorf("refusals changed context.md:\n%s", after)
	}
}

// TestUnknownTool checks that calling a tool the server does not offer is
// a protocol error, and the session goes on.
func TestUnknownTool(t *testing.T) {
	dir := newVault(t, "alpha")
	cs := nativeSession(t, dir, "en")
	_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "mem_nothing", Arguments: map[string]any{}})
	if err == nil || !strings.Contains(err.Error(), "mem_nothing") {
		t.Errorf("CallTool(mem_nothing) error = %v; want an unknown tool error", err)
	}
	if _, a := call(t, cs, "mem_update_phase", map[string]any{"slug": "alpha", "phase": "next"}); !a.OK {
		t.Errorf("the call after an unknown tool failed: %+v", a.Error)
	}
}

// TestConcurrentCalls runs 20 calls at once on 20 projects through one
// session: every call lands.
func TestConcurrentCalls(t *testing.T) {
	const n = 20
	slugs := make([]string, n)
	for i := range slugs {
		slugs[i] = fmt.Sprintf("p%02d", i)
	}
	dir := newVault(t, slugs...)
	cs := nativeSession(t, dir, "en")
	var wg sync.WaitGroup
	for _, s := range slugs {
		wg.Go(func() {
			res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "mem_update_phase",
				Arguments: map[string]any{"slug": s, "phase": "phase-of-" + s}})
			if err != nil {
				t.Errorf("%s: %v", s, err)
				return
			}
			if res.IsError {
				t.Errorf("%s: %v", s, res.Content[0].(*sdk.TextContent).Text)
			}
		})
	}
	wg.Wait()
	for _, s := range slugs {
		if got := phaseOf(contextOf(t, dir, s)); got != "phase-of-"+s {
			t.Errorf("%s: phase %q; want phase-of-%s", s, got, s)
		}
	}
}

// recorder is an engine that keeps the requests it runs.
type recorder struct {
	mu   sync.Mutex
	reqs []map[string]any
}

func (r *recorder) Call(ctx context.Context, req []byte) ([]byte, error) {
	var m map[string]any
	json.Unmarshal(req, &m)
	r.mu.Lock()
	r.reqs = append(r.reqs, m)
	r.mu.Unlock()
	return engine.Native().Call(ctx, req)
}

// TestCallOptions checks that each call carries the server's zone and
// language, and its own time: the fixed one when set, else the time of the
// call.
func TestCallOptions(t *testing.T) {
	dir := newVault(t, "alpha")
	var fixed, live recorder
	csFixed := connect(t, mcp.NewServer(openVault(t, dir), &fixed,
		mcp.Options{Lang: "fr", TZ: "Europe/Paris", Now: func() time.Time { return fixedNow }}))
	csLive := connect(t, mcp.NewServer(openVault(t, dir), &live, mcp.Options{}))

	call(t, csFixed, "mem_update_phase", map[string]any{"slug": "alpha", "phase": "a"})
	start := time.Now().Truncate(time.Second)
	call(t, csLive, "mem_update_phase", map[string]any{"slug": "alpha", "phase": "b"})
	end := time.Now()

	for _, r := range fixed.reqs {
		if r["now"] != fixedNow.Format(time.RFC3339) || r["tz"] != "Europe/Paris" || r["lang"] != "fr" {
			t.Errorf("fixed server sent now=%v tz=%v lang=%v", r["now"], r["tz"], r["lang"])
		}
	}
	for _, r := range live.reqs {
		now, err := time.Parse(time.RFC3339, fmt.Sprint(r["now"]))
		if err != nil || now.Before(start) || now.After(end) {
			t.Errorf("live server sent now=%v; want the time of the call, between %v and %v", r["now"], start, end)
		}
		if tz, _ := r["tz"].(string); tz != "" {
			t.Errorf("live server sent tz=%q; want none (UTC)", tz)
		}
	}
	if len(fixed.reqs) == 0 || len(live.reqs) == 0 {
		t.Fatal("the engines saw no request")
	}
}

// TestInitializeDoesNotWaitForEngine checks that a client initializes and
// lists the tools while the engine is still starting, and that the first
// call waits for it, without holding the vault's lock meanwhile.
func TestInitializeDoesNotWaitForEngine(t *testing.T) {
	dir := newVault(t, "alpha")
	release := make(chan struct{})
	eng := mcp.Background(func(ctx context.Context) (mcp.Engine, error) {
		<-release
		return nativeCloser{}, nil
	})
	defer eng.Close(context.Background())

	ctx, cancel := context.WithTimeout(context.Background(), hang)
	defer cancel()
	cs := connect(t, mcp.NewServer(openVault(t, dir), eng, mcp.Options{}))
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatalf("ListTools while the engine starts: %v", err)
	}
	done := make(chan answer, 1)
	go func() {
		_, a := call(t, cs, "mem_update_phase", map[string]any{"slug": "alpha", "phase": "waited"})
		done <- a
	}()
	select {
	case a := <-done:
		t.Fatalf("the call returned before the engine started: %+v", a)
	case <-time.After(100 * time.Millisecond):
	}
	// The waiting call does not hold the vault's lock: other writers go on.
	lockCtx, cancelLock := context.WithTimeout(ctx, time.Second)
	defer cancelLock()
	other := openVault(t, dir)
	l, err := other.Lock(lockCtx)
	if err != nil {
		t.Fatalf("a call waiting for the engine holds the vault's lock: %v", err)
	}
	l.Unlock()
	close(release)
	if a := <-done; !a.OK {
		t.Fatalf("the call failed: %+v", a.Error)
	}
	if got := phaseOf(contextOf(t, dir, "alpha")); got != "waited" {
		t.Errorf("phase = %q; want waited", got)
	}
}

// TestEngineFailsToStart checks that an engine that cannot start makes
// every call an INTERNAL tool error, and the server stays up.
func TestEngineFailsToStart(t *testing.T) {
	dir := newVault(t, "alpha")
	eng := mcp.Background(func(ctx context.Context) (mcp.Engine, error) {
		return nil, errors.New("no module")
	})
	defer eng.Close(context.Background())
	cs := connect(t, mcp.NewServer(openVault(t, dir), eng, mcp.Options{}))
	for range 2 {
		res, a := call(t, cs, "mem_update_phase", map[string]any{"slug": "alpha", "phase": "x"})
		if !res.IsError || a.Error == nil || a.Error.Code != "INTERNAL" || !strings.Contains(a.Error.Message, "no module") {
			t.Errorf("answer %+v; want INTERNAL naming the cause", a.Error)
		}
	}
}

// nativeCloser is the native engine with a Close.
type nativeCloser struct{}

func (nativeCloser) Call(ctx context.Context, req []byte) ([]byte, error) {
	return engine.Native().Call(ctx, req)
}

func (nativeCloser) Close(context.Context) error { return nil }

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// roundTrip returns v as a client decodes it: marshalled, then
// unmarshalled into an any.
func roundTrip(t testing.TB, v any) any {
	t.Helper()
	var out any
	if err := json.Unmarshal(mustJSON(t, v), &out); err != nil {
		t.Fatal(err)
	}
	return out
}
