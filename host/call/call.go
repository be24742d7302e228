// Package call runs one Kessho call: the protocol between a host and the
// core, shared by every Go host (the CLI, the MCP server, the tests). The
// TypeScript host of the Obsidian plugin runs the same protocol.
//
//	v, _ := vaultfs.Open(dir)
//	out, err := call.Run(ctx, v, engine.Native(), "mem_update_phase",
//		json.RawMessage(`{"slug":"alpha","phase":"review"}`), call.Options{TZ: "Europe/Paris"})
//	os.Stdout.Write(out.Answer) // {"ok":true,"result":{…}}
//
// Run takes the vault's writer lock, rolls forward a plan a crash left,
// asks the engine (core.Core.Handle, natively or in the wasm module), answers
// its needs from the vault, and applies the plan it returns, all under the
// lock. The answers are wire.Answer; the Outcome carries them decoded once
// (OK, Result, Error, Plan) beside the bytes hosts print (Answer), so that
// no host decodes an answer again.
//
// The disk is reached through [Vault], which github.com/kessho/kessho/host/vaultfs
// implements (lock, recovery, answering needs, applying plans): this
// package holds the protocol, vaultfs the files.
//
// # How a call ends
//
// Every host ends a call alike: the answer Run returns is printed as it
// is (the CLI, a script), or sent as it is (MCP). No host runs anything
// after it. A hygiene trim's final check (SPEC section 9, step 5) is the
// core's: it re-runs the checker on the texts its plan writes, and the
// plan lands all or nothing, so its line is the check of the files as the
// call leaves them (RATIONALE.md, "Why is the trim's own line the
// re-check?").
package call

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/hostlogic"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/core/wire"
)

// Engine runs core.Core.Handle: natively or in the wasm module
// (github.com/kessho/kessho/host/engine).
type Engine interface {
	Call(ctx context.Context, request []byte) ([]byte, error)
}

// Pinner is an Engine of several cores (the wasm engine's pool of
// instances, the native engine's cores), each keeping what one round of a
// call hands on to the next: the search index a build has made so far,
// the notes' versions the host sent once. Run runs every round of a call
// through the call function Pin returns, on one core, and calls release
// when the call ends; an Engine that is no Pinner runs each round where
// it will. Pin gives the core that last served a call when one is idle,
// so that calls made one after another find its warm index.
type Pinner interface {
	Pin() (call func(ctx context.Context, request []byte) ([]byte, error), release func())
}

// DirectPinner is a Pinner whose pinned core also takes a request as a
// value (engine.Native, in the host's process): Run sends every round
// so, the value being what the request's JSON decodes to
// (searchCarry.value; docs/HOSTS.md §1).
type DirectPinner interface {
	PinDirect() (call func(ctx context.Context, request []byte) ([]byte, error), direct DirectCall, release func())
}

// DirectCall is a DirectPinner's call: the request as a value, the
// answer as one beside its JSON (core.Core.HandleRequest). An alias, so
// that an engine implements DirectPinner without importing this package.
type DirectCall = func(ctx context.Context, req wire.Request) (wire.Answer, []byte, error)

// pinDirect is Pin, with eng's direct call when it is a DirectPinner
// (nil otherwise).
func pinDirect(eng Engine) (call func(ctx context.Context, request []byte) ([]byte, error), direct DirectCall, release func()) {
	if p, ok := eng.(DirectPinner); ok {
		return p.PinDirect()
	}
	call, release = Pin(eng)
	return call, nil, release
}

// Pin pins eng for one call (see Pinner): a Pinner's Pin, or eng's Call
// and a release that does nothing. Hosts that wrap an engine forward
// their Pin with it.
func Pin(eng Engine) (call func(ctx context.Context, request []byte) ([]byte, error), release func()) {
	if p, ok := eng.(Pinner); ok {
		return p.Pin()
	}
	return eng.Call, func() {}
}

// Lock is a held writer lock of a vault.
type Lock interface {
	Unlock() error
}

