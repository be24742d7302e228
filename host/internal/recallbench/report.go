package recallbench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
)

// Ranker is one column of the report: a name and how it ranks one
// phrasing of a need.
type Ranker struct {
	Name string
	Rank func(ctx context.Context, n Need, q string) ([]Hit, error)
}

// Result is one ranker's score on one need.
type Result struct {
	Need  Need
	Score NeedScore
}

// Evaluate ranks every phrasing of every need with r.
func Evaluate(ctx context.Context, needs []Need, r Ranker) ([]Result, error) {
	out := make([]Result, 0, len(needs))
	for _, n := range needs {
		rankings := make([][]string, len(n.Queries))
		top := 0.0
		for i, q := range n.Queries {
			hits, err := r.Rank(ctx, n, q)
			if err != nil {
				return nil, fmt.Errorf("%s, need %s, phrasing %d: %w", r.Name, n.ID, i+1, err)
			}
			if i == 0 && len(hits) > 0 {
				top = hits[0].Score
			}
			for _, h := range hits {
				rankings[i] = append(rankings[i], h.Path)
			}
		}
		s := Score(rankings, n.Gold)
		s.TopScore = top
		out = append(out, Result{n, s})
	}
	return out, nil
}

// Bench is a loaded benchmark: the needs, the baselines over the vault,
// and Kessho on a copy of it.
type Bench struct {
	Needs   []Need
	Rankers []Ranker
	// Unavailable names the rankers that could not run, with why.
	Unavailable map[string]string
	// DevDetail adds one line per need of the dev half (the half to tune
	// on): each ranker's rank of the gold on the first phrasing and its
	// attempts. The test half is never listed need by need.
	DevDetail bool
	// Langs labels the languages of notes and phrasings (needs-lang.json).
	Langs map[string]Label
	// Askers rank the split probes (issue 29); JSON prints them as JSON.
	Askers  []Asker
	JSON    bool
	cleanup func()
}

// Close removes the copy of the vault.
func (b *Bench) Close() { b.cleanup() }

// Load reads dir (testdata/recall): its needs, checked against its
// vault, and the rankers: Kessho's mem_search and the three baselines.
func Load(dir string) (*Bench, error) {
	f, langs, err := loadNeedsFiles(dir)
	if err != nil {
		return nil, err
	}
	vault := filepath.Join(dir, f.Vault)
	docs, err := ReadVault(vault)
	if err != nil {
		return nil, err
	}
	c := NewCorpus(docs)
	tmp, err := os.MkdirTemp("", "recall-bench-")
	if err != nil {
		return nil, err
	}
	b := &Bench{Needs: f.Needs, Langs: langs, Unavailable: map[string]string{}, cleanup: func() { os.RemoveAll(tmp) }}
	copyDir := filepath.Join(tmp, "vault")
	if err := CopyNotes(vault, copyDir); err != nil {
		b.Close()
		return nil, err
	}
	k, err := OpenKessho(copyDir)
	if err != nil {
		b.Close()
		return nil, err
	}
	b.cleanup = func() { k.Close(); os.RemoveAll(tmp) }
	plain := func(rank func(string) []Hit) func(context.Context, Need, string) ([]Hit, error) {
		return func(_ context.Context, _ Need, q string) ([]Hit, error) { return rank(q), nil }
	}
	b.Rankers = []Ranker{
		{"kessho", func(ctx context.Context, n Need, q string) ([]Hit, error) { return k.Rank(ctx, q, n.IncludeArchived) }},
		{"grep", plain(Grep{c}.Rank)},
		{"bm25-file", plain(BM25{c}.Rank)},
		{"bm25f-noalias", plain(BM25F{c}.Rank)},
	}
	b.Askers = []Asker{{"kessho", func(ctx context.Context, n Need, q string) (Answer, error) { return k.Ask(ctx, q, n.IncludeArchived) }}}
	for _, r := range b.Rankers[1:] {
		b.Askers = append(b.Askers, Asker{r.Name, func(ctx context.Context, n Need, q string) (Answer, error) {
			h, err := r.Rank(ctx, n, q)
			return Answer{Hits: h}, err
		}})
	}
	return b, nil
}

// NeedsFiles are the needs files Load reads, in order: the frozen first
// set and the second (no-answer needs, issue 29).
var NeedsFiles = []string{"needs.json", "needs-2.json"}

// loadNeedsFiles reads and checks every needs file of dir against its
// vault, ids unique across files, and the language labels.
func loadNeedsFiles(dir string) (*NeedsFile, map[string]Label, error) {
	var all *NeedsFile
	for _, name := range NeedsFiles {
		f, err := LoadNeeds(filepath.Join(dir, name))
		if err != nil {
			return nil, nil, err
		}
		if all == nil {
			all = f
		} else {
			all.Needs = append(all.Needs, f.Needs...)
		}
	}
	if err := all.Validate(filepath.Join(dir, all.Vault)); err != nil {
		return nil, nil, err
	}
	l, err := LoadLangs(filepath.Join(dir, "needs-lang.json"))
	if err != nil {
		return nil, nil, err
	}
	return all, l.Labels, nil
}

