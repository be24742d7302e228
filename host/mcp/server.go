// Package mcp serves Kessho's tools over the Model Context Protocol, with
// the official Go SDK (github.com/modelcontextprotocol/go-sdk).
//
// Every tool of the catalogue is offered as it is: its name, title,
// description and input JSON Schema come from [catalog.Tool], in the
// server's language, and a call runs through [call.Run] like every other
// host's, and ends as it does: the answer the call returns is the answer
// sent. Nothing here names a tool or a parameter, so a tool
// added to the catalogue is served without a line changed in this package.
//
//	v, _ := vaultfs.Open(dir)
//	eng := mcp.Background(func(ctx context.Context) (mcp.Engine, error) { return engine.NewWasm(ctx, engine.WasmOptions{}) })
//	srv := mcp.NewServer(v, eng, mcp.Options{Lang: "fr", TZ: "Europe/Paris"})
//	err := mcp.ServeStdio(ctx, srv, os.Stdin, os.Stdout)
//
// A call answers the same JSON as `kessho call` prints, as text content:
// {"ok":true,"result":{…}} (the result object also as structuredContent),
// or {"ok":false,"error":{"code":…,"message":…,"details":…}} with isError
// set, so that the agent reads the code and the message and can correct
// its call. Only a call of a tool the server does not offer is a protocol
// error, as MCP asks.
//
// # Notes
//
// The SDK runs the calls of a session concurrently, and HTTP serves many
// sessions at once. That is safe: the Vault takes its writer lock around
// each call (in this process and across processes), and the engines are
// safe for concurrent use.
package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/tools"
	"github.com/kessho/kessho/host/buildinfo"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/vaultfs"
)

// Options configure a server. The zero value means: English, UTC, the
// time of each call.
type Options struct {
	// Lang is the language of the tools' descriptions and of the
	// messages: "en" or "fr".
	Lang string
	// TZ is the vault's IANA time zone; "" is UTC.
	TZ string
	// Now returns the time a call runs at; nil means time.Now. Tests fix it.
	Now func() time.Time
	// Version is the version reported to clients; "" reports this
	// build's (host/buildinfo: module version and VCS revision).
	Version string
	// Timeout bounds each call, all its work included (see
	// call.Options.Timeout); 0 means call.DefaultTimeout. A call past it
	// answers LIMIT_EXCEEDED.
	Timeout time.Duration
	// Clock counts the calls' deadlines (call.Options.Clock); nil is the
	// real clock. Tests give theirs.
	Clock call.Clock
	// Poll is how often the vault is polled for changes while a client
	// is subscribed to a resource; 0 means 2 s on Linux, 15 s elsewhere
	// (see notifier). Tests shorten it.
	Poll time.Duration
	// Log is where the server writes what its operator should know, a
	// line each (`kessho mcp`: standard error); nil writes nothing. Today:
	// that calls run natively while the sandbox starts, and when it is
	// ready, or that this binary has none.
	Log io.Writer
}

