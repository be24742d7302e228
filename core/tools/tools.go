// Package tools holds the implementation of every catalogue tool, one file
// per family. A tool reads the vault through Env.View, and returns its
// result and the plan of writes; it never writes.
package tools

import (
	"encoding/json"
	"time"

	"kessho/core/fault"
	"kessho/core/plan"
	"kessho/core/vault"
)

// Env is what a tool runs with: the time in the vault's zone, the caller's
// language and the view of the vault.
type Env struct {
	Now  time.Time
	Lang string
	View *vault.View
}

// T picks the English or French text by the caller's language.
func (e *Env) T(en, fr string) string {
	if e.Lang == "fr" {
		return fr
	}
	return en
}

// decode reads a tool's arguments, already validated by the catalogue.
func decode(raw json.RawMessage, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		return fault.Internalf("decoding arguments: %v", err)
	}
	return nil
}

// Func runs a tool on validated, normalised arguments.
type Func func(env *Env, args json.RawMessage) (result any, p plan.Plan, err error)

// Registry maps tool names to their implementation. Every catalogue tool
// has one (a test checks it).
var Registry = map[string]Func{}

// Common is embedded in every result: a short Markdown summary for people
// and the warnings (never nil, so it encodes as []).
type Common struct {
	SummaryMD string   `json:"summary_md"`
	Warnings  []string `json:"warnings"`
}
