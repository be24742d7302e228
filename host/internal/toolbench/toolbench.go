// Package toolbench is the harness of `make bench`: what each tool does
// on a generated vault (github.com/kessho/kessho/host/internal/genvault), and how a call
// that writes is undone between iterations so that every iteration meets
// the same vault and measures the same work. Its benchmarks
// (BenchmarkTools, BenchmarkCLI) run every scenario on both engines at
// 1k, 10k and 50k notes; github.com/kessho/kessho/host/cmd/benchreport turns their output
// into docs/PERFORMANCE.md's tables.
//
// A call that writes is undone outside the timer: the harness learns the
// call's plan once from a dry run (the same call, its plan captured and
// not applied), keeps the bytes of every file the plan touches, and after
// each timed call puts them back, moves back what it moved and removes the
// folders it created. So update_phase always changes the same phase,
// archive always writes the same new archive, rollback always removes the
// same one, historize always moves the same folder.
package toolbench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/tools"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/internal/fsyncs"
	"github.com/kessho/kessho/host/internal/genvault"
	"github.com/kessho/kessho/host/vaultfs"
)

// Scenario is one measured call of a tool.
type Scenario struct {
	Name string // the row's name: the tool, and a variant after a dot
	Tool string
	// Args are the call's arguments on a vault of manifest m.
	Args func(m genvault.Manifest) string
	// OneProject says the call acts on one project (the manifest's Target
	// or Shelf, the same size in every vault): its cost should not grow
	// with the vault.
	OneProject bool
}

func target(m genvault.Manifest, more string) string {
	return fmt.Sprintf(`{"slug":%q%s}`, m.Target, more)
}

func fixed(args string) func(genvault.Manifest) string {
	return func(genvault.Manifest) string { return args }
}

// Scenarios are the measured calls, in the report's order: each tool's
// example call (its text file's example, in the order of the tools'
// names; TestScenariosUndone runs each), then its variants. So a tool
// added to the catalogue is measured with nothing to add here.
var Scenarios = scenarios()

// demoProjects are the generated vault's projects the examples act on:
// the examples name the MCP clients' vault's (host/mcp/testdata/clients/
// vault), alpha standing for Target and beta for Shelf (mem_historize's).
// An example on one of them is a one-project call.
func demoProjects(m genvault.Manifest) map[string]string {
	return map[string]string{"alpha": m.Target, "beta": m.Shelf}
}

// searchQuery is the query every search benchmark asks: three words, as
// an agent types them, that thousands of the generated notes hold.
const searchQuery = "deploy retry webhook"

// variants are the calls measured besides some tools' example: the
// example's row is then named after the tool and example, and more
// follow it. args, when set, replaces the example's arguments where they
// would not measure the heavy case on a generated vault.
var variants = map[string]struct {
	example string
	more    []Scenario
	args    func(genvault.Manifest) string
}{
	// The example's words are the clients' vault's; these three are in
	// thousands of the generated notes (searchQuery).
	"mem_search": {args: fixed(`{"query":"` + searchQuery + `"}`)},
	"mem_archive": {example: "full", more: []Scenario{
		{"mem_archive.incremental", "mem_archive", func(m genvault.Manifest) string {
			return target(m, `,"phase":"measured"`)
		}, true},
		{"mem_archive.derive", "mem_archive", func(m genvault.Manifest) string {
			return target(m, `,"mode":"full","archive_subject":"Bench derive","archive_body_md":"Measured.\n","derive":[{"fact":"Bench fact of the harness","body":"Why.","kind":"knowledge"}]`)
		}, false},
	}},
	"mem_context_hygiene": {example: "check", more: []Scenario{{"mem_context_hygiene.trim", "mem_context_hygiene", fixed(`{"action":"trim"}`), false}}},
	"mem_worklog": {example: "collect", more: []Scenario{
		{"mem_worklog.persist", "mem_worklog", func(m genvault.Manifest) string {
			return fmt.Sprintf(`{"phase":"persist","week_of":%q,"brief_md":"Shipped.","detailed_md":"Monday: measured.","digest_md":"- bench: measured."}`, m.Week)
		}, false},
	}},
}

// scenarios makes Scenarios from the tools' examples and variants.
func scenarios() []Scenario {
	var out []Scenario
	for _, spec := range tools.Specs() {
		v := variants[spec.Name]
		name := spec.Name
		if v.example != "" {
			name += "." + v.example
		}
		slug, _ := spec.Example["slug"].(string)
		args := func(m genvault.Manifest) string {
			b, _ := spec.ExampleOn(demoProjects(m))
			return string(b)
		}
		if v.args != nil {
			args = v.args
		}
		_, oneProject := demoProjects(genvault.Manifest{})[slug]
		out = append(out, Scenario{name, spec.Name, args, oneProject})
		out = append(out, v.more...)
	}
	return out
}