// Run evaluates every ranker and writes the report to w. A ranker that
// refuses (mem_search before it exists) is reported unavailable; the
// others are still reported.
func (b *Bench) Run(ctx context.Context, w io.Writer) error {
	results := map[string][]Result{}
	var names []string
	for _, r := range b.Rankers {
		res, err := Evaluate(ctx, b.Needs, r)
		var refused *Refused
		if errors.As(err, &refused) {
			b.Unavailable[r.Name] = err.Error()
			continue
		}
		if err != nil {
			return err
		}
		results[r.Name] = res
		names = append(names, r.Name)
	}
	if !b.JSON {
		WriteReport(w, b.Needs, names, results, b.Unavailable)
		if b.DevDetail {
			writeDevDetail(w, names, results)
		}
	}
	return b.runSplits(ctx, w, names)
}

// runSplits evaluates the issue 29 splits with the rankers that ran
// (names) and writes them.
func (b *Bench) runSplits(ctx context.Context, w io.Writer, names []string) error {
	probes := Splits(b.Needs, b.Langs)
	var cells []Cell
	for _, a := range b.Askers {
		if !slices.Contains(names, a.Name) {
			continue
		}
		scores, err := EvaluateProbes(ctx, probes, a)
		if err != nil {
			return err
		}
		cells = append(cells, Cells(a.Name, scores)...)
	}
	slices.SortStableFunc(cells, func(x, y Cell) int {
		return strings.Compare(x.Half, y.Half)*100 + (slices.Index(splitOrder, x.Split) - slices.Index(splitOrder, y.Split))
	})
	return WriteSplits(w, SplitReport{cells, Ratios(cells, names)}, b.JSON)
}

// writeDevDetail lists the dev half need by need: per ranker, the rank
// of the first gold on the first phrasing ("-" past 10), the attempts,
// EMPTY when the first phrasing found nothing; then the first phrasing.
func writeDevDetail(w io.Writer, names []string, results map[string][]Result) {
	if len(names) == 0 {
		return
	}
	fmt.Fprintln(w, "\n== dev half, need by need (rank of the gold on the first phrasing, attempts)")
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	for i, r := range results[names[0]] {
		if r.Need.Split != "dev" {
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t", r.Need.ID, r.Need.GoldKind)
		for _, name := range names {
			s := results[name][i].Score
			rank := "-"
			if s.RR10 > 0 {
				rank = fmt.Sprint(int(math.Round(1 / s.RR10)))
			}
			empty := ""
			if s.EmptyFirst {
				empty = " EMPTY"
			}
			fmt.Fprintf(tw, "%s: rank %s attempts %d%s\t", name, rank, s.Attempts, empty)
		}
		fmt.Fprintf(tw, "| %s\n", r.Need.Queries[0])
	}
	tw.Flush()
}

const resamples = 2000

// WriteReport prints, for the dev half then the test half, each ranker's
// hit@1, hit@5, MRR@10 (first phrasing) and mean attempts-to-find, by
// gold kind and overall, with 95 % bootstrap intervals over needs; the
// needs no phrasing found; the answerable needs whose first phrasing came
// back empty; what the rankers answer to the needs with no answer.
func WriteReport(w io.Writer, needs []Need, names []string, results map[string][]Result, unavailable map[string]string) {
	fmt.Fprintf(w, "Kessho retrieval benchmark (testdata/recall): %d needs.\n", len(needs))
	fmt.Fprintln(w, "hit@1, hit@5, MRR@10 on the first phrasing; attempts = index of the first phrasing whose top 5 holds")
	fmt.Fprintf(w, "the gold, a need no phrasing found counting %d (also counted apart: 'not found'); [95%% bootstrap CI over needs, %d resamples].\n", MaxAttempts, resamples)
	fmt.Fprintln(w, "Baselines: one tokenizer (lowercase, accents folded, no stemming, no stopwords); grep = OR match of the words, ordered by")
	fmt.Fprintln(w, "distinct words matched then walk order; bm25-file = BM25 over the whole file; bm25f-noalias = BM25F over title, subject,")
	fmt.Fprintln(w, "display, summary, body (aliases left out). Baselines read archived projects too; kessho only for needs marked include_archived.")
	for _, name := range slices.Sorted(maps.Keys(unavailable)) {
		fmt.Fprintf(w, "\n%s column UNAVAILABLE: %s\n", name, unavailable[name])
	}
	for _, half := range []string{"dev", "test"} {
		writeHalf(w, half, needs, names, results)
	}
}

// writeHalf writes the figures of one half (dev or test) of the needs:
// each ranker's scores by gold kind, then what it answers to the needs
// the vault has no answer for.
func writeHalf(w io.Writer, half string, needs []Need, names []string, results map[string][]Result) {
	kinds := map[string]int{}
	for _, n := range needs {
		if n.Split == half {
			kinds[n.GoldKind]++
		}
	}
	fmt.Fprintf(w, "\n== %s half: %d archive needs, %d atom needs, %d with no answer\n", half, kinds["archive"], kinds["atom"], kinds["none"])
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ranker\tgold\tn\thit@1\thit@5\tMRR@10\tattempts\tnot found\tempty 1st\t")
	for _, name := range names {
		for _, kind := range []string{"archive", "atom", "all"} {
			var sel []NeedScore
			for _, r := range results[name] {
				if r.Need.Split == half && r.Need.GoldKind != "none" && (kind == "all" || r.Need.GoldKind == kind) {
					sel = append(sel, r.Score)
				}
			}
			writeScores(tw, name, kind, sel)
		}
	}
	tw.Flush()
	fmt.Fprintln(w, "needs with no answer in the vault: how many came back with hits on their first phrasing, and the median")
	fmt.Fprintln(w, "top score of those hits relative to the median top score on answerable needs (the same ranker's scale):")
	for _, name := range names {
		writeUnanswerable(w, name, half, results[name])
	}
	if half == "test" {
		fmt.Fprintln(w, doneWhen(names, results))
	}
}

// writeScores writes one row of a half's table: ranker name's scores on
// the needs of gold kind, sel, each a mean with its confidence interval.
func writeScores(tw io.Writer, name, kind string, sel []NeedScore) {
	col := func(f func(NeedScore) float64) string {
		v := make([]float64, len(sel))
		for i, s := range sel {
			v[i] = f(s)
		}
		lo, hi := Bootstrap(v, resamples, 1)
		return fmt.Sprintf("%.2f [%.2f %.2f]", Mean(v), lo, hi)
	}
	notFound, empty := 0, 0
	for _, s := range sel {
		if s.Attempts == MaxAttempts {
			notFound++
		}
		if s.EmptyFirst {
			empty++
		}
	}
	fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%d\t%d\t\n", name, kind, len(sel),
		col(func(s NeedScore) float64 { return s.Hit1 }),
		col(func(s NeedScore) float64 { return s.Hit5 }),
		col(func(s NeedScore) float64 { return s.RR10 }),
		col(func(s NeedScore) float64 { return float64(s.Attempts) }),
		notFound, empty)
}

