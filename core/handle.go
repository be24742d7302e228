// Package core is Kessho's pure logic behind one entry point,
// [Core.Handle]: JSON in, JSON out, no disk, no clock, no randomness. The
// wasm module and the native engine each hold one Core and call exactly
// this method.
//
// A request names a tool, its arguments, the time, the vault's zone, the
// language, and the part of the vault the host has read so far:
//
//	{"tool":"mem_update_phase","args":{"slug":"a","phase":"draft"},
//	 "now":"2026-11-30T10:15:00+01:00","tz":"Europe/Paris","lang":"en",
//	 "files":{"10-episodes/projects/a/context.md":{"sha256":"…","text":"…"}},
//	 "missing":["…"],"dirs":{"10-episodes/projects":["a/"]}}
//
// The answer is one of
//
//	{"need":{"files":[…],"dirs":[…],"trees":[…],"matches":[…]}}
//	{"ok":true,"result":{…},"plan":[…],"conflict":"CONTEXT_HYGIENE_RACE"}
//	{"ok":false,"error":{"code":"…","message":"…","details":{…}}}
//
// A need asks the host for more of the vault: it reads what is named and
// calls again with the same request, the snapshot grown. The other two
// end the call. "plan" (absent when the call writes nothing) is what the
// host applies, all or nothing, under its lock; "conflict" is present only
// beside a plan, and only for a tool whose catalogue entry names a
// conflict code (catalog.Tool.ConflictCode): it is the code the host
// gives the call when one of the plan's preconditions no longer holds,
// instead of CONFLICT, message and details unchanged. "confirm", also
// only beside a plan, is the question a host may put to the user before
// applying a plan that cannot be undone (wire.Answer.Confirm). What a host shows
// is {"ok":true,"result":…} or the refusal as it came, without plan or
// conflict (github.com/kessho/kessho/host/call renders it).
package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
	_ "time/tzdata" // the wasm module has no zoneinfo on disk; both engines use this copy

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/search"
	"github.com/kessho/kessho/core/tools"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/core/wire"
)

// Request is what a host sends to Handle (wire.Request).
type Request = wire.Request

// Answer is what Handle returns, and what hosts decode (wire.Answer).
type Answer = wire.Answer

// ErrorBody is the JSON form of a refusal (wire.ErrorBody).
type ErrorBody = wire.ErrorBody

// Core is what runs requests, with what it keeps between them: the tools'
// State (the warm search index), the time zones loaded by name and the
// arguments of the call whose rounds it runs, validated (lastArgs). An
// engine instance holds one (the wasm module one per instance, the native
// engine one per engine): nothing in the core is package-level state. A
// Core is safe for concurrent use.
type Core struct {
	tools *tools.State
	// zones holds the time zones requests have named, by name:
	// time.LoadLocation reads and parses the zone's file on every call (on
	// wasm, found in the embedded tzdata: about 0.2 ms, a tenth of a small
	// call). Only names that load are kept, so it holds at most the IANA
	// database's few hundred zones.
	zones sync.Map // string → *time.Location
	// args is the arguments of the call whose rounds run here.
	args lastArgs
}

// New returns a Core that has run nothing yet.
func New() *Core { return &Core{tools: tools.NewState()} }

// Handle runs one request and returns the answer's JSON. It never panics:
// a bug becomes an INTERNAL error.
//
// A request may be followed by a NUL and the bytes of a search index
// (wire.Join): they are its Search.Index. An answer carrying an index
// is followed by it the same way.
func (c *Core) Handle(request []byte) []byte {
	_, out := c.HandleAnswer(request)
	return out
}

// HandleAnswer is Handle, with the answer also as the value its JSON
// encodes, for a host in the same module that reads it at once
// (hostlogic.Step, a call's round): it need not decode what was just encoded. When the
// answer carries a search index, its Search.Index is the index's bytes
// in the JSON's buffer, after the NUL.
func (c *Core) HandleAnswer(request []byte) (Answer, []byte) {
	return c.encoded(c.handle(request))
}

