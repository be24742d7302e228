package vaultfs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"kessho/core"
	"kessho/core/fault"
	"kessho/core/plan"
	"kessho/core/tools"
	"kessho/core/vault"
)

// Engine runs core.Handle: natively or in the wasm module.
type Engine interface {
	Call(ctx context.Context, request []byte) ([]byte, error)
}

// CallOptions are a call's inputs besides the tool and its arguments. The
// zero value means: now, UTC, English, 8 rounds, 256 MiB of file text, a
// deadline of DefaultTimeout.
type CallOptions struct {
	Now       time.Time
	TZ        string // IANA zone of the vault; "" is UTC
	Lang      string // "en" or "fr"
	MaxRounds int    // need/answer rounds before LIMIT_EXCEEDED; default 8
	MaxBytes  int64  // file text the request may carry; default 256 MiB
	// Timeout bounds the whole call, from the moment it holds the vault's
	// lock to the engine's last answer: every round of the engine and
	// every read of the host. 0 means DefaultTimeout; a negative value
	// means no bound but ctx's own deadline. See Call.
	Timeout time.Duration
}

// DefaultTimeout is a call's deadline when CallOptions.Timeout is zero:
// the wasm engine's own bound on one run of the core
// (engine.DefaultCallTimeout), now for the whole call.
const DefaultTimeout = 10 * time.Second

// Outcome is what a call produced.
type Outcome struct {
	// Answer is what hosts show: {"ok":true,"result":…} or
	// {"ok":false,"error":…}, without the plan.
	Answer []byte
	// Raw is the engine's last answer, plan included: conformance tests
	// compare it across engines byte for byte.
	Raw []byte
	// Plan is the plan applied (nil when none or on error).
	Plan plan.Plan
	// OK is false for a refusal.
	OK bool
}

