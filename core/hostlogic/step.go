package hostlogic

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/wire"
)

// Step runs one step of a host's apply or recovery (the wasm module's
// wire.EntryStep): the journal's sweep, recovery, the plan's check, the
// journal, landing the ops and undoing them are decided here; the host
// only does the I/O a step asks (wire.IO, one method of its port to the
// vault each) and sends back what it gave. In: a wire.StepIn's JSON; out:
// a wire.StepOut's.
//
// A step holds no state between crossings: the state it answers (opaque
// to the host) is the start and every result so far, and each step runs
// the apply again from the start over them (replay), answering each I/O
// from the results, until it reaches I/O it has no result for. From
// there it foresees what it can (a write succeeds, a file holds what the
// plan expects) and asks for I/O until the first whose result it cannot
// foresee: the host runs them in order and stops at the first whose result
// differs. Plans are short and the replay does no I/O, so running it
// again costs less than a crossing.
func Step(input []byte) []byte {
	var in wire.StepIn
	if err := json.Unmarshal(input, &in); err != nil {
		return stepAnswer(wire.StepOut{End: endOf(fault.Internalf("a step is not valid JSON: %v", err))})
	}
	m := &machine{in: in}
	if in.Start != nil {
		m.st.Start = *in.Start
	} else if err := json.Unmarshal([]byte(in.State), &m.st); err != nil {
		return stepAnswer(wire.StepOut{End: endOf(fault.Internalf("a step's state is not the core's: %v", err))})
	}
	m.st.Results = append(m.st.Results, in.Results...)
	m.keepDrawn()
	return m.answer()
}

// NeedStep is the first step of answering need (a wire.StepOut's JSON),
// as a Step of a StepStart naming it would answer: the Round entry's,
// so that a round's need costs no crossing of its own to start.
func NeedStep(need wire.Need) []byte {
	m := &machine{st: stepState{Start: wire.StepStart{Need: &need}}}
	return m.answer()
}

// answer is the replay's answer: its end, or the I/O it asks next.
func (m *machine) answer() []byte {
	end, done := m.replay()
	switch {
	case done && len(m.out) == 0:
		return stepAnswer(wire.StepOut{End: end})
	case done:
		return stepAnswer(wire.StepOut{IO: m.out, State: m.state(), Then: end})
	}
	return stepAnswer(wire.StepOut{IO: m.out, State: m.state()})
}

func stepAnswer(out wire.StepOut) []byte {
	b, _ := json.Marshal(out)
	return b
}

// stepState is what crosses as wire.StepOut.State.
type stepState struct {
	Start   wire.StepStart  `json:"start"`
	Results []wire.IOResult `json:"results,omitempty"`
	// Drawn are the times and random values the apply drew, in order,
	// each with how many results there were when it was drawn.
	Drawn []drawn `json:"drawn,omitempty"`
}

type drawn struct {
	At int    `json:"at"`
	V  string `json:"v"`
}

// machine is one step's replay of the apply.
type machine struct {
	st    stepState
	in    wire.StepIn
	pos   int // results used
	used  int // drawn values used
	draws int // values drawn this step
	out   []wire.IO
}

// pending stops the replay at I/O it cannot foresee.
type pending struct{}

// replay runs the apply over the results; done when it ended (end is
// how), not when it stopped at I/O to ask.
func (m *machine) replay() (end *wire.StepEnd, done bool) {
	defer func() {
		if r := recover(); r != nil {
			switch r := r.(type) {
			case pending:
				end, done = nil, false
			case badStep:
				end, done = endOf(r.err), true
			default:
				panic(r)
			}
		}
	}()
	return endOf(m.run()), true
}

func (m *machine) state() string {
	b, _ := json.Marshal(m.st)
	return string(b)
}

// keepDrawn keeps the values drawn before an op the host ran: the ones
// drawn after the last op it ran were never acted on, and are drawn again.
func (m *machine) keepDrawn() {
	for i, d := range m.st.Drawn {
		if d.At >= len(m.st.Results) {
			m.st.Drawn = m.st.Drawn[:i]
			return
		}
	}
}

