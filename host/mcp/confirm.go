package mcp

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/i18n"
	"github.com/kessho/kessho/host/call"
)

//go:embed confirm.yaml
var confirmTexts embed.FS

// confirmText is confirm.yaml, parsed on first use.
var confirmText = i18n.Load[struct {
	Declined, Changed catalog.Text
}](confirmTexts, "confirm.yaml", 0)

// confirmID is the id of the confirmation among a call's input requests.
const confirmID = "confirm"

// runConfirmed runs the tool call req, asking its user first when the
// core puts a question beside the plan (wire.Answer.Confirm: what
// mem_rollback_archive or mem_archive_rewrite_paths confirm=true will
// delete or rewrite, one sentence in the call's language) and the client
// declared form elicitation. It asks as a multi round-trip request
// (SEP-2322), which the SDK serves on every revision: a client of the
// newest gets an input-required result (ask, the elicitation and a
// signed request state) and calls again with the user's answer; for an
// older client the SDK sends the elicitation itself and calls the
// handler again with it. The first run writes nothing (its Confirm
// keeps the question and refuses). Given the answer, accept runs the
// call again and applies its plan if the core asks the same question
// (else it asks the new one, or, to a client the SDK asked itself,
// refuses CONFLICT: the vault changed while the user was asked); decline or cancel runs nothing and refuses
// DECLINED, details.action the answer. A client without elicitation is
// never asked: its call writes as it would without the question.
func (c *caller) runConfirmed(ctx context.Context, req *sdk.CallToolRequest, name string, report func(string)) (call.Outcome, *sdk.CallToolResult) {
	args := arguments(req.Params.Arguments)
	if !canElicit(req.Session) {
		return c.run(ctx, req.Session, name, args, report, nil), nil
	}
	var asked string
	confirm := func(_ context.Context, question string) error {
		asked = question
		return errAsk
	}
	if res, ok := req.Params.InputResponses[confirmID].(*sdk.ElicitResult); ok {
		if question, ok := openState(req.Params.RequestState, name, args); ok {
			if res.Action != "accept" {
				t := confirmText().Declined
				return call.Refusal(fault.New(fault.Declined, map[string]any{"action": res.Action, "question": question},
					fmt.Sprintf(t.In("en"), res.Action), fmt.Sprintf(t.In("fr"), res.Action)), c.opts.Lang), nil
			}
			confirm = func(_ context.Context, q string) error {
				if q == question {
					return nil
				}
				// The plan changed since the user said yes: ask again,
				// or, for a client the SDK asked itself (it asks once),
				// refuse: nothing written, the agent calls again.
				if !roundTrips(req.Session) {
					return fault.New(fault.Conflict, map[string]any{"question": question, "now": q},
						fmt.Sprintf(confirmText().Changed.In("en"), question, q), fmt.Sprintf(confirmText().Changed.In("fr"), question, q))
				}
				asked = q
				return errAsk
			}
		}
	}
	out := c.run(ctx, req.Session, name, args, report, confirm)
	if asked == "" {
		return out, nil
	}
	return out, &sdk.CallToolResult{
		InputRequests: sdk.InputRequestMap{confirmID: &sdk.ElicitParams{
			Mode:            "form",
			Message:         asked,
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}},
		}},
		RequestState: sealState(name, args, asked),
	}
}

// errAsk is the refusal of a first run's Confirm: nothing is written, the
// question goes to the user (runConfirmed).
var errAsk = errors.New("the user's confirmation comes first")

// roundTrips reports whether the client of ss answers input-required
// results itself (2026-07-28 and later); for an older one the SDK sends
// the elicitation and calls the handler again once.
func roundTrips(ss *sdk.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.ProtocolVersion >= statelessRevision
}

// canElicit reports whether the client of ss declared form elicitation
// (an elicitation capability naming neither form nor url counts as form),
// at initialize or, on the newest revision, in the request.
func canElicit(ss *sdk.ServerSession) bool {
	if ss == nil {
		return false
	}
	p := ss.InitializeParams()
	if p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil {
		return false
	}
	e := p.Capabilities.Elicitation
	return e.Form != nil || e.URL == nil
}

// stateKey signs the request states of this process's confirmations: a
// client echoes the state back, and must not be able to forge the
// question a yes answers.
var stateKey = sync.OnceValue(func() []byte {
	k := make([]byte, 32)
	rand.Read(k)
	return k
})

// state is what a confirmation's request state carries: the call asked
// about and the question put.
type state struct {
	Tool     string          `json:"tool"`
	Args     json.RawMessage `json:"args"`
	Question string          `json:"question"`
}

// sealState is the request state of the question asked about tool's call
// with args: the state's JSON and its HMAC, each base64url.
func sealState(tool string, args json.RawMessage, question string) string {
	b, _ := json.Marshal(state{Tool: tool, Args: args, Question: question})
	m := hmac.New(sha256.New, stateKey())
	m.Write(b)
	enc := base64.RawURLEncoding
	return enc.EncodeToString(b) + "." + enc.EncodeToString(m.Sum(nil))
}

// openState is the question sealState sealed in s for this tool and these
// arguments; ok false for a state this process did not seal, or sealed
// for another call.
func openState(s, tool string, args json.RawMessage) (question string, ok bool) {
	body, sig, found := strings.Cut(s, ".")
	enc := base64.RawURLEncoding
	b, err1 := enc.DecodeString(body)
	mac, err2 := enc.DecodeString(sig)
	if !found || err1 != nil || err2 != nil {
		return "", false
	}
	m := hmac.New(sha256.New, stateKey())
	m.Write(b)
	var st state
	if !hmac.Equal(mac, m.Sum(nil)) || json.Unmarshal(b, &st) != nil || st.Tool != tool || !sameJSON(st.Args, args) {
		return "", false
	}
	return st.Question, true
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	p, _ := json.Marshal(x)
	q, _ := json.Marshal(y)
	return string(p) == string(q)
}