// writeUnanswerable writes how ranker name answered the needs of half
// that the vault has no answer for: how many came back with hits, and
// how high those scored against the answerable needs.
func writeUnanswerable(w io.Writer, name, half string, results []Result) {
	var none, answerable []float64
	with := 0
	for _, r := range results {
		if r.Need.Split != half {
			continue
		}
		if r.Need.GoldKind == "none" {
			none = append(none, r.Score.TopScore)
			if !r.Score.EmptyFirst {
				with++
			}
		} else {
			answerable = append(answerable, r.Score.TopScore)
		}
	}
	ratio := "n/a"
	if m := median(answerable); m > 0 && len(none) > 0 {
		ratio = fmt.Sprintf("%.2f", median(none)/m)
	}
	fmt.Fprintf(w, "  %-14s %d/%d with hits, top score ratio %s\n", name, with, len(none), ratio)
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(v))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// doneWhen states the benchmark's condition on the test half: Kessho
// beats every baseline on MRR@10 and on mean attempts, and no answerable
// need comes back empty on its first phrasing.
func doneWhen(names []string, results map[string][]Result) string {
	if _, ok := results["kessho"]; !ok {
		return "issue 13's condition (test half): cannot be checked, the kessho column is unavailable."
	}
	mean := func(name string, f func(NeedScore) float64) float64 {
		var v []float64
		for _, r := range results[name] {
			if r.Need.Split == "test" && r.Need.GoldKind != "none" {
				v = append(v, f(r.Score))
			}
		}
		return Mean(v)
	}
	rr := func(s NeedScore) float64 { return s.RR10 }
	att := func(s NeedScore) float64 { return float64(s.Attempts) }
	empty := func(s NeedScore) float64 {
		if s.EmptyFirst {
			return 1
		}
		return 0
	}
	var fails []string
	for _, name := range names {
		if name == "kessho" {
			continue
		}
		if mean("kessho", rr) <= mean(name, rr) {
			fails = append(fails, "MRR@10 not above "+name)
		}
		if mean("kessho", att) >= mean(name, att) {
			fails = append(fails, "attempts not below "+name)
		}
	}
	if mean("kessho", empty) > 0 {
		fails = append(fails, "an answerable need came back empty")
	}
	if len(fails) == 0 {
		return "issue 13's condition (test half): MET."
	}
	return "issue 13's condition (test half): NOT MET: " + strings.Join(fails, "; ") + "."
}
