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

	"kessho/host/internal/toolbench"
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
}

var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+(\d+)\s+(.+)$`)

// Parse reads `go test -bench` output.
func Parse(r io.Reader) (*Results, error) {
	res := &Results{Samples: map[string][]map[string]float64{}, pkg: map[string]string{}}
	pkg := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
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
// "" when there is none.
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

func cell(v float64, ok bool) string {
	if !ok {
		return "–"
	}
	return ms(v)
}

// Write prints the report: the machine, then every table, as Markdown.
func Write(w io.Writer, r *Results, env Env) {
	fmt.Fprintf(w, "**Machine:** %s, %d cores, %s/%s. **Go:** %s. **Date:** %s.", or(r.CPU, "unknown CPU"), env.Cores, r.OS, r.Arch, env.Go, env.Date)
	if len(r.Loads) > 0 {
		fmt.Fprintf(w, " **Load average** (1, 5, 15 min): %s at the start, %s at the end.", r.Loads[0], r.Loads[len(r.Loads)-1])
	}
	fmt.Fprintln(w)
	writeTools(w, r)
	writeEngineShare(w, r)
	writeCLI(w, r)
	writeOthers(w, r)
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func sizes() []string {
	var s []string
	for _, z := range toolbench.Sizes {
		s = append(s, z.Name)
	}
	return s
}

// writeTools is the main table: every scenario, both engines, every
// size, the ratio of the largest size to the smallest.
func writeTools(w io.Writer, r *Results) {
	c := runs{}
	z := sizes()
	var rows []string
	for _, sc := range toolbench.Scenarios {
		row := []string{"`" + sc.Name + "`", "vault"}
		if sc.OneProject {
			row[1] = "project"
		}
		seen := false
		var first, last [2]float64
		for e, eng := range []string{"native", "wasm"} {
			var vals []float64
			for _, s := range z {
				v, ok := r.get(c, "BenchmarkTools/"+s+"/"+sc.Name+"/"+eng, "ns/op")
				seen = seen || ok
				row = append(row, cell(v, ok))
				vals = append(vals, v)
			}
			first[e], last[e] = vals[0], vals[len(vals)-1]
			q := ratio(last[e], first[e])
			if sc.OneProject && first[e] > 0 && last[e]/first[e] > 1.3 {
				q += " ✗"
			}
			row = append(row, q)
		}
		row = append(row, ratio(first[1], first[0]), ratio(last[1], last[0]))
		fs := []string{}
		for _, eng := range []string{"native", "wasm"} {
			if v, ok := r.get(c, "BenchmarkTools/"+z[0]+"/"+sc.Name+"/"+eng, "fsyncs/op"); ok {
				fs = append(fs, strconv.FormatFloat(v, 'f', -1, 64))
			}
		}
		row = append(row, or(strings.Join(slices.Compact(fs), " / "), "–"))
		if seen {
			rows = append(rows, "| "+strings.Join(row, " | ")+" |")
		}
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\n### Every tool, warm, in one process (ms a call)\n\n")
	fmt.Fprintf(w, "`BenchmarkTools`: the whole host call (lock, reads, engine, plan applied with its fsyncs), each call undone outside the timer. %s. Scope `project`: the call acts on one project of the same size in every vault (its %s ÷ %s should stay ≤ 1.3; ✗ marks one over). wasm ÷ native at %s and at %s.\n\n", c, z[len(z)-1], z[0], z[0], z[len(z)-1])
	head := []string{"call", "scope"}
	for _, eng := range []string{"native", "wasm"} {
		for _, s := range z {
			head = append(head, eng+" "+s)
		}
		head = append(head, z[len(z)-1]+" ÷ "+z[0])
	}
	head = append(head, "wasm ÷ native "+z[0], "wasm ÷ native "+z[len(z)-1], "fsyncs a call")
	table(w, head, rows)
}

// writeEngineShare is the time spent inside the engine.
func writeEngineShare(w io.Writer, r *Results) {
	c := runs{}
	z := sizes()
	var rows []string
	for _, sc := range toolbench.Scenarios {
		row := []string{"`" + sc.Name + "`"}
		seen := false
		for _, eng := range []string{"native", "wasm"} {
			for _, s := range []string{z[0], z[len(z)-1]} {
				v, ok := r.get(c, "BenchmarkTools/"+s+"/"+sc.Name+"/"+eng, "engine-ms/op")
				seen = seen || ok
				row = append(row, cell(v, ok))
			}
		}
		if seen {
			rows = append(rows, "| "+strings.Join(row, " | ")+" |")
		}
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\n### Inside the engine (ms a call)\n\nThe part of the calls above spent in the engine (the core's work and, on wasm, the crossings); the rest is the host: reading the vault, the lock, the journal, the fsyncs. %s.\n\n", c)
	table(w, []string{"call", "native " + z[0], "native " + z[len(z)-1], "wasm " + z[0], "wasm " + z[len(z)-1]}, rows)
}

// writeCLI is the whole-process table.
func writeCLI(w io.Writer, r *Results) {
	c := runs{}
	z := sizes()
	var rows []string
	for _, name := range toolbench.CLIScenarios {
		for _, eng := range []string{"native", "wasm"} {
			row := []string{"`" + name + "`", eng}
			seen := false
			for _, unit := range []string{"ns/op", "cpu-ms/op", "peak-MB"} {
				for _, s := range z {
					v, ok := r.get(c, "BenchmarkCLI/"+s+"/"+name+"/"+eng, unit)
					seen = seen || ok
					if unit == "peak-MB" && ok {
						row = append(row, strconv.FormatFloat(v, 'f', 0, 64))
						continue
					}
					row = append(row, cell(v, ok))
				}
			}
			if seen {
				rows = append(rows, "| "+strings.Join(row, " | ")+" |")
			}
		}
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\n### Whole process: `bin/kessho call …`, warm compilation cache\n\n`BenchmarkCLI`: wall time and CPU time (user + system) in ms, and the child's peak resident memory in MB (its rusage from wait4); peak is the largest of a run. %s.\n\n", c)
	head := []string{"call", "engine"}
	for _, what := range []string{"wall", "CPU", "peak MB"} {
		for _, s := range z {
			head = append(head, what+" "+s)
		}
	}
	table(w, head, rows)
}

// writeOthers lists every other benchmark of the output: the pure parts
// and the engines alone.
func writeOthers(w io.Writer, r *Results) {
	c := runs{}
	var rows []string
	for _, name := range r.order {
		if strings.HasPrefix(name, "BenchmarkTools/") || strings.HasPrefix(name, "BenchmarkCLI/") {
			continue
		}
		v, ok := r.get(c, name, "ns/op")
		row := []string{"`" + r.pkg[name] + "." + strings.TrimPrefix(name, "Benchmark") + "`", cell(v, ok)}
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
		row = append(row, or(strings.Join(extra, ", "), "–"))
		rows = append(rows, "| "+strings.Join(row, " | ")+" |")
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\n### The parts alone\n\nThe packages' own benchmarks (the core's pure parts, each engine alone, the MCP framing), named after their package. %s.\n\n", c)
	table(w, []string{"benchmark", "ms an op", "also"}, rows)
}

func table(w io.Writer, head []string, rows []string) {
	fmt.Fprintln(w, "| "+strings.Join(head, " | ")+" |")
	fmt.Fprintln(w, "|"+strings.Repeat("---|", len(head)))
	for _, r := range rows {
		fmt.Fprintln(w, r)
	}
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
