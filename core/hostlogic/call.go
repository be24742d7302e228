package hostlogic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/wire"
)

// A call run whole as steps (wire.StepCall), the plugin's one loop
// (docs/HOSTS.md, "A call"): the journals rolled forward, then rounds of
// the core until it answers, each need answered into the host's
// snapshot, a search index's batches handed to the host to keep, and
// the plan applied. The host builds each round's request from its
// snapshot (the bulk of a request, never sent back as state) and sends
// it with the next step; the core runs it there (Handler), so a round
// costs no crossing of its own.

// Handler is the core's handler of a request (core.Core.HandleAnswer,
// passed in: this package does not link the core): its answer, and the
// answer's bytes (its JSON, and a NUL and a search index when it hands
// one back).
type Handler func(request []byte) (wire.Answer, []byte)

// ErrRoundInput is the refusal of a round's input that is not now NUL head NUL rest.
var ErrRoundInput = errors.New("a round's input is not: the time, NUL, the request's head, NUL, the rest")

// roundRequest is the request of a round's input: the time as the host
// gives it, a NUL, the request's JSON up to its time (ending `"now":`), a
// NUL, then the rest of the request (its JSON after the time, and, when
// it carries a search index, a NUL and the index's bytes). The time is
// made canonical here (CanonicalNow), as the Go host writes --now.
func roundRequest(input []byte) ([]byte, error) {
	now, rest, ok := bytes.Cut(input, []byte{0})
	if !ok {
		return nil, ErrRoundInput
	}
	head, rest, ok := bytes.Cut(rest, []byte{0})
	if !ok {
		return nil, ErrRoundInput
	}
	quoted, _ := json.Marshal(CanonicalNow(string(now)))
	req := make([]byte, 0, len(head)+len(quoted)+len(rest))
	return append(append(append(req, head...), quoted...), rest...), nil
}

// roundRead is what a call keeps of a round's answer, in the state from
// its checkpoint on: a need (Batch, the id of the index batch that
// came with it), or the end (OK, with its plan; a refusal as printed;
// Invalid: no answer). A success's printed answer is not kept: the step
// that ran the round handed it to the host.
type roundRead struct {
	Need     *wire.Need `json:"need,omitempty"`
	Batch    string     `json:"batch,omitempty"`
	OK       bool       `json:"ok,omitempty"`
	Plan     plan.Plan  `json:"plan,omitempty"`
	Conflict string     `json:"conflict,omitempty"`
	Stored   string     `json:"stored,omitempty"`
	Refusal  string     `json:"refusal,omitempty"`
	Invalid  string     `json:"invalid,omitempty"`
	// Indexed and Left are how far a build got at a batch need (Carry's).
	Indexed int `json:"indexed,omitempty"`
	Left    int `json:"left,omitempty"`
}

// checkpoint is where a call's replay starts: at its last round, whose
// reading is Read, with Counted rounds counted before it; the results
// that follow are the I/O after it. What came before (the recovery, the
// earlier rounds and their needs) is done, and dropped from the state,
// which stays as small as one round's.
type checkpoint struct {
	Read    roundRead `json:"read"`
	Counted int       `json:"counted"`
}

// runCall is a whole call.
func (m *machine) runCall(c wire.StepCall) error {
	m.rounds = Rounds{Tool: c.Tool, Max: c.MaxRounds}
	if m.st.Mark == nil {
		if err := m.recoverJournals(); err != nil {
			return err
		}
	} else {
		m.rounds.Counted = m.st.Mark.Counted
	}
	for {
		read, err := m.round()
		if err != nil {
			return err
		}
		if read.Need == nil {
			return m.finish(read)
		}
		var carry *wire.Carry
		if read.Batch != "" {
			carry = &wire.Carry{ID: read.Batch}
		}
		batch, err := m.rounds.Need(*read.Need, carry)
		if err != nil {
			return err
		}
		if batch {
			m.do(wire.IO{Op: wire.IOIndexStore, To: read.Batch, Indexed: read.Indexed, Left: read.Left}, succeeds())
			m.do(wire.IO{Op: wire.IOResetSnap}, succeeds())
		}
		switch s := read.Need.Search; s {
		case "notes", "index", "stored":
			if _, err := m.try(wire.IO{Op: wire.IOIndexRead, What: s}, succeeds()); err != nil {
				return err
			}
		}
		if err := m.answerNeed(*read.Need); err != nil {
			return err
		}
	}
}