// HandleRequest is HandleAnswer for a request already decoded: the native
// engine's (host/engine), in the host's process, where a request's JSON
// would be written only to be read back at once (a mem_check of a
// 50k-note vault holds 65 MB of notes, each way). The core reads req's
// maps and never changes them; the host must not change them while the
// call runs. The answer is the same bytes as Handle's for the request's
// JSON (wire.DecodeRequest of wire.EncodeCompacted gives req back).
func (c *Core) HandleRequest(req Request) (Answer, []byte) {
	return c.encoded(c.run(req))
}

// encoded is the answer's JSON, with its search index after it.
func (c *Core) encoded(ans Answer) (Answer, []byte) {
	out, err := wire.EncodeAnswer(ans)
	if err != nil {
		ans = errorAnswer(fault.Internalf("encoding the answer: %v", err), "en")
		out, _ = json.Marshal(ans)
		return ans, out
	}
	if ans.Search != nil {
		n := len(out)
		out = wire.Prepend(out, ans.Search.Index)
		carry := *ans.Search
		carry.Index = nil
		if len(out) > n {
			carry.Index = out[n+1:]
		}
		ans.Search = &carry
	}
	return ans, out
}

func (c *Core) handle(request []byte) (ans Answer) {
	defer func() {
		if r := recover(); r != nil {
			ans = errorAnswer(fault.Internalf("panic reading the request: %v", r), "en")
		}
	}()
	req, err := wire.DecodeRequest(request)
	if err != nil {
		return errorAnswer(fault.New(fault.InvalidArgument, nil,
			"the request is not valid JSON: "+err.Error(),
			"la requête n'est pas du JSON valide : "+err.Error()), "en")
	}
	return c.run(req)
}

// run runs a decoded request's tool. It never panics: a bug becomes an
// INTERNAL error.
func (c *Core) run(req Request) (ans Answer) {
	lang := "en"
	defer func() {
		if r := recover(); r != nil {
			ans = errorAnswer(fault.Internalf("panic in %s: %v", req.Tool, r), lang)
		}
	}()
	l, err := language(req.Lang)
	if err != nil {
		return errorAnswer(err, lang)
	}
	lang = l
	env, err := c.newEnv(req, lang)
	if err != nil {
		return errorAnswer(err, lang)
	}
	tool, ok := tools.Lookup(req.Tool)
	if !ok {
		return errorAnswer(fault.New(fault.InvalidArgument, map[string]any{"tool": req.Tool},
			fmt.Sprintf("unknown tool %q; `kessho catalog` lists the tools", req.Tool),
			fmt.Sprintf("outil inconnu %q ; `kessho catalog` liste les outils", req.Tool)), lang)
	}
	args, err := c.args.validated(tool, req.Args)
	if err != nil {
		return errorAnswer(err, lang)
	}
	result, p, err := tool.Run(env, args)
	return outcome(tool, env, result, p, err, lang)
}

// language is the request's language: "en" (or none) or "fr".
func language(lang string) (string, error) {
	switch lang {
	case "", "en":
		return "en", nil
	case "fr":
		return "fr", nil
	}
	return "", fault.Argument("lang", `must be "en" or "fr", not `+fmt.Sprintf("%q", lang),
		`doit valoir « en » ou « fr », pas `+fmt.Sprintf("%q", lang))
}

// outcome is the answer to what the tool's run returned: a need, a
// refusal, or its result and plan.
func outcome(tool tools.Tool, env *tools.Env, result any, p plan.Plan, err error, lang string) Answer {
	name := tool.Spec.Name
	if errors.Is(err, vault.ErrNeed) {
		need := env.View.Need()
		if need.Empty() {
			return errorAnswer(fault.Internalf("%s asked for more of the vault but named nothing", name), lang)
		}
		ans := Answer{Need: &need}
		if env.IndexID != "" {
			// A batch of mem_search's index built: the host stores it, if
			// handed back, before the next batch (search.Carry).
			ans.Search = &search.Carry{Index: env.IndexOut, ID: env.IndexID, Indexed: env.IndexIndexed, Left: env.IndexLeft}
		}
		return ans
	}
	if err != nil {
		return errorAnswer(err, lang)
	}
	if err := p.Validate(); err != nil {
		return errorAnswer(fault.Internalf("%s made a bad plan: %v", name, err), lang)
	}
	ans := okAnswer(tool, result, p, lang)
	if env.IndexOut != nil && ans.Error == nil {
		ans.Search = &search.Carry{Index: env.IndexOut, ID: env.IndexID}
	}
	return ans
}

