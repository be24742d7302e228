package hostlogic

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/wire"
)

// Step runs one step of a host's call, apply or recovery (the wasm
// module's wire.EntryStep): the journal's sweep, recovery, a call's
// rounds and the answering of their needs, the plan's check, the
// journal, landing the ops and undoing them are decided here; the host
// only does the I/O a step asks (wire.IO, one method of its port to the
// vault each) and sends back what it gave. In: a wire.StepIn's JSON, and,
// after a NUL, the round's input when the host sends a round's request
// (roundRequest); out: a wire.StepOut's JSON, and, when the step ran a
// round, a NUL, the call's answer as the host prints it when the call
// ends OK ("" when it was no success), a NUL and the search index the
// round handed back (none: nothing after the NUL). handle runs a round's
// request.
//
// A step holds no state between crossings: the state it answers (opaque
// to the host) is the start and every result so far, and each step runs
// the apply again from the start over them (replay), answering each I/O
// from the results, until it reaches I/O it has no result for. From
// there it foresees what it can (a write succeeds, a file holds what the
// plan expects) and asks for I/O until the first whose result it cannot
// foresee: the host runs them in order and stops at the first whose result
// differs. Plans are short and the replay does no I/O, so running it
// again costs less than a crossing. A call's replay starts at its last
// round (checkpoint): the rounds before it are done.
func Step(input []byte, handle Handler) []byte {
	j, round, hasRound := bytes.Cut(input, []byte{0})
	var in wire.StepIn
	if err := json.Unmarshal(j, &in); err != nil {
		return stepAnswer(wire.StepOut{End: endOf(fault.Internalf("a step is not valid JSON: %v", err), "")})
	}
	m := &machine{in: in, handle: handle}
	if in.Start != nil {
		m.st.Start = *in.Start
	} else if err := json.Unmarshal([]byte(in.State), &m.st); err != nil {
		return stepAnswer(wire.StepOut{End: endOf(fault.Internalf("a step's state is not the core's: %v", err), "")})
	}
	if hasRound {
		req, err := roundRequest(round)
		if err != nil {
			return stepAnswer(wire.StepOut{End: m.end(fault.Internalf("%v", err))})
		}
		m.request = req
	}
	m.st.Results = append(m.st.Results, in.Results...)
	m.keepDrawn()
	return m.answer()
}

// answer is the replay's answer: its end, or the I/O it asks next; then
// what the round it ran handed back.
func (m *machine) answer() []byte {
	end, done := m.replay()
	var out wire.StepOut
	switch {
	case done && len(m.out) == 0:
		out = wire.StepOut{End: end}
	case done:
		out = wire.StepOut{IO: m.out, State: m.state(), Then: end}
	default:
		out = wire.StepOut{IO: m.out, State: m.state()}
	}
	b := stepAnswer(out)
	if !m.ran {
		return b
	}
	b = append(append(b, 0), m.printed...)
	return append(append(b, 0), m.index...)
}

func stepAnswer(out wire.StepOut) []byte {
	b, _ := json.Marshal(out)
	return b
}

// end is how the steps ended, err their error.
func (m *machine) end(err error) *wire.StepEnd { return endOf(err, m.st.Start.Lang) }

// stepState is what crosses as wire.StepOut.State.
type stepState struct {
	Start   wire.StepStart  `json:"start"`
	Results []wire.IOResult `json:"results,omitempty"`
	// Drawn are the times and random values the apply drew, in order,
	// each with how many results there were when it was drawn.
	Drawn []drawn `json:"drawn,omitempty"`
	// Mark, in a call past its recovery, is where its replay starts.
	Mark *checkpoint `json:"mark,omitempty"`
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

	// A call's: its handler, the round's request the host sent with
	// this step (nil once run), whether it ran (ran) and what it handed
	// back, its rounds' policy, and the last round's place (mark).
	handle         Handler
	request        []byte
	ran            bool
	printed, index []byte
	rounds         Rounds
	mark           *mark
}

// mark is the last round a replay read: the results before it, the
// rounds counted before it, and its reading.
type mark struct {
	pos, counted int
	read         roundRead
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
				end, done = m.end(r.err), true
			default:
				panic(r)
			}
		}
	}()
	return m.end(m.run()), true
}

// state is what crosses to the next step; a call's from its last round
// on (checkpoint), the results and values drawn before it dropped.
func (m *machine) state() string {
	st := m.st
	if k := m.mark; k != nil && k.pos > 0 {
		st.Results = st.Results[k.pos:]
		st.Drawn = nil
		for _, d := range m.st.Drawn {
			if d.At >= k.pos {
				st.Drawn = append(st.Drawn, drawn{At: d.At - k.pos, V: d.V})
			}
		}
	}
	if m.mark != nil {
		st.Mark = &checkpoint{Read: m.mark.read, Counted: m.mark.counted}
	}
	b, _ := json.Marshal(st)
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

// endOf is how steps ended, err their error: OK, or what the host
// prints (a call's refusal by the core as it wrote it; any other error
// rendered in lang, an error not the core's as INTERNAL), or a call's
// failure.
func endOf(err error, lang string) *wire.StepEnd {
	var refused *coreRefusal
	var invalid *invalidAnswer
	switch {
	case err == nil:
		return &wire.StepEnd{OK: true}
	case errors.As(err, &refused):
		return &wire.StepEnd{Answer: refused.printed}
	case errors.As(err, &invalid):
		return &wire.StepEnd{Invalid: invalid.why}
	}
	e, ok := fault.As(err)
	if !ok {
		e = fault.Internalf("%v", err)
	}
	return &wire.StepEnd{Answer: string(Render(e, lang))}
}

// foresee is an op's foreseen result.
func foresee(v string) *string { return &v }

// done is the foreseen result of an op that gives nothing but success.
func succeeds() *string { return foresee("") }