// Vault is what a call needs of the vault on disk; *vaultfs.Vault is one,
// with L its *vaultfs.Lock (Run infers it).
type Vault[L Lock] interface {
	// Lock takes the writer lock (VAULT_LOCKED when another writer keeps
	// it too long).
	Lock(ctx context.Context) (L, error)
	// Recover rolls forward the plans a crash left half applied.
	Recover(L) error
	// AnswerContext reads what need names into snap, up to maxBytes of
	// text in all; it stops once ctx's deadline has passed.
	AnswerContext(ctx context.Context, need vault.Need, snap *vault.Snapshot, maxBytes int64) error
	// Apply applies the plan, all of it or nothing.
	Apply(L, plan.Plan) error
}

// Options are a call's inputs besides the tool and its arguments. The
// zero value means: now, UTC, English, 8 rounds, 256 MiB of file text, a
// deadline of DefaultTimeout.
type Options struct {
	Now       time.Time
	TZ        string // IANA zone of the vault; "" is UTC
	Lang      string // "en" or "fr"
	MaxRounds int    // need/answer rounds before LIMIT_EXCEEDED; default 8 (a search index's batches not counted)
	MaxBytes  int64  // file text the request may carry; default 256 MiB
	// Timeout bounds the whole call, from the moment it holds the vault's
	// lock to the engine's last answer: every round of the engine and
	// every read of the host. 0 means DefaultTimeout; a negative value
	// means no bound but ctx's own deadline. See Run.
	Timeout time.Duration
	// IndexBatch bounds the note text one round of a search index's build
	// reads (search.Carry.Batch); 0 is the core's search.DefaultBatch.
	IndexBatch int64
	// KeepIndex says that the engine outlives this call (a running MCP
	// server): the core may keep a few changes of the search index in its
	// memory instead of handing them back to be stored after each write
	// (search.Carry.Keep). A one-shot command leaves it false, or every
	// run would read those notes again.
	KeepIndex bool
	// Clock counts the deadline; nil is the real clock (tests give theirs).
	Clock Clock
	// Round, when set, is called before each round of the engine with the
	// round's number, from 1: hosts report progress with it (MCP's
	// progress notifications). It changes nothing in the call.
	Round func(round int)
	// Confirm, when set, is called before a plan the core asks to confirm
	// is applied (wire.Answer.Confirm: mem_rollback_archive,
	// mem_archive_rewrite_paths with confirm), with the core's question
	// in the call's language: a host asks the user (MCP's elicitation).
	// A nil error applies the plan; an error refuses the call, nothing
	// written, with that error (fault.Declined when the user said no).
	// The vault's lock is released while it runs, and taken again after
	// it: the plan's preconditions then refuse (CONFLICT) a plan whose
	// files changed meanwhile. ctx is the call's, without its deadline:
	// a person answers in their own time. Nil applies every plan.
	Confirm func(ctx context.Context, question string) error
}

// DefaultTimeout is a call's deadline when Options.Timeout is zero: the
// wasm engine's own bound on one run of the core
// (engine.DefaultCallTimeout), now for the whole call.
const DefaultTimeout = 10 * time.Second

// Outcome is what a call produced, decoded once.
type Outcome struct {
	// Answer is what hosts show: {"ok":true,"result":…} or
	// {"ok":false,"error":…}, without the plan.
	Answer []byte
	// Raw is the engine's last answer, plan included: conformance tests
	// compare it across engines byte for byte. For a refusal of the host
	// before any answer (VAULT_LOCKED, LIMIT_EXCEEDED…) it is Answer.
	Raw []byte
	// OK is false for a refusal.
	OK bool
	// Result is the tool's result as the core encoded it (OK only).
	Result json.RawMessage
	// Warnings is the result's "warnings", read in the one decode of the
	// answer (hostlogic.Read.Warnings; OK only).
	Warnings []string
	// Error is the refusal, the core's or the host's (not OK only).
	Error *wire.ErrorBody
	// Plan is the plan applied (nil when none or on error).
	Plan plan.Plan
}

