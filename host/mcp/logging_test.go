//lint:file-ignore SA1019 logging is deprecated from protocol 2026-07-28 on, and still served: this tests it

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

	"github.com/kessho/kessho/core/hostlogic"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/mcp"
)

// TestLogWarnings checks that the server declares logging, and that a
// tool's warnings reach a client that asked for a log level as warning log
// messages naming the tool, and no client that did not. The SDK's client
// speaks the newest protocol, where the level rides on each request's
// _meta (older clients set it with logging/setLevel; the SDK reads
// either).
func TestLogWarnings(t *testing.T) {
	dir := newVault(t, "alpha") // no history.md: mem_read_history warns
	srv := mcp.NewServer(openVault(t, dir), engine.Native(), mcp.Options{})
	logs := make(chan *sdk.LoggingMessageParams, 10)
	handler := func(_ context.Context, req *sdk.LoggingMessageRequest) { logs <- req.Params }
	cs := connectWith(t, srv, &sdk.ClientOptions{LoggingMessageHandler: handler})
	if caps := cs.InitializeResult().Capabilities; caps.Logging == nil {
		t.Errorf("capabilities %+v declare no logging", caps)
	}

	// No level set: no message.
	_, a := call(t, cs, "mem_read_history", map[string]any{"slug": "alpha"})
	if !a.OK || !strings.Contains(string(a.Result), "history.md") {
		t.Fatalf("mem_read_history: %+v %s; want a warning about history.md", a.Error, a.Result)
	}
	select {
	case m := <-logs:
		t.Fatalf("a message before the client set a level: %+v", m)
	default:
	}

	callAtLevel(t, cs, "warning")
	select {
	case m := <-logs:
		text := fmt.Sprint(m.Data)
		if m.Level != "warning" || m.Logger != "kessho" || !strings.Contains(text, "mem_read_history") || !strings.Contains(text, "history.md") {
			t.Errorf("log message %+v; want a warning from kessho naming the tool and history.md", m)
		}
	case <-time.After(hang):
		t.Fatal("no log message for the tool's warning")
	}
	// A level above warning silences them.
	callAtLevel(t, cs, "error")
	select {
	case m := <-logs:
		t.Errorf("a warning sent at level error: %+v", m)
	case <-time.After(100 * time.Millisecond):
	}
}

// callAtLevel calls mem_read_history on alpha asking for log messages of
// level and above.
func callAtLevel(t testing.TB, cs *sdk.ClientSession, level string) {
	t.Helper()
	params := &sdk.CallToolParams{Name: "mem_read_history", Arguments: map[string]any{"slug": "alpha"},
		Meta: sdk.Meta{sdk.MetaKeyLogLevel: level}}
	if _, err := cs.CallTool(context.Background(), params); err != nil {
		t.Fatal(err)
	}
}

// TestLogRecovered leaves a journal as a crash would (a plan of two
// writes, neither landed): the next call finishes it, and its client, who
// asked for warnings, is told which files, from which tool; the call
// after it, with nothing to recover, says nothing.
func TestLogRecovered(t *testing.T) {
	dir := newVault(t, "alpha")
	p := plan.Plan{
		plan.WriteOp("10-episodes/projects/alpha/a.md", plan.Absent, "A\n"),
		plan.WriteOp("10-episodes/projects/alpha/b.md", plan.Absent, "B\n"),
	}
	j := hostlogic.NewJournal(p, fixedNow, "crash")
	data, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, hostlogic.JournalPath(j.ID), string(data))

	srv := mcp.NewServer(openVault(t, dir), engine.Native(), mcp.Options{})
	logs := make(chan *sdk.LoggingMessageParams, 10)
	cs := connectWith(t, srv, &sdk.ClientOptions{LoggingMessageHandler: func(_ context.Context, req *sdk.LoggingMessageRequest) { logs <- req.Params }})
	readContext := func() {
		t.Helper()
		params := &sdk.CallToolParams{Name: "mem_read_context", Arguments: map[string]any{"slug": "alpha"},
			Meta: sdk.Meta{sdk.MetaKeyLogLevel: "warning"}}
		if res, err := cs.CallTool(context.Background(), params); err != nil || res.IsError {
			t.Fatalf("mem_read_context: %v %v", err, res)
		}
	}
	readContext()
	select {
	case m := <-logs:
		data, _ := json.Marshal(m.Data)
		text := string(data)
		if m.Level != "warning" || m.Logger != "kessho" || !strings.Contains(text, "mem_read_context") || !strings.Contains(text, j.ID) ||
			!strings.Contains(text, `"files":["10-episodes/projects/alpha/a.md","10-episodes/projects/alpha/b.md"]`) || !strings.Contains(text, "interrupted") {
			t.Errorf("log message %+v %s; want a warning from kessho naming the tool, the journal and both files", m, text)
		}
	case <-time.After(hang):
		t.Fatal("no log message for the recovered journal")
	}
	for _, f := range []string{"a.md", "b.md"} {
		if _, err := os.Stat(filepath.Join(dir, "10-episodes", "projects", "alpha", f)); err != nil {
			t.Errorf("the recovered plan's %s: %v", f, err)
		}
	}
	readContext()
	select {
	case m := <-logs:
		t.Errorf("a call with nothing to recover logged %+v", m)
	case <-time.After(100 * time.Millisecond):
	}
}