// Call runs tool on the vault: it takes the writer lock, rolls forward a
// journal left by a crash, asks the engine, answers its needs from disk
// (up to MaxRounds rounds), and applies the plan it returns, all under the
// lock. Holding the lock from the first read to the last write makes a
// call atomic with respect to every other Kessho process on the vault;
// writers outside Kessho (an editor, git) are caught by the plan's
// preconditions as CONFLICT.
//
// A refusal, from the core or from the host (CONFLICT, VAULT_LOCKED,
// LIMIT_EXCEEDED), comes back as an Outcome with OK false and a nil
// error; err is reserved for failures of the engine itself.
//
// # Deadline
//
// One deadline bounds the call: opts.Timeout (or ctx's deadline, when
// earlier), counted from the moment the call holds the lock, so that
// waiting for another writer (bounded by Vault.LockWait, VAULT_LOCKED) and
// rolling a crashed plan forward do not eat it. The same context, made
// once, goes to every round of the engine and every read of the vault, so
// the rounds share the deadline rather than each getting it anew. A call
// whose deadline passes before the engine's last answer answers
// LIMIT_EXCEEDED, whatever noticed it first: the host before a round, the
// engine (its deadline error, or a trap it died of once the deadline had
// passed), an engine answer that came back late (the native engine cannot
// be interrupted), the walk of the vault, or the round cap. Deciding by
// the clock rather than by which error came first keeps one input's
// answer one code. The plan, once answered in time, is applied whatever
// the clock says: stopping half-way would leave the journal to finish it.
func (v *Vault) Call(ctx context.Context, eng Engine, tool string, args json.RawMessage, opts CallOptions) (Outcome, error) {
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
	refuse := func(err error) (Outcome, error) {
		e, ok := fault.As(err)
		if !ok {
			e = fault.Internalf("%v", err)
		}
		return Refusal(e, opts.Lang), nil
	}
	lock, err := v.Lock(ctx)
	if err != nil {
		return refuse(err)
	}
	defer lock.Unlock()
	if err := v.Recover(lock); err != nil {
		return refuse(err)
	}

	start := time.Now()
	limit := opts.Timeout
	if limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	deadline, bounded := ctx.Deadline()
	if bounded && (limit <= 0 || deadline.Before(start.Add(limit))) {
		limit = 0 // ctx's own deadline, earlier: its length is the caller's
	}
	// late reports whether the deadline has passed, by the clock: a timer
	// may not have fired yet.
	late := func(err error) bool {
		return bounded && !time.Now().Before(deadline) || errors.Is(err, context.DeadlineExceeded)
	}
	overrun := func() (Outcome, error) {
		if limit <= 0 {
			return refuse(fault.New(fault.LimitExceeded, map[string]any{"tool": tool},
				fmt.Sprintf("%s did not finish before the call's deadline; ask for less of the vault, or give the call more time", tool),
				fmt.Sprintf("%s n'a pas fini avant l'échéance de l'appel ; demandez moins du coffre, ou donnez plus de temps à l'appel", tool)))
		}
		return refuse(fault.New(fault.LimitExceeded, map[string]any{"tool": tool, "timeout_ms": limit.Milliseconds()},
			fmt.Sprintf("%s did not finish within the call's deadline of %s; ask for less of the vault, or give the call more time (kessho --timeout)", tool, limit),
			fmt.Sprintf("%s n'a pas fini dans le délai de l'appel (%s) ; demandez moins du coffre, ou donnez plus de temps à l'appel (kessho --timeout)", tool, limit)))
	}

	req := core.Request{Tool: tool, Args: args, Now: opts.Now.Format(time.RFC3339), TZ: opts.TZ, Lang: opts.Lang}
	for round := 0; ; round++ {
		if late(nil) {
			return overrun()
		}
		reqJSON, err := json.Marshal(req)
		if err != nil {
			return Outcome{}, fmt.Errorf("call %s: encoding request: %w", tool, err)
		}
		raw, err := eng.Call(ctx, reqJSON)
		if late(err) {
			// Whatever the engine answered or died of: the deadline passed.
			return overrun()
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
		var ans struct {
			Need   *json.RawMessage `json:"need"`
			OK     *bool            `json:"ok"`
			Result json.RawMessage  `json:"result"`
			Error  json.RawMessage  `json:"error"`
			Plan   plan.Plan        `json:"plan"`
		}
		if err := json.Unmarshal(raw, &ans); err != nil {
			return Outcome{}, fmt.Errorf("call %s: the engine answered invalid JSON: %w", tool, err)
		}
		if ans.Need != nil {
			if round+1 >= opts.MaxRounds {
				return refuse(fault.New(fault.LimitExceeded, map[string]any{"rounds": opts.MaxRounds},
					fmt.Sprintf("%s still needed more of the vault after %d rounds", tool, opts.MaxRounds),
					fmt.Sprintf("%s demandait encore des fichiers après %d tours", tool, opts.MaxRounds)))
			}
			var need needJSON
			if err := json.Unmarshal(*ans.Need, &need.Need); err != nil {
				return Outcome{}, fmt.Errorf("call %s: bad need: %w", tool, err)
			}
			if err := v.AnswerContext(ctx, need.Need, &req.Snapshot, opts.MaxBytes); err != nil {
				if late(err) {
					return overrun()
				}
				return refuse(err)
			}
			continue
		}
		if ans.OK == nil {
			return Outcome{}, fmt.Errorf("call %s: the engine's answer has neither need nor ok", tool)
		}
		if !*ans.OK {
			out, _ := json.Marshal(struct {
				OK    bool            `json:"ok"`
				Error json.RawMessage `json:"error"`
			}{false, ans.Error})
			return Outcome{Answer: out, Raw: raw}, nil
		}
		if len(ans.Plan) > 0 {
			if err := v.Apply(lock, ans.Plan); err != nil {
				o, _ := refuse(conflictAs(tool, err))
				o.Raw = raw
				return o, nil
			}
		}
		out, _ := json.Marshal(struct {
			OK     bool            `json:"ok"`
			Result json.RawMessage `json:"result"`
		}{true, ans.Result})
		return Outcome{Answer: out, Raw: raw, Plan: ans.Plan, OK: true}, nil
	}
}

type needJSON struct{ Need vault.Need }

// conflictAs gives a failed precondition (CONFLICT) the tool's own code,
// catalog.Tool.ConflictCode when it has one; message and details stay.
func conflictAs(tool string, err error) error {
	e, ok := fault.As(err)
	if !ok || e.Code != fault.Conflict {
		return err
	}
	if t, ok := tools.Spec(tool); ok && t.ConflictCode != "" {
		c := *e
		c.Code = t.ConflictCode
		return &c
	}
	return err
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
	out, _ := json.Marshal(struct {
		OK    bool           `json:"ok"`
		Error core.ErrorBody `json:"error"`
	}{false, core.ErrorBody{Code: string(e.Code), Message: e.Message(lang), Details: e.Details}})
	return Outcome{Answer: out, Raw: out}
}
