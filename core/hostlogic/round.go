package hostlogic

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/kessho/kessho/core/wire"
)

// ErrRoundInput is Round's refusal of input that is not now NUL head NUL rest.
var ErrRoundInput = errors.New("a round's input is not: the time, NUL, the request's head, NUL, the rest")

// Round runs one round of a call as the plugin's worker asks it, in one
// call into the module where it took four (docs/HOSTS.md, "A call"): the
// time made canonical (the "now" request), handle on the request built
// around it (core.Core.HandleAnswer, passed in: this package does not link the
// core), the answer read (read_answer), and the first question a host
// asks of what it read (the first Step of answering a need: its check
// and its first I/O, NeedStep; a plan's check is its apply's first Step).
// The answer's text crosses the module's boundary once, not escaped into
// a second request.
//
// The input is the time as the host gives it, a NUL, the request's JSON
// up to its time (ending `"now":`), a NUL, then the rest of the request:
// its JSON after the time, and, when it carries a search index, a NUL and
// the index's bytes (docs/HOSTS.md, section 6).
//
// The output is the read (read_answer's answer, without "printed" when
// that is the engine's answer itself, its JSON as is), a NUL, the need's
// first step (a wire.StepOut; "" when the read has no need, or is
// invalid), a
// NUL, then the core's answer as it is (its JSON, and a NUL and the
// index's bytes when it hands one back). Neither JSON holds a raw NUL.
func Round(input []byte, handle func(request []byte) (wire.Answer, []byte)) ([]byte, error) {
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
	req = append(append(append(req, head...), quoted...), rest...)
	ans, raw := handle(req)
	read, check := readAnswerChecked(readOf(ans, raw))
	if m, ok := read.(map[string]any); ok {
		// What a host prints is most often the answer itself (no plan, no
		// index): said once, not twice (a dry run's answer is megabytes).
		if p, ok := m["printed"].(string); ok && p == string(answerJSON(raw)) {
			delete(m, "printed")
		}
	}
	readJSON := answer(read)
	var checkJSON []byte
	if check != nil {
		checkJSON = NeedStep(*check)
	}
	out := make([]byte, 0, len(readJSON)+1+len(checkJSON)+1+len(raw))
	out = append(append(out, readJSON...), 0)
	out = append(append(out, checkJSON...), 0)
	return append(out, raw...), nil
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
	return ReadAnswer(answerJSON(raw))
}

// answerJSON is an engine's answer without the search index after its NUL.
func answerJSON(raw []byte) []byte {
	j, _, _ := bytes.Cut(raw, []byte{0})
	return j
}