// lastArgs is the arguments a core validated last, kept for the next
// rounds of the call: a call's rounds run on one core (host/call's
// Pinner) and send the same arguments, byte for byte, so that only the
// first round validates and decodes them. It holds one call's, keyed by
// the tool and the exact bytes, so that another call never gets them.
type lastArgs struct {
	mu   sync.Mutex
	tool string
	raw  []byte
	args catalog.Args
}

// validated is tool.Spec.Validate(raw), from the last call's when the
// tool and the bytes are the same.
func (l *lastArgs) validated(tool tools.Tool, raw []byte) (catalog.Args, error) {
	name := tool.Spec.Name
	l.mu.Lock()
	hit := l.raw != nil && l.tool == name && bytes.Equal(l.raw, raw)
	args := l.args
	l.mu.Unlock()
	if hit {
		return args, nil
	}
	args, err := tool.Spec.Validate(raw)
	if err != nil {
		return args, err
	}
	l.mu.Lock()
	l.tool, l.raw, l.args = name, append([]byte{}, raw...), args
	l.mu.Unlock()
	return args, nil
}

// okAnswer is a tool's success: its result encoded once, its plan, and
// beside a plan the tool's conflict code.
func okAnswer(tool tools.Tool, result any, p plan.Plan, lang string) Answer {
	t := true
	ans := Answer{OK: &t, Plan: p}
	if result != nil {
		b, err := json.Marshal(result)
		if err != nil {
			return errorAnswer(fault.Internalf("encoding the answer: %v", err), lang)
		}
		ans.Result = b
	}
	if len(p) > 0 {
		ans.Conflict = string(tool.Spec.ConflictCode)
		if q, ok := result.(tools.Confirmer); ok {
			ans.Confirm = q.Confirmation()
		}
	}
	return ans
}

func (c *Core) newEnv(req Request, lang string) (*tools.Env, error) {
	loc := time.UTC
	if req.TZ != "" {
		l, err := c.location(req.TZ)
		if err != nil {
			return nil, fault.Argument("tz", fmt.Sprintf("%q is not an IANA time zone (e.g. Europe/Paris)", req.TZ),
				fmt.Sprintf("%q n'est pas un fuseau IANA (par ex. Europe/Paris)", req.TZ))
		}
		loc = l
	}
	if req.Now == "" {
		return nil, fault.Argument("now", "is required (RFC 3339, e.g. 2026-11-30T10:15:00+01:00)",
			"est obligatoire (RFC 3339, par ex. 2026-11-30T10:15:00+01:00)")
	}
	now, err := time.Parse(time.RFC3339, req.Now)
	if err != nil {
		return nil, fault.Argument("now", fmt.Sprintf("%q is not RFC 3339 (e.g. 2026-11-30T10:15:00+01:00)", req.Now),
			fmt.Sprintf("%q n'est pas au format RFC 3339 (par ex. 2026-11-30T10:15:00+01:00)", req.Now))
	}
	return &tools.Env{Now: now.In(loc), Lang: lang, View: vault.NewView(req.Snapshot), Search: req.Search, State: c.tools}, nil
}

// loadLocation is time.LoadLocation; tests count its calls.
var loadLocation = time.LoadLocation

// location is time.LoadLocation(name), loaded once per Core.
func (c *Core) location(name string) (*time.Location, error) {
	if l, ok := c.zones.Load(name); ok {
		return l.(*time.Location), nil
	}
	l, err := loadLocation(name)
	if err != nil {
		return nil, err
	}
	c.zones.Store(name, l)
	return l, nil
}

func errorAnswer(err error, lang string) Answer {
	e, ok := fault.As(err)
	if !ok {
		e = fault.Internalf("%v", err)
	}
	f := false
	return Answer{OK: &f, Error: &ErrorBody{Code: string(e.Code), Message: e.Message(lang), Details: e.Details}}
}
