// Package tools holds every catalogue tool, one unit each: a Go file
// (its spec's structure and its run function) and, beside it, a text file
// (<tool>.yaml: everything it says, in English and French), in one
// explicit list, All. A tool only orchestrates: it refuses bad arguments,
// reads the vault through Env.View, calls the noun packages that hold the
// domain logic (history, note, atom, wikilink, worklog, hygiene, relocate,
// vault), and builds its result and the plan of writes; it never writes.
// Its run function reads as the SPEC's steps, each a named function of at
// most 60 lines.
//
// # A tool's texts
//
// Every sentence a tool says lives in its text file, not in Go, so that a
// translator edits it without touching code. The file holds two YAML
// documents: first its messages (refusals, warnings, summary_md) under
// msg, then, after "---", its catalogue texts (title, description, its
// moment, and each parameter's description under params, keyed by the
// parameter's path: "phase", "derive.fact"). A call parses the first only; the second
// is read when a person is shown the tool (Specs, the MCP list, help,
// docs). The Go file declares the messages as a struct of fault.Msg
// fields, so every message the code uses is checked by the compiler:
//
//	var phaseText = loadText[struct {
//		OneLine, None, Absent fault.Msg
//	}]("update_phase.yaml")
//
// and the file holds, for each field (its name in lower case):
//
//	msg:
//	  oneline:
//	    en: "must be one line: a word or a short phrase"
//	    fr: "doit tenir sur une ligne : un mot ou une courte expression"
//	---
//	title:
//	  en: Set phase
//	  fr: Changer la phase
//
// Each document is parsed on first use (core/i18n), never at start. The
// code says phaseText().Msg.OneLine: Env.say picks the caller's language,
// Msg.Err makes a refusal, argument an INVALID_ARGUMENT. The spec takes
// its texts from catalogText("update_phase.yaml"). Texts several tools
// share (reading context.md; the slug parameter) are in tools.yaml
// (toolsText, sharedParams). TestTextFiles refuses a file with a key no
// field takes, a text missing a language, or printf verbs that differ
// between English and French; TestTextFileParams a description of no
// parameter; TestTextFilesAreData a fault.Msg or catalog.Text literal left
// in Go.
//
// # An example call
//
// The text file's second document ends with example: the arguments of a
// call of the tool (example: {} for none). The fixtures that call every
// tool make it, so that none of them lists the tools by hand:
//
//   - the MCP clients' test (host/mcp, clients_test.go, and tsclient/)
//     makes every example in the order of the tools' names, in one
//     session, on a copy of host/mcp/testdata/clients/vault (alpha, an
//     active project with one archive of the week of 2026-11-23 and a
//     repo_path, and beta, an active project), served as of
//     2026-11-30T10:15:00+01:00, Europe/Paris; each must succeed on the
//     vault the examples before it left (TestClientsCalls says which
//     fails, quickly). calls.json, which the TypeScript client reads, is
//     made from them (TestClientsFiles);
//   - the benchmark (host/internal/toolbench, Scenarios) measures every
//     example on its generated vault, a slug alpha read as its project
//     Target and beta as Shelf (TestScenariosUndone runs each once);
//   - host/vaultfs's TestReadOnlyToolsNeverWriteThroughLinks calls each
//     tool that never writes with its example, alpha read as its vault's
//     project a.
//
// TestExamples checks that every tool has one that its spec takes.
//
// # Adding a tool
//
// Write two files here, named after the tool. The Go file: its spec, made
// by tool[R] (R its result type; then catalogText of its text file, name,
// CLI form, what it does to the vault — reads, or writes with destroys
// and idempotent as they are true, which TestAnnotationsTellTheTruth
// checks — the codes it can raise besides catalog.Shared, its parameters
// without descriptions), its Args type (what its parameters decode into), its
// result type (embedding Common), its texts (loadText) and its run
// function, func(env *Env, args <its Args>) (any, plan.Plan, error). The
// text file: msg, then after "---" title, description, moment, params
// and example, each text in en and fr. The description is what a model
// reads to choose the tool, so it is short: it begins with the moment
// (when an agent calls the tool, a moment no other tool claims:
// TestMoments), then says what the call writes and what it refuses; a
// parameter's description adds only what its name, type, enum, default
// and bounds do not say, or is left out (host/mcp's TestCatalogueBudget
// holds what every tool's texts weigh together).
// Put any domain logic that is new in the noun package it belongs to (or a
// new one), and what it shares with other tools in a file that is no
// tool's (args.go, context.go, project_archives.go, search_index.go,
// summary.go, undo.go): a tool's file names nothing of another tool's
// (TestToolsStandAlone). Add one line {spec, typed(run)} to All, in the
// order of the names. Then write its conformance cases in testdata/cases
// (one per refusal it declares, and its successes; TestDeclaredCodes
// finds the Go file by its text file; go test ./host/internal/conformance -run
// TestCases/<case> -native -update writes a case's answer.json from the
// native engine, to check). Then regenerate two things: docs/reference.md
// (make docs) and host/mcp/testdata/clients' calls.json and tools.json
// (go test ./host/mcp -run TestClientsFiles -update-clients). Nothing
// else names a tool: hosts, the MCP server, the CLI, the clients' test
// and the benchmark read All and the examples. TestAddingATool
// (recipe_test.go) follows this recipe with a throwaway tool
// (testdata/adding) in a copy of the repository, checks that it changed
// those files only, and runs there the tests that fail on a missing edit.
//
// A spec written the old way, a *catalog.Tool literal with its Title and
// Descriptions in Go and a messages table of fault.Msg literals, still
// works (its Text is nil), but the text tests refuse it; to convert one,
// move each text to the tool's .yaml file under the keys above, build the
// spec with tool and catalogText, load the messages with loadText, and
// give the run function its Args type (typed).
package tools

