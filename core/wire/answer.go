package wire

import (
	"bytes"
	"encoding/json"
)

// EncodeAnswer is json.Marshal(ans), byte for byte, without its second
// pass over the result: encoding/json re-validates and re-compacts a
// json.RawMessage, and the result is already the compact JSON json.Marshal
// made of it (the core's okAnswer). An answer carrying a search index goes through
// json.Marshal (the index itself follows the JSON: core.Core.Handle, Prepend).
func EncodeAnswer(ans Answer) ([]byte, error) {
	if ans.OK == nil || !*ans.OK || ans.Need != nil || ans.Error != nil || ans.Search != nil {
		return json.Marshal(ans)
	}
	out := append(make([]byte, 0, len(ans.Result)+64), `{"ok":true`...)
	if len(ans.Result) > 0 {
		out = append(append(out, `,"result":`...), ans.Result...)
	}
	if len(ans.Plan) > 0 {
		p, err := json.Marshal(ans.Plan)
		if err != nil {
			return nil, err
		}
		out = append(append(out, `,"plan":`...), p...)
	}
	if ans.Conflict != "" {
		c, _ := json.Marshal(ans.Conflict)
		out = append(append(out, `,"conflict":`...), c...)
	}
	if ans.Confirm != "" {
		c, _ := json.Marshal(ans.Confirm)
		out = append(append(out, `,"confirm":`...), c...)
	}
	return append(out, '}'), nil
}

// Success is a success answer as DecodeSuccess reads it.
type Success struct {
	Answer
	// Warnings is the result's "warnings" (an object's array of strings),
	// read in the walk that took the result.
	Warnings []string
	// Compact reports that the result is as json.Marshal writes it (no
	// blank between tokens, HTML's characters escaped), as the core's
	// okAnswer wrote it: a host may copy it into what it prints.
	Compact bool
}

// DecodeSuccess reads a success as EncodeAnswer writes one,
// {"ok":true,"result":…,"plan":[…],"conflict":"…","confirm":"…","search":{…}} (all but
// ok optional), in one walk: the result checked as json.Valid checks it
// (json.RawMessage keeps it as written) and its warnings read on the way.
// ok false for any other answer (a need, a refusal, a key in another
// case, a null, anything the scanner is not sure of): encoding/json
// reads those (hostlogic.ReadAnswer), so that every answer reads as it
// did (TestDecodeSuccessIsJSONs).
func DecodeSuccess(b []byte) (out Success, ok bool) {
	s := scanner{b: b}
	var seen uint8
	ok = s.members(func(key []byte) bool {
		var ok bool
		bit := uint8(1)
		switch string(key) {
		case "ok":
			var t bool
			t, ok = s.boolean()
			out.OK = &t
			ok = ok && t
		case "result":
			bit = 2
			out.Result, out.Warnings, out.Compact, ok = s.result()
		case "plan":
			bit = 4
			var raw json.RawMessage
			raw, ok = s.raw()
			ok = ok && json.Unmarshal(raw, &out.Plan) == nil
		case "conflict":
			bit = 8
			out.Conflict, ok = s.str()
		case "search":
			bit = 16
			out.Search, ok = s.carry()
		case "confirm":
			bit = 32
			out.Confirm, ok = s.str()
		}
		ok = ok && seen&bit == 0
		seen |= bit
		return ok
	})
	s.ws()
	if !ok || s.p != len(b) || out.OK == nil {
		return Success{}, false
	}
	if out.Result == nil {
		out.Compact = true
	}
	return out, true
}

// members reads {"key": value, …} as object does, but hands member each
// key's bytes as written, no string made of them; a key holding an
// escape declines (the keys of answers and results are names).
func (s *scanner) members(member func(key []byte) bool) bool {
	if !s.is('{') {
		return false
	}
	if s.is('}') {
		return true
	}
	for {
		s.ws()
		from := s.p
		if s.p >= len(s.b) || s.b[s.p] != '"' || !s.skipString() {
			return false
		}
		key := s.b[from+1 : s.p-1]
		if bytes.IndexByte(key, '\\') >= 0 || !s.is(':') || !member(key) {
			return false
		}
		if s.is('}') {
			return true
		}
		if !s.is(',') {
			return false
		}
	}
}

// warningsKey is the result's key MCP reads.
var warningsKey = []byte("warnings")

// result takes an answer's result, walked once (see raw), and the
// warnings of an object; compact as in Success (skipString notes what
// its keys hold).
func (s *scanner) result() (_ json.RawMessage, warnings []string, compact, ok bool) {
	s.ws()
	start := s.p
	s.loose = false
	if s.p < len(s.b) && s.b[s.p] == '{' {
		ok = s.members(func(key []byte) bool {
			if !bytes.EqualFold(key, warningsKey) {
				return s.value()
			}
			if !bytes.Equal(key, warningsKey) || warnings != nil {
				return false // encoding/json's: its case-blind match, the last of two
			}
			var ok bool
			from := s.p
			warnings, ok = s.strs()
			s.loose = s.loose || bytes.ContainsAny(s.b[from:s.p], "<>&\u2028\u2029")
			return ok
		})
	} else {
		ok = s.value() && string(s.b[start:s.p]) != "null"
	}
	if !ok {
		return nil, nil, false, false
	}
	return append(json.RawMessage(nil), s.b[start:s.p]...), warnings, !s.loose, true
}
