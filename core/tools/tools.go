// Package tools holds every catalogue tool, one unit each: its catalogue
// spec (what it takes, what it may refuse, what it does, in English and
// French) beside its run function, in one explicit list, All. A tool only
// orchestrates: it decodes its arguments, refuses bad ones, reads the
// vault through Env.View, calls the noun packages that hold the domain
// logic (history, note, atom, wikilink, worklog, hygiene, relocate,
// vault), and builds its result and the plan of writes; it never writes.
// Its run function reads as the SPEC's steps, each a named function of at
// most 60 lines.
//
// Every sentence a tool says (refusals, warnings, summary_md) lives in one
// messages table per tool, a struct of fault.Msg beside its spec
// (archiveMsg, worklogMsg…): Env.Say picks the caller's language, Msg.Err
// makes a refusal, argument an INVALID_ARGUMENT.
//
// # Adding a tool
//
// Write one file here, named after the tool: its spec (a *catalog.Tool,
// with every error code it can raise in Errors), its result type
// (embedding Common), its messages table and its run function (a Func),
// with any domain logic that is new put in the noun package it belongs to
// (or a new one). Add one line {spec, run} to All, and the file to
// TestDeclaredCodes' scan. Then write its conformance cases in
// testdata/cases (one per refusal it declares, and its successes) and run
// `make docs` for docs/reference.md. Nothing else names a tool: hosts,
// the MCP server and the CLI read All.
package tools

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"kessho/core/catalog"
	"kessho/core/fault"
	"kessho/core/plan"
	"kessho/core/search"
	"kessho/core/vault"
)

// Tool is one tool: its catalogue spec and its implementation.
type Tool struct {
	Spec *catalog.Tool
	Run  Func
}

// Func runs a tool on validated, normalised arguments.
type Func func(env *Env, args json.RawMessage) (result any, p plan.Plan, err error)

// All is every tool, sorted by name.
var All = []Tool{
	{archiveSpec, archive},
	{rewritePathsSpec, rewritePaths},
	{contextHygieneSpec, contextHygiene},
	{historizeSpec, historize},
	{initProjectSpec, initProject},
	{listSpec, listTool},
	{readContextSpec, readContextTool},
	{rollbackSpec, rollback},
	{searchSpec, searchTool},
	{setSummarySpec, setSummary},
	{updatePhaseSpec, updatePhase},
	{worklogSpec, worklogTool},
}

// Lookup returns the tool named name.
func Lookup(name string) (Tool, bool) {
	i := slices.IndexFunc(All, func(t Tool) bool { return t.Spec.Name == name })
	if i < 0 {
		return Tool{}, false
	}
	return All[i], true
}

// Specs returns every tool's catalogue spec, sorted by name: what hosts,
// the MCP server and docgen describe.
func Specs() []*catalog.Tool {
	out := make([]*catalog.Tool, len(All))
	for i, t := range All {
		out[i] = t.Spec
	}
	slices.SortFunc(out, func(a, b *catalog.Tool) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Spec returns the spec of the tool named name.
func Spec(name string) (*catalog.Tool, bool) {
	t, ok := Lookup(name)
	return t.Spec, ok
}

// SpecByCommand returns the spec of the tool whose CLI command is cmd.
func SpecByCommand(cmd string) (*catalog.Tool, bool) {
	i := slices.IndexFunc(All, func(t Tool) bool { return t.Spec.CLI.Command == cmd })
	if i < 0 {
		return nil, false
	}
	return All[i].Spec, true
}

// Env is what a tool runs with: the time in the vault's zone, the caller's
// language and the view of the vault.
type Env struct {
	Now  time.Time
	Lang string
	View *vault.View
	// Search is the index and note versions a host sent (mem_search);
	// IndexOut the updated index for it to store, set by mem_search.
	Search   *search.Carry
	IndexOut []byte
}

// Say returns m in the caller's language, formatted with args.
func (e *Env) Say(m fault.Msg, args ...any) string { return m.In(e.Lang, args...) }

// decode reads a tool's arguments, already validated by the catalogue.
func decode(raw json.RawMessage, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		return fault.Internalf("decoding arguments: %v", err)
	}
	return nil
}

// Common is embedded in every result: a short Markdown summary for people
// and the warnings (never nil, so it encodes as []).
type Common struct {
	SummaryMD string   `json:"summary_md"`
	Warnings  []string `json:"warnings"`
}

// common returns an empty Common.
func common() Common { return Common{Warnings: []string{}} }

func intp(n int) *int           { return &n }
func floatp(f float64) *float64 { return &f }