// NewServer returns an MCP server that offers every tool of the catalogue
// on vault v, run by eng. It does no work proportional to the vault or the
// engine: clients can initialize and list the tools at once, while eng
// may still be starting (see [Background]).
func NewServer(v *vaultfs.Vault, eng call.Engine, opts Options) *sdk.Server {
	version := opts.Version
	if version == "" {
		version = buildinfo.Version()
	}
	c := &caller{vault: v, engine: eng, opts: opts}
	if p, ok := eng.(*Pending); ok && p.Absent() != nil {
		c.absentLogged.Store(true)
		c.serverLog(serverText().SandboxAbsent.In(opts.Lang))
	}
	n := &notifier{notes: v.SearchNotes, every: opts.Poll, subs: map[string]int{}}
	if n.every <= 0 {
		n.every = pollEvery()
	}
	// Logging is deprecated from protocol 2026-07-28 on (SEP-2577) but
	// served through its deprecation window, and by every older client:
	// the capability, and logWarnings.
	//lint:ignore SA1019 logging is still part of every protocol revision clients speak
	caps := &sdk.ServerCapabilities{Logging: &sdk.LoggingCapabilities{}} // and tools, prompts, completions
	srv := sdk.NewServer(&sdk.Implementation{Name: "kessho", Title: "Kessho", Version: version},
		&sdk.ServerOptions{Capabilities: caps,
			Instructions:       serverText().Instructions.In(opts.Lang),
			CompletionHandler:  c.complete,
			SubscribeHandler:   n.subscribe,
			UnsubscribeHandler: n.unsubscribe,
			SetCacheable:       vaultPrivate})
	n.srv, c.notify = srv, n
	srv.AddReceivingMiddleware(olderClients)
	for _, t := range tools.Specs() {
		srv.AddTool(Tool(t, opts.Lang), c.handler(t.Name))
	}
	c.addPrompts(srv)
	templates := c.addResources(srv)
	n.relist = func() { srv.AddResourceTemplate(templates[0], c.readResource) }
	return srv
}

// Tool returns the MCP description of t in lang: the catalogue's title,
// description, input schema and output schema (see [OutputSchema]; a
// client of a revision before outputSchema is listed the tools without
// it, see olderClients), and
// its annotations, as the catalogue gives them: readOnlyHint for a tool
// that never writes, destructiveHint for a writer that may remove or
// overwrite what it did not write, idempotentHint for a tool a second
// identical call of which changes nothing. Kessho's tools touch nothing
// but the vault: openWorldHint is false.
func Tool(t *catalog.Tool, lang string) *sdk.Tool {
	closed, destructive := false, t.Writes && t.Destructive
	out, err := OutputSchema(t.Name)
	if err != nil {
		panic(err) // a catalogue tool whose result type has no schema: TestOutputSchemas
	}
	return &sdk.Tool{
		Name:         t.Name,
		Title:        t.Title.In(lang),
		Description:  t.Description.In(lang),
		InputSchema:  t.Schema(lang),
		OutputSchema: out,
		Annotations: &sdk.ToolAnnotations{
			Title:           t.Title.In(lang),
			ReadOnlyHint:    !t.Writes,
			DestructiveHint: &destructive,
			IdempotentHint:  t.Idempotent,
			OpenWorldHint:   &closed,
		},
	}
}

// caller runs tool calls on one vault.
type caller struct {
	vault  *vaultfs.Vault
	engine call.Engine
	opts   Options
	notify *notifier

	interimUsed            atomic.Bool // a call ran on the interim engine
	interimOnce, readyOnce sync.Once   // logInterim, logSandboxReady
	absentOnce             sync.Once   // logAbsent
	absentLogged           atomic.Bool // NewServer logged that there is no sandbox
}

// waiter is an engine that may still be starting, like a [Pending]: the
// handler waits for it before the call takes the vault's lock.
type waiter interface {
	Wait(ctx context.Context) error
	Started() bool
}

// handler returns the SDK handler of the tool named name.
func (c *caller) handler(name string) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		report, stop := c.progress(ctx, req, name)
		out, ask := c.runConfirmed(ctx, req, name, report)
		stop() // no notification after the result
		if err := context.Cause(ctx); err != nil {
			// Cancelled (notifications/cancelled, or the session ended):
			// no result, as the protocol asks. The SDK still writes an
			// error response to the request, which the client, having
			// cancelled it, has forgotten.
			return nil, fmt.Errorf("%s: request cancelled: %w", name, err)
		}
		if ask != nil {
			return ask, nil // the user's confirmation first (confirm.go)
		}
		logWarnings(ctx, req.Session, name, out)
		if out.OK && len(out.Plan) > 0 {
			c.notify.applied(ctx, out.Plan)
		}
		return result(name, out), nil
	}
}