// Run runs tool on the vault v with the engine eng. Holding the lock from
// the first read to the last write makes a call atomic with respect to
// every other Kessho process on the vault; writers outside Kessho (an
// editor, git) are caught by the plan's preconditions as CONFLICT, or as
// the code the core names beside the plan (wire.Answer.Conflict, e.g.
// CONTEXT_HYGIENE_RACE).
//
// A refusal, from the core or from the host (CONFLICT, VAULT_LOCKED,
// LIMIT_EXCEEDED), comes back as an Outcome with OK false and a nil
// error; err is reserved for failures of the engine itself (hosts answer
// them with [Refusal]).
//
// # Deadline
//
// One deadline bounds the call: opts.Timeout (or ctx's deadline, when
// earlier), counted from the moment the call holds the lock, so that
// waiting for another writer (bounded by the vault's lock wait,
// VAULT_LOCKED) and rolling a crashed plan forward do not eat it. The same
// context, made once, goes to every round of the engine and every read of
// the vault, so the rounds share the deadline rather than each getting it
// anew. A call whose deadline passes before the engine's last answer
// answers LIMIT_EXCEEDED, whatever noticed it first: the host before a
// round, the engine (its deadline error, or a trap it died of once the
// deadline had passed), an engine answer that came back late (the native
// engine cannot be interrupted), the walk of the vault, or the round cap.
// Deciding by the clock rather than by which error came first keeps one
// input's answer one code. The plan, once answered in time, is applied
// whatever the clock says: stopping half-way would leave the journal to
// finish it.
func Run[L Lock](ctx context.Context, v Vault[L], eng Engine, tool string, args json.RawMessage, opts Options) (Outcome, error) {
	opts = opts.withDefaults()
	lock, err := v.Lock(ctx)
	if err != nil {
		return Refusal(err, opts.Lang), nil
	}
	held := &held[L]{lock: lock}
	defer held.unlock()
	if err := v.Recover(lock); err != nil {
		return Refusal(err, opts.Lang), nil
	}
	outer := ctx
	ctx, d, cancel := newDeadline(ctx, opts.Timeout, opts.Clock)
	defer cancel()
	engCall, direct, release := pinDirect(eng)
	defer release()
	p := newPace(d.now, d.span(), opts.IndexBatch)
	r := &rounds[L]{v: v, held: held, outer: outer, call: engCall, direct: direct, tool: tool, opts: opts, d: d, policy: hostlogic.Rounds{Tool: tool, Max: opts.MaxRounds}, sc: newCarry(ctx, v, tool, opts, p)}
	r.req = wire.Request{Tool: tool, Args: args, Now: opts.Now.Format(time.RFC3339), TZ: opts.TZ, Lang: opts.Lang, Search: r.sc.carry}
	if need := r.sc.changed(); len(need.Files) > 0 && v.AnswerContext(ctx, need, &r.req.Snapshot, opts.MaxBytes) != nil {
		r.req.Snapshot = vault.Snapshot{} // the core asks for what it lacks
	}
	return r.run(ctx)
}