// finish ends a call on its last round's read: its refusal, or its
// index kept and its plan applied (a failed precondition under the code
// the answer named).
func (m *machine) finish(read roundRead) error {
	switch {
	case read.Invalid != "":
		return &invalidAnswer{fmt.Sprintf("call %s: %s", m.st.Start.Call.Tool, read.Invalid)}
	case !read.OK:
		return &coreRefusal{read.Refusal}
	}
	if read.Stored != "" {
		m.do(wire.IO{Op: wire.IOIndexStore, To: read.Stored}, succeeds())
	}
	if len(read.Plan) == 0 {
		return nil
	}
	return ConflictAs(read.Conflict, m.apply(read.Plan))
}

// round is the read of the call's next round: the checkpoint's, or the
// request the host sent with this step (Handler runs it), or asked.
func (m *machine) round() (roundRead, error) {
	var read roundRead
	switch {
	case m.st.Mark != nil && m.mark == nil:
		read = m.st.Mark.Read
	case m.pos < len(m.st.Results):
		return read, fault.Internalf("a step's state has results where its round is")
	case m.request == nil || m.pos > len(m.st.Results):
		m.out = append(m.out, wire.IO{Op: wire.IORound})
		panic(pending{})
	default:
		read = m.handleRound()
		m.request = nil
	}
	m.mark = &mark{pos: m.pos, counted: m.rounds.Counted, read: read}
	return read, nil
}

// handleRound runs the round's request: what the call keeps of it, the
// printed answer and the index it hands back to send with this step.
func (m *machine) handleRound() roundRead {
	ans, raw := m.handle(m.request)
	m.ran = true
	_, m.index, _ = bytes.Cut(raw, []byte{0})
	read, err := readOf(ans, raw)
	var rr roundRead
	switch {
	case err != nil:
		rr.Invalid = err.Error()
	case read.Need != nil:
		rr.Need = read.Need
		if read.Search != nil {
			rr.Batch, rr.Indexed, rr.Left = read.Search.ID, read.Search.Indexed, read.Search.Left
		}
	case !*read.OK:
		rr.Refusal = string(read.Printed())
	default:
		rr.OK, rr.Plan, rr.Conflict = true, read.Plan, read.Conflict
		if read.Search != nil {
			rr.Stored = read.Search.ID
		}
		m.printed = read.Printed()
	}
	return rr
}

// readOf is ReadAnswer of raw, the answer ans encoded, read from ans
// itself where that gives the same Read: a success (its plan and result,
// often a note's text, not decoded again) or a refusal with its error
// body (the body encoded alone, as json.Marshal wrote it inside raw). A
// need, small, and any answer not of these shapes are decoded from raw as
// ReadAnswer does, so that every word of its verdict stays the same.
func readOf(ans wire.Answer, raw []byte) (Read, error) {
	switch {
	case ans.Need != nil || ans.OK == nil:
	case *ans.OK && ans.Error == nil:
		return Read{Answer: ans}, nil
	case !*ans.OK && ans.Error != nil:
		if body, err := json.Marshal(ans.Error); err == nil {
			return Read{Answer: ans, ErrorJSON: body}, nil
		}
	}
	j, _, _ := bytes.Cut(raw, []byte{0})
	return ReadAnswer(j)
}

// coreRefusal ends a call with the core's own refusal, as printed.
type coreRefusal struct{ printed string }

func (e *coreRefusal) Error() string { return e.printed }

// invalidAnswer ends a call whose engine gave no answer.
type invalidAnswer struct{ why string }

func (e *invalidAnswer) Error() string { return e.why }