// logWarnings sends each warning of a call's result (every result has
// "warnings") to the client as a log message of level warning, from the
// logger "kessho", its data the tool and the warning: the SDK sends it
// only if the client asked for messages of that level (logging/setLevel).
// The warnings stay in the result: the log is for the user watching the
// client, the result for the agent. They are the ones the call read in
// its decode of the answer (call.Outcome.Warnings).
func logWarnings(ctx context.Context, ss *sdk.ServerSession, tool string, out call.Outcome) {
	if ss == nil || !out.OK {
		return
	}
	for _, w := range out.Warnings {
		//lint:ignore SA1019 see NewServer: logging is served through its deprecation window
		ss.Log(ctx, &sdk.LoggingMessageParams{Level: "warning", Logger: "kessho",
			Data: map[string]string{"tool": tool, "warning": w}})
	}
}

// progressEvery is the longest a call with a progress token goes without
// a progress notification: a client that resets its timeout on progress
// (the TypeScript SDK's resetTimeoutOnProgress) then waits as long as
// the call works, however long a cold start or a busy machine makes it.
const progressEvery = 5 * time.Second

// newTicker starts a ticker; tests replace it to tick by hand.
var newTicker = func(d time.Duration) (ticks <-chan time.Time, stop func()) {
	t := time.NewTicker(d)
	return t.C, t.Stop
}