// withDefaults fills in the zero fields of o (see Options).
func (o Options) withDefaults() Options {
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxRounds == 0 {
		o.MaxRounds = 8
	}
	if o.MaxBytes == 0 {
		o.MaxBytes = 256 << 20
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	return o
}

// rounds is one call of Run under its lock: the request of the next
// round, and what the rounds share.
type rounds[L Lock] struct {
	v    Vault[L]
	held *held[L]
	// outer is Run's ctx, without the call's deadline (Options.Confirm).
	outer context.Context
	call  func(ctx context.Context, request []byte) ([]byte, error) // the pinned engine
	// direct is the pinned engine's call with the request as a value
	// (DirectPinner), nil when it has none.
	direct DirectCall
	tool   string
	opts   Options
	d      deadline
	sc     *searchCarry
	req    wire.Request
	// policy is the round loop's (hostlogic.Rounds): which rounds count.
	policy hostlogic.Rounds
	// compacted is whether req.Args are compacted (request).
	compacted bool
}

// run sends the request, answers the engine's needs from the vault and
// sends it again, until the engine answers; then applies the plan.
func (r *rounds[L]) run(ctx context.Context) (Outcome, error) {
	for round := 1; ; round++ {
		if r.d.late(nil) {
			return r.refuse(r.d.overrun(r.tool, r.sc.kept))
		}
		if r.opts.Round != nil {
			r.opts.Round(round)
		}
		ans, raw, index, out, err := r.exchange(ctx)
		if ans == nil {
			return out, err
		}
		if ans.Need == nil {
			return r.end(*ans, raw, index)
		}
		if out, done := r.answer(ctx, *ans, index); done {
			return out, nil
		}
	}
}

func (r *rounds[L]) refuse(err error) (Outcome, error) { return Refusal(err, r.opts.Lang), nil }

// exchange runs one round of the engine: its answer read (ans), the
// answer's JSON (raw) and the index after it; or, with ans nil, what Run
// returns (a refusal or the engine's failure).
func (r *rounds[L]) exchange(ctx context.Context) (ans *hostlogic.Read, raw, index []byte, _ Outcome, _ error) {
	fail := func(err error) (*hostlogic.Read, []byte, []byte, Outcome, error) {
		return nil, nil, nil, Outcome{}, fmt.Errorf("call %s: %w", r.tool, err)
	}
	refused := func(err error) (*hostlogic.Read, []byte, []byte, Outcome, error) {
		out, _ := r.refuse(err)
		return nil, nil, nil, out, nil
	}
	if err := r.compact(); err != nil {
		return fail(fmt.Errorf("encoding request: %w", err))
	}
	need, raw, err := r.send(ctx)
	if r.d.late(err) {
		// Whatever the engine answered or died of: the deadline passed.
		// A batch's index that came with a late answer is stored still:
		// the next call goes on from it.
		if err == nil {
			r.keepLate(raw)
		}
		return refused(r.d.overrun(r.tool, r.sc.kept))
	}
	if e, ok := fault.As(err); ok && e.Code == fault.LimitExceeded {
		// A bound of the engine: a refusal like the host's own bounds.
		return refused(fault.New(fault.LimitExceeded, map[string]any{"tool": r.tool},
			fmt.Sprintf("%s: %v; ask for less (a smaller text, fewer files)", r.tool, err),
			fmt.Sprintf("%s : %s ; demandez moins (un texte plus court, moins de fichiers)", r.tool, e.Fr)))
	}
	if err != nil {
		return fail(err)
	}
	if need != nil {
		return &hostlogic.Read{Answer: *need}, raw, nil, Outcome{}, nil
	}
	raw, index = wire.Split(raw)
	read, err := hostlogic.ReadAnswer(raw)
	if err != nil {
		return fail(err)
	}
	return &read, raw, index, Outcome{}, nil
}

// keepLate stores the index a batch need that came after the deadline
// hands back (searchCarry.batch): the call is refused all the same.
func (r *rounds[L]) keepLate(raw []byte) {
	text, index := wire.Split(raw)
	if len(index) == 0 {
		return
	}
	if read, err := hostlogic.ReadAnswer(text); err == nil && read.Need != nil {
		r.sc.batch(read.Answer, index)
	}
}

// compact compacts the call's arguments on the first round
// (wire.CompactArgs); they are sent as they are from then on.
func (r *rounds[L]) compact() error {
	if !r.compacted {
		args, err := wire.CompactArgs(r.req.Args)
		if err != nil {
			return err
		}
		r.req.Args, r.compacted = args, true
	}
	return nil
}

// send sends the round's request to the engine: as a value when the
// engine takes one (DirectPinner), else as JSON. The value's maps are
// copied: the host adds the next round's answers to its own. need is
// the engine's answer as a value when it is a need with no search index
// (raw is then only its JSON): it need not be decoded.
func (r *rounds[L]) send(ctx context.Context) (need *wire.Answer, raw []byte, err error) {
	if r.direct == nil {
		raw, err = r.call(ctx, r.sc.request(&r.req))
		return nil, raw, err
	}
	ans, raw, err := r.direct(ctx, r.sc.value(&r.req))
	if err == nil && ans.Need != nil && ans.Search == nil {
		return &ans, raw, nil
	}
	return nil, raw, err
}

// answer answers the engine's need from the vault into the next request;
// done, with the refusal to return, when the call cannot go on.
func (r *rounds[L]) answer(ctx context.Context, ans hostlogic.Read, index []byte) (_ Outcome, done bool) {
	batch, err := r.policy.Need(*ans.Need, ans.Search)
	if err != nil {
		out, _ := r.refuse(err)
		return out, true
	}
	if batch && r.sc.batch(ans.Answer, index) {
		// A batch of the search index built and stored: the files
		// sent are indexed, the next request holds the next batch.
		r.req.Snapshot = vault.Snapshot{}
	}
	r.sc.answer(*ans.Need)
	if err := r.v.AnswerContext(ctx, *ans.Need, &r.req.Snapshot, r.opts.MaxBytes); err != nil {
		if r.d.late(err) {
			err = r.d.overrun(r.tool, r.sc.kept)
		}
		out, _ := r.refuse(err)
		return out, true
	}
	return Outcome{}, false
}

// end is the engine's last answer: a refusal, or a result whose plan it
// applies.
func (r *rounds[L]) end(ans hostlogic.Read, raw, index []byte) (Outcome, error) {
	if !*ans.OK {
		return Outcome{Answer: ans.Printed(), Raw: raw, Error: ans.Error}, nil
	}
	if len(ans.Plan) > 0 {
		if ans.Confirm != "" && r.opts.Confirm != nil {
			if err := r.confirm(ans.Confirm); err != nil {
				o := Refusal(err, r.opts.Lang)
				o.Raw = raw
				return o, nil
			}
		}
		if err := r.v.Apply(r.held.lock, ans.Plan); err != nil {
			o := Refusal(hostlogic.ConflictAs(ans.Conflict, err), r.opts.Lang)
			o.Raw = raw
			return o, nil
		}
	}
	raw = r.sc.store(ans.Answer, index, raw)
	return Outcome{Answer: ans.Printed(), Raw: raw, OK: true, Result: ans.Result, Warnings: ans.Warnings, Plan: ans.Plan}, nil
}

// confirm asks Options.Confirm the question, the vault's lock released
// meanwhile, and takes the lock again (and rolls forward a plan a crash
// left since) before the plan is applied.
func (r *rounds[L]) confirm(question string) error {
	r.held.unlock()
	if err := r.opts.Confirm(r.outer, question); err != nil {
		return err
	}
	lock, err := r.v.Lock(r.outer)
	if err != nil {
		return err
	}
	r.held.lock, r.held.released = lock, false
	return r.v.Recover(lock)
}

// held is the call's writer lock, released once (Run's defer, or
// confirm before it asks).
type held[L Lock] struct {
	lock     L
	released bool
}

func (h *held[L]) unlock() {
	if !h.released {
		h.released = true
		h.lock.Unlock()
	}
}

// Refusal renders a host-side error as the core renders its own refusals
// ({"ok":false,"error":…}); an error that is no *fault.Error is INTERNAL.
// Hosts use it for failures of the engine itself, so that every call gets
// one answer.
func Refusal(err error, lang string) Outcome {
	e, ok := fault.As(err)
	if !ok {
		e = fault.Internalf("%v", err)
	}
	out := hostlogic.Render(e, lang)
	body := &wire.ErrorBody{Code: string(e.Code), Message: e.Message(lang), Details: e.Details}
	return Outcome{Answer: out, Raw: out, Error: body}
}
