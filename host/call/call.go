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
	// Clock counts the deadline; nil is the real clock (tests give theirs).
	Clock Clock
	// Round, when set, is called before each round of the engine with the
	// round's number, from 1: hosts report progress with it (MCP's
	// progress notifications). It changes nothing in the call.
	Round func(round int)
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
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxRounds == 0 {
		opts.MaxRounds = 8
	}
	if opts.MaxBytes == 0 {
		opts.MaxBytes = 256 << 20
	}
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	refuse := func(err error) (Outcome, error) { return Refusal(err, opts.Lang), nil }
	lock, err := v.Lock(ctx)
	if err != nil {
		return refuse(err)
	}
	defer lock.Unlock()
	if err := v.Recover(lock); err != nil {
		return refuse(err)
	}

	ctx, d, cancel := newDeadline(ctx, opts.Timeout, opts.Clock)
	defer cancel()
	sc := newCarry(ctx, v, tool, opts.IndexBatch)
	req := wire.Request{Tool: tool, Args: args, Now: opts.Now.Format(time.RFC3339), TZ: opts.TZ, Lang: opts.Lang, Search: sc.carry}
	counted := 0 // rounds that count against MaxRounds: a batch's do not
	for round := 0; ; round++ {
		if d.late(nil) {
			return refuse(d.overrun(tool))
		}
		if opts.Round != nil {
			opts.Round(round + 1)
		}
		reqJSON, err := sc.request(&req)
		if err != nil {
			return Outcome{}, fmt.Errorf("call %s: encoding request: %w", tool, err)
		}
		raw, err := eng.Call(ctx, reqJSON)
		if d.late(err) {
			// Whatever the engine answered or died of: the deadline passed.
			return refuse(d.overrun(tool))
		}
		if e, ok := fault.As(err); ok && e.Code == fault.LimitExceeded {
			// A bound of the engine: a refusal like the host's own bounds.
			return refuse(fault.New(fault.LimitExceeded, map[string]any{"tool": tool},
				fmt.Sprintf("%s: %v; ask for less (a smaller text, fewer files)", tool, err),
				fmt.Sprintf("%s : %s ; demandez moins (un texte plus court, moins de fichiers)", tool, e.Fr)))
		}
		if err != nil {
			return Outcome{}, fmt.Errorf("call %s: %w", tool, err)
		}
		raw, index := wire.Split(raw)
		ans, err := hostlogic.ReadAnswer(raw)
		if err != nil {
			return Outcome{}, fmt.Errorf("call %s: %w", tool, err)
		}
		if ans.Need != nil {
			if sc.batch(ans.Answer, index) {
				// A batch of the search index built and stored: the files
				// sent are indexed, the next request holds the next batch.
				req.Snapshot = vault.Snapshot{}
			} else if counted++; counted >= opts.MaxRounds {
				return refuse(hostlogic.TooManyRounds(tool, opts.MaxRounds))
			}
			sc.answer(*ans.Need)
			if err := v.AnswerContext(ctx, *ans.Need, &req.Snapshot, opts.MaxBytes); err != nil {
				if d.late(err) {
					return refuse(d.overrun(tool))
				}
				return refuse(err)
			}
			continue
		}
		if !*ans.OK {
			return Outcome{Answer: ans.Printed(), Raw: raw, Error: ans.Error}, nil
		}
		if len(ans.Plan) > 0 {
			if err := v.Apply(lock, ans.Plan); err != nil {
				o := Refusal(hostlogic.ConflictAs(ans.Conflict, err), opts.Lang)
				o.Raw = raw
				return o, nil
			}
		}
		raw = sc.store(ans.Answer, index, raw)
		return Outcome{Answer: ans.Printed(), Raw: raw, OK: true, Result: ans.Result, Plan: ans.Plan}, nil
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