// CLIScenarios are the scenarios measured as whole processes.
var CLIScenarios = []string{"mem_read_context", "mem_update_phase", "mem_list", "mem_worklog.collect"}

// Lookup returns the scenario named name.
func Lookup(name string) (Scenario, bool) {
	i := slices.IndexFunc(Scenarios, func(s Scenario) bool { return s.Name == name })
	if i < 0 {
		return Scenario{}, false
	}
	return Scenarios[i], true
}

// Size is one vault size of the benchmarks.
type Size struct {
	Name  string // 1k, 10k, 50k
	Notes int
}

// Sizes are the vault sizes measured.
var Sizes = []Size{{"1k", 1000}, {"10k", 10000}, {"50k", 50000}, {"100k", 100000}}

// Seed is the generator's seed for every benchmark vault.
const Seed = 20261130

// dryVault is a vault whose Apply keeps the plan instead of applying it.
type dryVault struct {
	*vaultfs.Vault
	plan plan.Plan
}

func (d *dryVault) Apply(_ *vaultfs.Lock, p plan.Plan) error {
	d.plan = p
	return nil
}

// DryRun runs the call without applying its plan, and returns the plan.
func DryRun(ctx context.Context, v *vaultfs.Vault, eng call.Engine, tool string, args json.RawMessage, opts call.Options) (plan.Plan, error) {
	d := &dryVault{Vault: v}
	out, err := call.Run(ctx, d, eng, tool, args, opts)
	if err != nil {
		return nil, err
	}
	if !out.OK {
		return nil, fmt.Errorf("%s: %s", tool, out.Answer)
	}
	return d.plan, nil
}

// Undo puts a vault back as it was before a plan was applied.
type Undo struct {
	dir   string
	steps []undoStep
	dirs  []string // folders the plan creates, deepest first
}

type undoStep struct {
	op       plan.Op
	old      []byte // the file's bytes before the plan (write, delete)
	existed  bool
	from, to string // a move
}

// Prepare reads, before p is applied to the vault in dir, what Undo.Run
// needs to put everything p touches back.
func Prepare(dir string, p plan.Plan) (*Undo, error) {
	u := &Undo{dir: dir}
	// moved maps a path after the plan's earlier moves back to where the
	// file is before the plan.
	var moves [][2]string
	before := func(p string) string {
		for i := len(moves) - 1; i >= 0; i-- {
			if rest, ok := strings.CutPrefix(p, moves[i][1]); ok && (rest == "" || rest[0] == '/') {
				p = moves[i][0] + rest
			}
		}
		return p
	}
	created := map[string]bool{}
	for _, op := range p {
		switch op.Op {
		case plan.Write, plan.Delete:
			b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(before(op.Path))))
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, err
			}
			u.steps = append(u.steps, undoStep{op: op, old: b, existed: err == nil})
			for d := path.Dir(op.Path); d != "."; d = path.Dir(d) {
				if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(before(d)))); errors.Is(err, os.ErrNotExist) && !created[d] {
					created[d] = true
					u.dirs = append(u.dirs, d)
				}
			}
		case plan.Move:
			u.steps = append(u.steps, undoStep{op: op, from: op.From, to: op.To})
			moves = append(moves, [2]string{op.From, op.To})
		}
	}
	slices.SortFunc(u.dirs, func(a, b string) int { return strings.Count(b, "/") - strings.Count(a, "/") })
	return u, nil
}

// Run undoes the plan, its last op first.
func (u *Undo) Run() error {
	abs := func(p string) string { return filepath.Join(u.dir, filepath.FromSlash(p)) }
	for _, s := range slices.Backward(u.steps) {
		var err error
		switch {
		case s.op.Op == plan.Move:
			err = os.Rename(abs(s.to), abs(s.from))
		case s.existed:
			err = os.WriteFile(abs(s.op.Path), s.old, 0o644)
		default:
			err = os.Remove(abs(s.op.Path))
		}
		if err != nil {
			return fmt.Errorf("undo %s %s: %w", s.op.Op, s.op.Path+s.from, err)
		}
	}
	for _, d := range u.dirs {
		if err := os.Remove(abs(d)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("undo: %w", err)
		}
	}
	return nil
}

// FsyncCount returns the process's fsyncs so far (host/internal/fsyncs), and
// whether the host counts them: BenchmarkTools reports fsyncs/op from it.
func FsyncCount() (int64, bool) { return fsyncs.Count(), true }
