package main

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kessho/kessho/host/internal/toolbench"
)

// Results are the benchmark lines of one `go test -bench` output (several
// runs appended), and what it says of the machine.
type Results struct {
	CPU, OS, Arch string
	Loads         []string // the "loadavg:" lines, in order
	// Samples holds, per benchmark name (the -N of GOMAXPROCS dropped),
	// one map of unit → value per run.
	Samples map[string][]map[string]float64
	order   []string
	pkg     map[string]string // the package of each benchmark
	// Failed lists the benchmarks that failed, each with its message's
	// first line ([name, message]).
	Failed [][2]string
}

var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+(\d+)\s+(.+)$`)

// Parse reads `go test -bench` output.
func Parse(r io.Reader) (*Results, error) {
	res := &Results{Samples: map[string][]map[string]float64{}, pkg: map[string]string{}}
	pkg := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	failed := ""
	for sc.Scan() {
		raw := sc.Text()
		line := strings.TrimSpace(raw)
		if failed != "" && strings.HasPrefix(raw, "    ") && strings.Contains(line, ".go:") {
			res.Failed = append(res.Failed, [2]string{failed, clip(line, 300)})
		}
		failed = ""
		if v, ok := strings.CutPrefix(line, "--- FAIL: "); ok {
			failed = strings.Fields(v)[0]
			continue
		}
		if v, ok := strings.CutPrefix(line, "loadavg:"); ok {
			res.Loads = append(res.Loads, strings.Join(strings.Fields(v)[:min(3, len(strings.Fields(v)))], " "))
			continue
		}
		if v, ok := strings.CutPrefix(line, "pkg:"); ok {
			pkg = path.Base(strings.TrimSpace(v))
		}
		for _, kv := range []struct {
			prefix string
			dst    *string
		}{{"cpu:", &res.CPU}, {"goos:", &res.OS}, {"goarch:", &res.Arch}} {
			if v, ok := strings.CutPrefix(line, kv.prefix); ok {
				*kv.dst = strings.TrimSpace(v)
			}
		}
		m := benchLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		f := strings.Fields(m[3])
		sample := map[string]float64{}
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %q is not a number", m[1], f[i])
			}
			sample[f[i+1]] = v
		}
		if _, seen := res.Samples[m[1]]; !seen {
			res.order = append(res.order, m[1])
			res.pkg[m[1]] = pkg
		}
		res.Samples[m[1]] = append(res.Samples[m[1]], sample)
	}
	return res, sc.Err()
}

// Median returns the median of unit over name's runs, and how many runs
// had it.
func (r *Results) Median(name, unit string) (float64, int) {
	var vs []float64
	for _, s := range r.Samples[name] {
		if v, ok := s[unit]; ok {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return 0, 0
	}
	sort.Float64s(vs)
	n := len(vs)
	if n%2 == 1 {
		return vs[n/2], n
	}
	return (vs[n/2-1] + vs[n/2]) / 2, n
}

// Env is what the report says of where it ran, besides the output.
type Env struct {
	Date  string // YYYY-MM-DD
	Cores int
	Go    string
}

// ms formats a duration in milliseconds with three significant figures
// or so.
func ms(v float64) string {
	switch {
	case v < 1:
		return strconv.FormatFloat(v, 'f', 3, 64)
	case v < 10:
		return strconv.FormatFloat(v, 'f', 2, 64)
	case v < 100:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// ratio formats a ÷ b.
func ratio(a, b float64) string {
	if a == 0 || b == 0 {
		return "–"
	}
	return strconv.FormatFloat(a/b, 'f', 2, 64)
}

// runs tracks the run counts of a table, for its caption.
type runs map[int]bool

func (c runs) String() string {
	var n []int
	for k := range c {
		n = append(n, k)
	}
	slices.Sort(n)
	switch {
	case len(n) == 1 && n[0] == 1:
		return "Each figure is one run"
	case len(n) == 1:
		return fmt.Sprintf("Each figure is the median of %d runs", n[0])
	}
	return fmt.Sprintf("Each figure is the median of %d to %d runs", n[0], n[len(n)-1])
}

// get returns name's median unit in milliseconds (ns/op converted), and
// whether there is one.
func (r *Results) get(c runs, name, unit string) (float64, bool) {
	v, n := r.Median(name, unit)
	if n == 0 {
		return 0, false
	}
	c[n] = true
	if unit == "ns/op" {
		v /= 1e6
	}
	return v, true
}

// tab builds one table, a row at a time; a row without any figure is
// left out, and so is a table without rows.
type tab struct {
	r    *Results
	c    runs
	rows []string
	row  []string
	seen bool
}

func newTab(r *Results) *tab { return &tab{r: r, c: runs{}} }

// start begins a row with its first cells.
func (t *tab) start(cells ...string) { t.row, t.seen = cells, false }

// fig adds the median of name's unit, formatted by format, or – when
// there is none, and returns it (0 when none).
func (t *tab) fig(name, unit string, format func(float64) string) float64 {
	v, ok := t.r.get(t.c, name, unit)
	t.seen = t.seen || ok
	if !ok {
		t.row = append(t.row, "–")
		return 0
	}
	t.row = append(t.row, format(v))
	return v
}

func (t *tab) cell(s string) { t.row = append(t.row, s) }

// end keeps the row if it has a figure.
func (t *tab) end() {
	if t.seen {
		t.rows = append(t.rows, "| "+strings.Join(t.row, " | ")+" |")
	}
}

// write prints the table under its title, the caption followed by the
// runs its figures are the median of.
func (t *tab) write(w io.Writer, title, caption string, head []string) {
	if len(t.rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\n### %s\n\n%s %s.\n\n", title, caption, t.c)
	fmt.Fprintln(w, "| "+strings.Join(head, " | ")+" |")
	fmt.Fprintln(w, "|"+strings.Repeat("---|", len(head)))
	for _, r := range t.rows {
		fmt.Fprintln(w, r)
	}
}

func whole(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }

// Write prints the report: the machine, then every table, as Markdown.
func Write(w io.Writer, r *Results, env Env) {
	fmt.Fprintf(w, "**Machine:** %s, %d cores, %s/%s. **Go:** %s. **Date:** %s.", or(r.CPU, "unknown CPU"), env.Cores, r.OS, r.Arch, env.Go, env.Date)
	if len(r.Loads) > 0 {
		fmt.Fprintf(w, " **Load average** (1, 5, 15 min): %s at the start, %s at the end.", r.Loads[0], r.Loads[len(r.Loads)-1])
	}
	fmt.Fprintln(w)
	writeBudgets(w, r)
	writeTools(w, r)
	writeEngineShare(w, r)
	writeCLI(w, r)
	writeOthers(w, r)
	writeFailed(w, r)
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// sizes is the vault sizes of the tables: the smallest (their first
// column), then the larger ones r measured, so that a run that left out
// the largest (filtered by hand) compares the largest it has.
func sizes(r *Results) []string {
	s := []string{toolbench.Sizes[0].Name}
	for _, z := range toolbench.Sizes[1:] {
		if slices.ContainsFunc(r.order, func(n string) bool {
			return strings.HasPrefix(n, "BenchmarkTools/"+z.Name+"/") || strings.HasPrefix(n, "BenchmarkCLI/"+z.Name+"/")
		}) {
			s = append(s, z.Name)
		}
	}
	return s
}

// writeTools is the main table: every scenario, both engines, every
// size, the ratio of the largest size to the smallest.
func writeTools(w io.Writer, r *Results) {
	t := newTab(r)
	z := sizes(r)
	small, large := z[0], z[len(z)-1]
	for _, sc := range toolbench.Scenarios {
		scope := "vault"
		if sc.OneProject {
			scope = "project"
		}
		t.start("`"+sc.Name+"`", scope)
		var first, last [2]float64
		for e, eng := range engines {
			for _, s := range z {
				v := t.fig("BenchmarkTools/"+s+"/"+sc.Name+"/"+eng, "ns/op", ms)
				first[e] = cond(s == small, v, first[e])
				last[e] = cond(s == large, v, last[e])
			}
			q := ratio(last[e], first[e])
			if sc.OneProject && first[e] > 0 && last[e]/first[e] > 1.3 {
				q += " ✗"
			}
			t.cell(q)
		}
		t.cell(ratio(first[1], first[0]))
		t.cell(ratio(last[1], last[0]))
		fs := []string{}
		for _, eng := range engines {
			if v, ok := r.get(t.c, "BenchmarkTools/"+small+"/"+sc.Name+"/"+eng, "fsyncs/op"); ok {
				fs = append(fs, strconv.FormatFloat(v, 'f', -1, 64))
			}
		}
		t.cell(or(strings.Join(slices.Compact(fs), " / "), "–"))
		t.end()
	}
	head := []string{"call", "scope"}
	for _, eng := range engines {
		for _, s := range z {
			head = append(head, eng+" "+s)
		}
		head = append(head, large+" ÷ "+small)
	}
	head = append(head, "wasm ÷ native "+small, "wasm ÷ native "+large, "fsyncs a call")
	t.write(w, "Every tool, warm, in one process (ms a call)",
		fmt.Sprintf("`BenchmarkTools`: the whole host call (lock, reads, engine, plan applied with its fsyncs), each call undone outside the timer. Scope `project`: the call acts on one project of the same size in every vault (its %s ÷ %s should stay ≤ 1.3; ✗ marks one over). wasm ÷ native at %s and at %s.", large, small, small, large), head)
}

var engines = []string{"native", "wasm"}

func cond[T any](c bool, a, b T) T {
	if c {
		return a
	}
	return b
}

// writeEngineShare is the time spent inside the engine.
func writeEngineShare(w io.Writer, r *Results) {
	t := newTab(r)
	z := sizes(r)
	ends := []string{z[0], z[len(z)-1]}
	head := []string{"call"}
	for _, eng := range engines {
		for _, s := range ends {
			head = append(head, eng+" "+s)
		}
	}
	for _, sc := range toolbench.Scenarios {
		t.start("`" + sc.Name + "`")
		for _, eng := range engines {
			for _, s := range ends {
				t.fig("BenchmarkTools/"+s+"/"+sc.Name+"/"+eng, "engine-ms/op", ms)
			}
		}
		t.end()
	}
	t.write(w, "Inside the engine (ms a call)", "The part of the calls above spent in the engine (the core's work and, on wasm, the crossings); the rest is the host: reading the vault, the lock, the journal, the fsyncs.", head)
}

// writeCLI is the whole-process table.
func writeCLI(w io.Writer, r *Results) {
	t := newTab(r)
	z := sizes(r)
	head := []string{"call", "engine"}
	for _, what := range []string{"wall", "CPU", "peak MB"} {
		for _, s := range z {
			head = append(head, what+" "+s)
		}
	}
	for _, name := range toolbench.CLIScenarios {
		for _, eng := range engines {
			t.start("`"+name+"`", eng)
			for _, unit := range []string{"ns/op", "cpu-ms/op", "peak-MB"} {
				for _, s := range z {
					t.fig("BenchmarkCLI/"+s+"/"+name+"/"+eng, unit, cond(unit == "peak-MB", whole, ms))
				}
			}
			t.end()
		}
	}
	t.write(w, "Whole process: `bin/kessho call …`, warm compilation cache", "`BenchmarkCLI`: wall time and CPU time (user + system) in ms, and the child's peak resident memory in MB (its rusage from wait4); peak is the largest of a run.", head)
}

// writeOthers lists every other benchmark of the output: the pure parts
// and the engines alone.
func writeOthers(w io.Writer, r *Results) {
	t := newTab(r)
	for _, name := range r.order {
		if strings.HasPrefix(name, "BenchmarkTools/") || strings.HasPrefix(name, "BenchmarkCLI/") {
			continue
		}
		t.start("`" + r.pkg[name] + "." + strings.TrimPrefix(name, "Benchmark") + "`")
		t.fig(name, "ns/op", ms)
		units := map[string]bool{}
		for _, s := range r.Samples[name] {
			for u := range s {
				units[u] = u != "ns/op"
			}
		}
		var extra []string
		for _, unit := range slices.Sorted(maps.Keys(units)) {
			if x, n := r.Median(name, unit); n > 0 && units[unit] {
				extra = append(extra, strconv.FormatFloat(x, 'f', -1, 64)+" "+unit)
			}
		}
		t.cell(or(strings.Join(extra, ", "), "–"))
		t.end()
	}
	t.write(w, "The parts alone", "The packages' own benchmarks (the core's pure parts, each engine alone, the MCP framing), named after their package.", []string{"benchmark", "ms an op", "also"})
}

// Markers delimit the generated part of docs/PERFORMANCE.md.
const (
	BeginMarker = "<!-- benchreport:begin (generated by `make bench-doc`; edit outside the markers) -->"
	EndMarker   = "<!-- benchreport:end -->"
)

// Splice replaces what lies between the markers of doc with section.
func Splice(doc, section string) (string, error) {
	i := strings.Index(doc, BeginMarker)
	j := strings.Index(doc, EndMarker)
	if i < 0 || j < i {
		return "", fmt.Errorf("no %q … %q in the document", BeginMarker, EndMarker)
	}
	return doc[:i+len(BeginMarker)] + "\n" + section + doc[j:], nil
}

// budget is one of the performance budgets a run is checked against
// (docs/PERFORMANCE.md, "Budgets"): a figure of the run and its limit.
type budget struct {
	what  string
	limit float64
	unit  string
	// measure returns the figure, what it is (e.g. the worst call), and
	// whether the run has it.
	measure func(r *Results) (float64, string, bool)
}

// toolMS is a scenario's median ms a call at size on eng.
func toolMS(r *Results, size, name, eng string) (float64, bool) {
	return r.get(runs{}, "BenchmarkTools/"+size+"/"+name+"/"+eng, "ns/op")
}

// worstRatio is the largest 50k ÷ 1k of the one-project scenarios on eng.
func worstRatio(eng string) func(r *Results) (float64, string, bool) {
	return func(r *Results) (float64, string, bool) {
		z := sizes(r)
		worst, name := 0.0, ""
		for _, sc := range toolbench.Scenarios {
			a, okA := toolMS(r, z[0], sc.Name, eng)
			b, okB := toolMS(r, z[len(z)-1], sc.Name, eng)
			if sc.OneProject && okA && okB && a > 0 && b/a > worst {
				worst, name = b/a, sc.Name
			}
		}
		return worst, "`" + name + "`", name != ""
	}
}

// oneFigure is a scenario's figure at one size.
func oneFigure(bench, size, name, eng, unit string) func(r *Results) (float64, string, bool) {
	return func(r *Results) (float64, string, bool) {
		v, ok := r.get(runs{}, bench+"/"+size+"/"+name+"/"+eng, unit)
		return v, "", ok
	}
}

// wasmOverNative is the largest wasm ÷ native of a scenario over the sizes.
func wasmOverNative(name string) func(r *Results) (float64, string, bool) {
	return func(r *Results) (float64, string, bool) {
		worst, at := 0.0, ""
		for _, s := range sizes(r) {
			n, okN := toolMS(r, s, name, "native")
			w, okW := toolMS(r, s, name, "wasm")
			if okN && okW && n > 0 && w/n > worst {
				worst, at = w/n, "at "+s
			}
		}
		return worst, at, at != ""
	}
}

var budgets = []budget{
	{"one-project calls, 50k ÷ 1k, native (worst)", 1.3, "×", worstRatio("native")},
	{"one-project calls, 50k ÷ 1k, wasm (worst)", 1.3, "×", worstRatio("wasm")},
	{"warm `mem_update_phase` at 1k, native", 3, "ms", oneFigure("BenchmarkTools", "1k", "mem_update_phase", "native", "ns/op")},
	{"warm `mem_update_phase` at 1k, wasm", 5, "ms", oneFigure("BenchmarkTools", "1k", "mem_update_phase", "wasm", "ns/op")},
	{"wasm ÷ native, `mem_update_phase` (largest over the sizes)", 1.5, "×", wasmOverNative("mem_update_phase")},
	{"wasm ÷ native, `mem_rollback_archive`", 1.5, "×", wasmOverNative("mem_rollback_archive")},
	{"wasm ÷ native, `mem_worklog.collect`", 1.5, "×", wasmOverNative("mem_worklog.collect")},
	{"wasm ÷ native, `mem_list`", 1.5, "×", wasmOverNative("mem_list")},
	{"CLI `mem_update_phase` at 1k, native, wall (50 ms is the default engine's budget)", 50, "ms", oneFigure("BenchmarkCLI", "1k", "mem_update_phase", "native", "ns/op")},
	{"CLI `mem_update_phase` at 1k, wasm, wall", 120, "ms", oneFigure("BenchmarkCLI", "1k", "mem_update_phase", "wasm", "ns/op")},
	{"CLI `mem_update_phase` at 1k, wasm, peak memory", 40, "MB", oneFigure("BenchmarkCLI", "1k", "mem_update_phase", "wasm", "peak-MB")},
}

// writeBudgets checks the run against the budgets.
func writeBudgets(w io.Writer, r *Results) {
	var rows []string
	for _, b := range budgets {
		v, note, ok := b.measure(r)
		if !ok {
			continue
		}
		verdict := "met"
		if v > b.limit {
			verdict = "**not met**"
		}
		f := ms(v)
		if b.unit == "×" {
			f = strconv.FormatFloat(v, 'f', 2, 64)
		}
		rows = append(rows, fmt.Sprintf("| %s | ≤ %s %s | %s %s %s | %s |", b.what, strconv.FormatFloat(b.limit, 'f', -1, 64), b.unit, f, b.unit, note, verdict))
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\n### Budgets (issue 12)\n\nFrom the tables below, this run.\n\n| budget | limit | measured | |\n|---|---|---|---|\n")
	for _, row := range rows {
		fmt.Fprintln(w, strings.ReplaceAll(row, "  |", " |"))
	}
}

// clip shortens s to at most n bytes, on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// writeFailed lists the benchmarks that failed (the innermost: a parent
// fails with its child), whose rows are missing.
func writeFailed(w io.Writer, r *Results) {
	var lines []string
	for _, f := range r.Failed {
		inner := slices.ContainsFunc(r.Failed, func(g [2]string) bool { return strings.HasPrefix(g[0], f[0]+"/") })
		if !inner {
			lines = append(lines, "- `"+f[0]+"`: "+f[1])
		}
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(w, "\n### Failed\n\nThese benchmarks failed in this run; their figures are missing from the tables.\n\n")
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}