// progress returns how a call of tool reports its progress to the
// client: through progress notifications bearing the request's progress
// token, one more each time, or not at all when the client gave no
// token. Besides what the call reports, a ticker sends "still running"
// every progressEvery until stop, which the handler calls before it
// returns its result: once stop has returned, nothing more is sent (a
// notification being sent is waited for). A notification that cannot be
// sent is dropped: progress is advice, the call goes on.
func (c *caller) progress(ctx context.Context, req *sdk.CallToolRequest, tool string) (report func(msg string), stop func()) {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return func(string) {}, func() {}
	}
	var (
		mu    sync.Mutex
		n     float64
		ended bool
	)
	report = func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		if ended {
			return
		}
		n++
		req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token, Progress: n, Message: msg})
	}
	began := time.Now()
	ticks, stopTicker := newTicker(progressEvery)
	quit, quitted := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(quitted)
		for {
			select {
			case <-ticks:
				secs := int(time.Since(began).Round(time.Second) / time.Second)
				report(fmt.Sprintf(serverText().Running.In(c.opts.Lang), tool, secs))
			case <-quit:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	stop = func() {
		stopTicker()
		close(quit)
		<-quitted
		mu.Lock()
		ended = true
		mu.Unlock()
	}
	return report, stop
}

// run calls the tool named name with args, once the engine has started,
// and returns its outcome, a refusal included.
//
// It reports its progress to report: once when it has to wait for the
// engine to start (a cold start compiles the module), once when the
// engine is ready, and once before each round of the engine (each time
// the core has been given what it asked for). A call made while an
// [Interim] engine serves (the sandbox still starting) runs on it, and
// says so instead of waiting; the first such call says so in the
// server's log too (see logInterim).
//
// A call that first finishes plans a crash left (see recording) says so
// to ss, the session it runs for, as a log message. confirm is the
// call's Options.Confirm (confirm.go; nil: none).
func (c *caller) run(ctx context.Context, ss *sdk.ServerSession, name string, args json.RawMessage, report func(msg string), confirm func(context.Context, string) error) call.Outcome {
	eng := c.engine
	if p, ok := c.engine.(*Pending); ok {
		var interim bool
		if eng, interim = p.Now(); interim {
			report(serverText().EngineInterim.In(c.opts.Lang))
			c.logInterim(ctx, ss)
		} else if p.Absent() != nil {
			c.logAbsent(ctx, ss)
		} else if c.interimUsed.Load() {
			c.logSandboxReady(ctx, ss)
		}
	}
	if w, ok := eng.(waiter); ok {
		cold := !w.Started()
		if cold {
			report(serverText().EngineWait.In(c.opts.Lang))
		}
		if err := w.Wait(ctx); err != nil {
			return call.Refusal(err, c.opts.Lang)
		}
		if cold {
			report(serverText().EngineReady.In(c.opts.Lang))
		}
	}
	opts := c.options()
	opts.Round = func(round int) { report(fmt.Sprintf(serverText().Round.In(c.opts.Lang), name, round)) }
	opts.Confirm = confirm
	v := recording{Vault: c.vault, recovered: c.logRecovered(ctx, ss, name)}
	out, err := call.Run(ctx, v, eng, name, args, opts)
	if err != nil {
		out = call.Refusal(err, c.opts.Lang)
	}
	return out
}

// logInterim says, once a server, that calls run on the interim engine
// while the sandbox starts: on the server's log (Options.Log) and, as a
// log message of level notice from the logger "kessho", to the session
// of the call that saw it first (the SDK sends it if the client asked
// for messages of that level).
func (c *caller) logInterim(ctx context.Context, ss *sdk.ServerSession) {
	c.interimUsed.Store(true)
	c.interimOnce.Do(func() { c.logNotice(ctx, ss, serverText().EngineInterim.In(c.opts.Lang)) })
}

// logAbsent says, once a server, that this binary holds no sandbox and
// every call runs on the interim engine, and how to get one: to the
// session of the first call that sees it and, unless NewServer did, on
// the server's log.
func (c *caller) logAbsent(ctx context.Context, ss *sdk.ServerSession) {
	c.absentOnce.Do(func() {
		text := serverText().SandboxAbsent.In(c.opts.Lang)
		if !c.absentLogged.Load() {
			c.serverLog(text)
		}
		c.sessionNotice(ctx, ss, text)
	})
}

// logSandboxReady says, once, that calls run on the sandbox again after
// some ran on the interim engine.
func (c *caller) logSandboxReady(ctx context.Context, ss *sdk.ServerSession) {
	c.readyOnce.Do(func() { c.logNotice(ctx, ss, serverText().SandboxReady.In(c.opts.Lang)) })
}

// logNotice says text on the server's log (Options.Log) and, as a log
// message of level notice from the logger "kessho", to the session ss.
func (c *caller) logNotice(ctx context.Context, ss *sdk.ServerSession, text string) {
	c.serverLog(text)
	c.sessionNotice(ctx, ss, text)
}

func (c *caller) serverLog(text string) {
	if c.opts.Log != nil {
		fmt.Fprintf(c.opts.Log, "kessho mcp: %s\n", text)
	}
}

func (c *caller) sessionNotice(ctx context.Context, ss *sdk.ServerSession, text string) {
	if ss != nil {
		//lint:ignore SA1019 see NewServer: logging is served through its deprecation window
		ss.Log(ctx, &sdk.LoggingMessageParams{Level: "notice", Logger: "kessho",
			Data: map[string]string{"message": text}})
	}
}

func (c *caller) options() call.Options {
	now := time.Now
	if c.opts.Now != nil {
		now = c.opts.Now
	}
	return call.Options{Now: now(), TZ: c.opts.TZ, Lang: c.opts.Lang, Timeout: c.opts.Timeout, Clock: c.opts.Clock, KeepIndex: true}
}

// arguments passes the client's arguments to the core as they came: the
// core validates them against the catalogue (INVALID_ARGUMENT). Absent or
// null arguments are no arguments.
func arguments(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage(`{}`)
	}
	return raw
}

// result turns an answer into the MCP result: for a success, the model's
// view of the result object (modelView) as structured content and, the
// same JSON, as text; for a refusal, isError and the answer's JSON as
// text.
func result(tool string, out call.Outcome) *sdk.CallToolResult {
	if out.OK && len(out.Result) > 0 && out.Result[0] == '{' {
		view, err := modelView(tool, out.Result)
		if err != nil { // not an object the core writes: sent as it came
			view = out.Result
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(view)}}, StructuredContent: view}
	}
	return &sdk.CallToolResult{
		Content: []sdk.Content{&sdk.TextContent{Text: string(out.Answer)}},
		IsError: !out.OK,
	}
}