import (
	"embed"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/i18n"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/search"
	"github.com/kessho/kessho/core/vault"
)

// Tool is one tool: its catalogue spec and its implementation. Spec's
// texts are in its text file (Spec.Text); Specs, Spec and SpecByCommand
// give the spec with them in place, which is what anything showing a tool
// to a person reads. A call (core.Core.Handle) only validates with Spec, so it
// needs none of them.
type Tool struct {
	Spec *catalog.Tool
	Run  runFunc
}

// toolMsgs is the first document of a tool's text file: its messages, a
// struct M of fault.Msg fields, under msg.
type toolMsgs[M any] struct{ Msg M }

// textFiles is every text file of the tools.
//
//go:embed *.yaml
var textFiles embed.FS

// loadText returns the messages of the tool text file name (its first
// document), parsed on first use: what a call of the tool reads.
func loadText[M any](name string) func() *toolMsgs[M] {
	return i18n.Load[toolMsgs[M]](textFiles, name, 0)
}

// catalogText returns the catalogue texts of the tool text file name (its
// second document), parsed on first use: what a catalog.Tool's Text gives,
// read only when a person is shown the tool.
func catalogText(name string) func() *catalog.ToolText {
	return i18n.Load[catalog.ToolText](textFiles, name, 1)
}

// effect is what a call of a tool does to the vault (tool's fx argument),
// set on its spec as the MCP annotations tell a client (see catalog.Tool):
// reads for a tool that never writes; otherwise writes, with destroys when
// a call may remove or overwrite content it did not itself write, and
// idempotent when a second call with the same arguments changes nothing
// more. RATIONALE.md gives each tool's reason (the entry "Why these MCP
// annotations, and what "destructive" means here?");
// TestAnnotationsTellTheTruth (host/mcp) checks them against what the
// conformance cases' calls do to their vaults.
type effect uint8

const (
	writes effect = 1 << iota
	destroys
	idempotent
	reads effect = idempotent
)

