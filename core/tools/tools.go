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
	"embed"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"

	"kessho/core/catalog"
	"kessho/core/fault"
	"kessho/core/i18n"
	"kessho/core/plan"
	"kessho/core/vault"
)

// Tool is one tool: its catalogue spec and its implementation. Spec's
// texts are in its text file (Spec.Text); Specs, Spec and SpecByCommand
// give the spec with them in place, which is what anything showing a tool
// to a person reads. A call (core.Handle) only validates with Spec, so it
// needs none of them.
type Tool struct {
	Spec *catalog.Tool
	Run  Func
}

// toolFile is a tool's text file (<tool>.yaml beside its Go file): its
// catalogue texts (title, description, params) and its messages (msg), a
// struct M of fault.Msg fields.
type toolFile[M any] struct {
	catalog.ToolText `yaml:",inline"`
	Msg              M
}

// textFile gives a tool's text file, parsed on first use.
type textFile[M any] func() *toolFile[M]

// textFiles is every text file of the tools.
//
//go:embed *.yaml
var textFiles embed.FS

// loadText returns the text file name of a tool whose messages are M.
func loadText[M any](name string) textFile[M] {
	return i18n.Load[toolFile[M]](textFiles, name)
}

// Whether a tool writes (returns a plan): tool's writes argument.
const (
	reads  = false
	writes = true
)

// tool returns the catalogue spec of the tool name whose texts text gives
// (its text file's spec): cli is its CLI form, the command then its
// positional arguments ("phase slug phase"); errs the codes it raises
// besides catalog.Shared.
func tool(text func() *catalog.ToolText, name, cli string, writes bool, errs []fault.Code, params []catalog.Param) *catalog.Tool {
	words := strings.Fields(cli)
	return &catalog.Tool{
		Name:   name,
		Text:   text,
		Params: params,
		Errors: append(errs, catalog.Shared...),
		Writes: writes,
		CLI:    catalog.CLI{Command: words[0], Args: words[1:]},
	}
}

// spec returns the file's catalogue texts: what a catalog.Tool's Text
// gives.
func (f textFile[M]) spec() *catalog.ToolText { return &f().ToolText }

// Func runs a tool on validated, normalised arguments.
type Func func(env *Env, args json.RawMessage) (result any, p plan.Plan, err error)

// All is every tool, sorted by name.
var All = []Tool{
	{archiveSpec, typed(archive)},
	{rewritePathsSpec, typed(rewritePaths)},
	{contextHygieneSpec, typed(contextHygiene)},
	{historizeSpec, typed(historize)},
	{initProjectSpec, typed(initProject)},
	{listSpec, typed(listTool)},
	{readContextSpec, typed(readContextTool)},
	{rollbackSpec, typed(rollback)},
	{setSummarySpec, typed(setSummary)},
	{updatePhaseSpec, typed(updatePhase)},
	{worklogSpec, typed(worklogTool)},
}

// typed adapts run, which takes its arguments decoded into A (validated
// by the catalogue), to a Func.
func typed[A any](run func(env *Env, args A) (any, plan.Plan, error)) Func {
	return func(env *Env, raw json.RawMessage) (any, plan.Plan, error) {
		var args A
		if err := json.Unmarshal(raw, &args); err != nil {
			return nil, nil, fault.Internalf("decoding arguments: %v", err)
		}
		return run(env, args)
	}
}

// Lookup returns the tool named name.
func Lookup(name string) (Tool, bool) {
	i := slices.IndexFunc(All, func(t Tool) bool { return t.Spec.Name == name })
	if i < 0 {
		return Tool{}, false
	}
	return All[i], true
}

// described is each tool's spec with its texts in place (All[i].Spec
// described), built on first use.
var described = func() []func() *catalog.Tool {
	out := make([]func() *catalog.Tool, len(All))
	for i, t := range All {
		out[i] = sync.OnceValue(func() *catalog.Tool { return t.Spec.Described(toolsText().Params) })
	}
	return out
}()

// Specs returns every tool's catalogue spec, its texts in place, sorted by
// name: what hosts, the MCP server and docgen describe.
func Specs() []*catalog.Tool {
	out := make([]*catalog.Tool, len(All))
	for i := range All {
		out[i] = described[i]()
	}
	slices.SortFunc(out, func(a, b *catalog.Tool) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Spec returns the spec of the tool named name, its texts in place.
func Spec(name string) (*catalog.Tool, bool) {
	return specWhere(func(t Tool) bool { return t.Spec.Name == name })
}

// SpecByCommand returns the spec of the tool whose CLI command is cmd,
// its texts in place.
func SpecByCommand(cmd string) (*catalog.Tool, bool) {
	return specWhere(func(t Tool) bool { return t.Spec.CLI.Command == cmd })
}

func specWhere(f func(Tool) bool) (*catalog.Tool, bool) {
	i := slices.IndexFunc(All, f)
	if i < 0 {
		return nil, false
	}
	return described[i](), true
}

// Env is what a tool runs with: the time in the vault's zone, the caller's
// language and the view of the vault.
type Env struct {
	Now  time.Time
	Lang string
	View *vault.View
}

// Say returns m in the caller's language, formatted with args.
func (e *Env) Say(m fault.Msg, args ...any) string { return m.In(e.Lang, args...) }

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