// do is op's result: the host's, or foreseen (expect), or, past both,
// op asked of the host and the replay stopped.
func (m *machine) do(op wire.IO, expect *string) wire.IOResult {
	if m.pos < len(m.st.Results) {
		r := m.st.Results[m.pos]
		m.pos++
		return r
	}
	op.Expect = expect
	m.out = append(m.out, op)
	if expect == nil {
		panic(pending{})
	}
	m.pos++
	return wire.IOResult{V: *expect}
}

// all is do of ops whose results decide nothing about the ops after
// them (looks, reads): those past the results are asked together, the
// foreseen ones (expect of their index; nil: none) first among them as
// do would. It stops at the first that failed, whose error it returns
// with the results before it.
func (m *machine) all(ops []wire.IO, expect func(i int) *string) ([]wire.IOResult, error) {
	out := make([]wire.IOResult, 0, len(ops))
	asked := false
	for i, op := range ops {
		if m.pos < len(m.st.Results) {
			r := m.st.Results[m.pos]
			m.pos++
			if r.Err != nil {
				return out, &ioFail{*r.Err}
			}
			out = append(out, r)
			continue
		}
		op.Expect = expect(i)
		m.out = append(m.out, op)
		m.pos++
		if op.Expect == nil {
			asked = true
			continue
		}
		out = append(out, wire.IOResult{V: *op.Expect})
	}
	if asked {
		panic(pending{})
	}
	return out, nil
}

// try is do of an op whose failure is an error.
func (m *machine) try(op wire.IO, expect *string) (wire.IOResult, error) {
	r := m.do(op, expect)
	if r.Err != nil {
		return r, &ioFail{*r.Err}
	}
	return r, nil
}

// draw is the next value drawn: the one drawn in an earlier step, or
// fresh (from this step's input).
func (m *machine) draw(fresh string) string {
	if m.used < len(m.st.Drawn) {
		m.used++
		return m.st.Drawn[m.used-1].V
	}
	m.st.Drawn = append(m.st.Drawn, drawn{At: m.pos, V: fresh})
	m.used++
	return fresh
}

func (m *machine) now() time.Time  { return m.timeOf(m.in.Now) }
func (m *machine) wall() time.Time { return m.timeOf(m.in.Wall) }

func (m *machine) timeOf(fresh string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, m.draw(fresh))
	if err != nil {
		panic(badStep{fault.Internalf("a step without a valid time")})
	}
	return t
}

// random is n random bytes in hex, drawn from the step's randomness.
func (m *machine) random(n int) string {
	m.draws++
	sum := sha256.Sum256([]byte(m.in.Random + ":" + strconv.Itoa(m.draws)))
	return m.draw(hex.EncodeToString(sum[:n]))
}

// badStep ends the apply with an error the replay cannot go on from.
type badStep struct{ err error }

// ioFail is an op's failure as an error: its text is the host's.
type ioFail struct{ wire.IOError }

func (e *ioFail) Error() string { return e.Message }

// stale is the failure of a re-check that no longer held at p.
func stale(why, p string) error {
	return &ioFail{wire.IOError{Stale: why, Path: p, Message: why + ": " + p}}
}

// staleOf is err's stale failure, or nil.
func staleOf(err error) *ioFail {
	var f *ioFail
	if errors.As(err, &f) && f.Stale != "" {
		return f
	}
	return nil
}

func endOf(err error) *wire.StepEnd {
	var e *fault.Error
	switch {
	case err == nil:
		return &wire.StepEnd{OK: true}
	case errors.As(err, &e):
		w := wireErr(e)
		return &wire.StepEnd{Error: &w}
	}
	return &wire.StepEnd{Internal: err.Error()}
}

// foresee is an op's foreseen result.
func foresee(v string) *string { return &v }

// done is the foreseen result of an op that gives nothing but success.
func succeeds() *string { return foresee("") }