// tool returns the catalogue spec of the tool name whose texts text gives
// (its text file's spec), whose result is an R (or, for an either, one of
// its shapes): cli is its CLI form, the command then its positional
// arguments ("phase slug phase"); fx what it does to the vault; errs the
// codes it raises besides catalog.Shared.
func tool[R any](text func() *catalog.ToolText, name, cli string, fx effect, errs []fault.Code, params []catalog.Param) *catalog.Tool {
	words := strings.Fields(cli)
	return &catalog.Tool{
		Name:        name,
		Text:        text,
		Params:      params,
		Errors:      append(errs, catalog.Shared...),
		Writes:      fx&writes != 0,
		Destructive: fx&destroys != 0,
		Idempotent:  fx&idempotent != 0,
		Results:     shapes[R](),
		CLI:         catalog.CLI{Command: words[0], Args: words[1:]},
	}
}

// either is the result type of a tool whose result takes one of two
// shapes, A or B (tool's R).
type either[A, B any] struct{}

func (either[A, B]) shapes() []reflect.Type {
	return []reflect.Type{reflect.TypeFor[A](), reflect.TypeFor[B]()}
}

// shapes returns the result types an R stands for: R itself, or an
// either's two.
func shapes[R any]() []reflect.Type {
	if e, ok := any(*new(R)).(interface{ shapes() []reflect.Type }); ok {
		return e.shapes()
	}
	return []reflect.Type{reflect.TypeFor[R]()}
}

// runFunc runs a tool on validated, normalised arguments.
type runFunc func(env *Env, args catalog.Args) (result any, p plan.Plan, err error)

// All is every tool, sorted by name.
var All = []Tool{
	{archiveSpec, typed(archive)},
	{rewritePathsSpec, typed(rewritePaths)},
	{checkSpec, typed(checkTool)},
	{contextHygieneSpec, typed(contextHygiene)},
	{historizeSpec, typed(historize)},
	{initProjectSpec, typed(initProject)},
	{listSpec, typed(listTool)},
	{noteSpec, typed(noteTool)},
	{readArchiveSpec, withArchives(readArchiveTool)},
	{readContextSpec, typed(readContextTool)},
	{readHistorySpec, withArchives(readHistoryTool)},
	{recallSpec, recallOrVault},
	{relocateSpec, typed(relocateProject)},
	{rollbackSpec, typed(rollback)},
	{searchSpec, typed(searchTool)},
	{setSummarySpec, typed(setSummary)},
	{updatePhaseSpec, typed(updatePhase)},
	{worklogSpec, typed(worklogTool)},
}

// typed adapts run, which takes its arguments as an A (validated by the
// catalogue, stored in an A from the values Validate decoded:
// catalog.Args.Decode), to a runFunc.
func typed[A any](run func(env *Env, args A) (any, plan.Plan, error)) runFunc {
	return func(env *Env, raw catalog.Args) (any, plan.Plan, error) {
		var args A
		if err := raw.Decode(&args); err != nil {
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
		out[i] = sync.OnceValue(func() *catalog.Tool { return t.Spec.Described(sharedParams().Params) })
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
	// Search is the index and note versions a host sent (mem_search);
	// IndexOut the updated index for it to store, and IndexID its id, set
	// by mem_search. A need for the next batch of a build may hand back no
	// index: IndexID is then the id of the one the host stored, and
	// IndexOut nil.
	Search   *search.Carry
	IndexOut []byte
	IndexID  string
	// IndexIndexed and IndexLeft are how far a build got when it asks
	// for its next batch: the notes its index holds up to date, and
	// those still to read (search.Carry's Indexed and Left).
	IndexIndexed, IndexLeft int
	// State is what the tools keep between calls in the caller's engine
	// instance (the warm search index); nil keeps nothing past the call.
	State *State
}

// say returns m in the caller's language, formatted with args.
func (e *Env) say(m fault.Msg, args ...any) string { return m.In(e.Lang, args...) }

// Confirmer is a result whose plan cannot be undone: Confirmation is the
// question, in the call's language, that the core puts beside the plan
// (wire.Answer.Confirm) for a host to ask the user before writing.
type Confirmer interface {
	Confirmation() string
}

// Common is embedded in every result: a short Markdown summary for people
// and the warnings (never nil, so it encodes as []).
type Common struct {
	SummaryMD string   `json:"summary_md"`
	Warnings  []string `json:"warnings"`
}

// common returns an empty Common.
func common() Common { return Common{Warnings: []string{}} }
