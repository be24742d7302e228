package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/mcp"
	"github.com/kessho/kessho/host/vaultfs"
)

// hang bounds a wait in a test: a thing that has not happened after it
// never will. It bounds a hang, not how long a thing may take: a loaded
// machine may take seconds where an idle one takes a millisecond.
const hang = 2 * time.Minute

// fixedNow is the time of every call in tests that fix it.
var fixedNow = time.Date(2026, 11, 30, 10, 15, 0, 0, time.FixedZone("CET", 3600))

// newVault makes a vault in a temporary folder holding one active project
// per slug, each with phase "start" and summary "Start.".
func newVault(t testing.TB, slugs ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, s := range slugs {
		p := filepath.Join(dir, "10-episodes", "projects", s)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		text := "---\nkind: project\nphase: start\nsummary: Start.\n---\n# " + s + "\n\nThe context.\n"
		if err := os.WriteFile(filepath.Join(p, "context.md"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// contextOf returns the text of slug's context.md.
func contextOf(t testing.TB, dir, slug string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "10-episodes", "projects", slug, "context.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// openVault opens dir and closes it when the test ends.
func openVault(t testing.TB, dir string) *vaultfs.Vault {
	t.Helper()
	v, err := vaultfs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return v
}

// connect runs srv over the SDK's in-memory transports and returns a
// client session on it, closed when the test ends.
func connect(t testing.TB, srv *sdk.Server) *sdk.ClientSession {
	t.Helper()
	return connectWith(t, srv, nil)
}

// nativeSession serves the vault in dir with the native engine, at
// fixedNow, in Europe/Paris, and returns a client session on it.
func nativeSession(t testing.TB, dir, lang string) *sdk.ClientSession {
	t.Helper()
	srv := mcp.NewServer(openVault(t, dir), engine.Native(),
		mcp.Options{Lang: lang, TZ: "Europe/Paris", Now: func() time.Time { return fixedNow }})
	return connect(t, srv)
}

// answer is a tool call's answer, read from its text content.
type answer struct {
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details"`
	} `json:"error"`
}

// call calls tool with args and returns the result and its answer. A
// protocol error fails the test.
func call(t testing.TB, cs *sdk.ClientSession, tool string, args any) (*sdk.CallToolResult, answer) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s, %v): %v", tool, args, err)
	}
	return res, decode(t, res)
}

// decode reads the answer in the result's one text content: a refusal's
// answer, or a success's result (the model's view, the same JSON as its
// structuredContent).
func decode(t testing.TB, res *sdk.CallToolResult) answer {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("result has %d contents, want 1 text", len(res.Content))
	}
	text, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		t.Fatalf("result content is %T, want *TextContent", res.Content[0])
	}
	if !res.IsError {
		if sc, err := json.Marshal(res.StructuredContent); err != nil || !jsonEqual(sc, []byte(text.Text)) {
			t.Errorf("text content %s; want the structuredContent's JSON %s", text.Text, sc)
		}
		return answer{OK: true, Result: json.RawMessage(text.Text)}
	}
	var a answer
	if err := json.Unmarshal([]byte(text.Text), &a); err != nil {
		t.Fatalf("text content is not an answer: %v\n%s", err, text.Text)
	}
	if a.OK == res.IsError {
		t.Errorf("answer ok=%v but isError=%v: %s", a.OK, res.IsError, text.Text)
	}
	return a
}

// phaseOf returns the phase written in a context.md's frontmatter.
func phaseOf(text string) string {
	return field(text, "phase")
}

func field(text, key string) string {
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(line, key+": "); ok {
			return v
		}
	}
	return fmt.Sprintf("(no %s)", key)
}
