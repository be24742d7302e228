package hostlogic

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/wire"
)

// Read is an engine's answer (wire.Answer) as a host reads it, once: the
// need, or the outcome with its plan and conflict code, and the refusal's
// JSON exactly as the core wrote it.
type Read struct {
	wire.Answer
	ErrorJSON json.RawMessage
	// Warnings is a success's result's "warnings", read in the decode of
	// the answer (MCP logs them).
	Warnings []string
	// loose is set when Result or ErrorJSON may not be as json.Marshal
	// writes them (an answer encoding/json read): Printed then
	// re-encodes them. The core writes them so (its okAnswer and
	// errorAnswer), which a walk of the answer checked (DecodeSuccess).
	loose bool
}

// ReadAnswer decodes an engine's answer: it must hold a need or "ok",
// and a refusal must be an error body. A success as the core writes one
// is read in one walk (wire.DecodeSuccess); any other answer, and any
// the walk is not sure of, by encoding/json.
func ReadAnswer(raw []byte) (Read, error) {
	if s, ok := wire.DecodeSuccess(raw); ok {
		return Read{Answer: s.Answer, Warnings: s.Warnings, loose: !s.Compact}, nil
	}
	var ans struct {
		wire.Answer
		Error json.RawMessage `json:"error"` // outranks wire.Answer.Error
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return Read{}, fmt.Errorf("the engine answered invalid JSON: %w", err)
	}
	switch {
	case ans.Need != nil:
	case ans.OK == nil:
		return Read{}, errors.New("the engine's answer has neither need nor ok")
	case !*ans.OK:
		var body wire.ErrorBody
		if err := json.Unmarshal(ans.Error, &body); err != nil {
			return Read{}, fmt.Errorf("the engine's refusal is no error body: %w", err)
		}
		ans.Answer.Error = &body
	}
	read := Read{Answer: ans.Answer, ErrorJSON: ans.Error, loose: true}
	var r struct {
		Warnings []string `json:"warnings"`
	}
	if ans.OK != nil && *ans.OK && json.Unmarshal(ans.Result, &r) == nil {
		read.Warnings = r.Warnings
	}
	return read, nil
}

// Printed is what a host prints for a final answer, the plan left out:
// {"ok":true,"result":…} (once its plan landed) or {"ok":false,"error":…},
// the result or error as the core wrote them: appended as they are, or
// re-encoded by encoding/json when they may not be as it writes them
// (loose).
func (a Read) Printed() []byte {
	if !*a.OK {
		if !a.loose && len(a.ErrorJSON) > 0 {
			return append(append([]byte(`{"ok":false,"error":`), a.ErrorJSON...), '}')
		}
		out, _ := json.Marshal(struct {
			OK    bool            `json:"ok"`
			Error json.RawMessage `json:"error"`
		}{false, a.ErrorJSON})
		return out
	}
	if !a.loose && len(a.Result) > 0 {
		out := make([]byte, 0, len(a.Result)+len(`{"ok":true,"result":}`))
		return append(append(append(out, `{"ok":true,"result":`...), a.Result...), '}')
	}
	out, _ := json.Marshal(struct {
		OK     bool            `json:"ok"`
		Result json.RawMessage `json:"result"`
	}{true, a.Result})
	return out
}

// ConflictAs gives a failed precondition (CONFLICT) the code the core
// named beside the plan (wire.Answer.Conflict), when it named one;
// message and details stay.
func ConflictAs(code string, err error) error {
	e, ok := fault.As(err)
	if !ok || e.Code != fault.Conflict || code == "" {
		return err
	}
	c := *e
	c.Code = fault.Code(code)
	return &c
}

// CanonicalNow writes an RFC 3339 time as the Go host sends it to the
// core (time.RFC3339: fractional seconds dropped, a zero offset written
// Z). Text that is not RFC 3339 is returned as is, for the core to refuse.
func CanonicalNow(s string) string {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return s
	}
	return t.Format(time.RFC3339)
}
