package recallbench

import (
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
)

// osa is the optimal-string-alignment distance (edits: insert, delete,
// substitute, transpose adjacent).
func osa(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			c := 1
			if x[i-1] == y[j-1] {
				c = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+c)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}

func TestOneEditIsOneEdit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	kinds := map[int]bool{}
	for _, w := range []string{"sensors", "aaaa", "facture", "été-x", "invoice", "Élève"} {
		for range 200 {
			e := OneEdit(w, rng)
			if d := osa(w, e); d != 1 {
				t.Fatalf("OneEdit(%q) = %q: distance %d, want 1", w, e, d)
			}
			kinds[len([]rune(e))-len([]rune(w))] = true
		}
	}
	if !kinds[-1] || !kinds[0] || !kinds[1] {
		t.Errorf("length changes seen %v: want deletions, insertions and same-length edits", kinds)
	}
}

func TestTypoVariants(t *testing.T) {
	q := "invoice total one cent more than the lines"
	a, b := TypoLongest(q, TypoSeed), TypoLongest(q, TypoSeed)
	if a != b {
		t.Fatalf("TypoLongest not deterministic: %q then %q", a, b)
	}
	aw, qw := strings.Fields(a), strings.Fields(q)
	changed := 0
	for i := range qw {
		if aw[i] != qw[i] {
			changed++
			if qw[i] != "invoice" {
				t.Errorf("TypoLongest edited %q, want the longest word invoice", qw[i])
			}
		}
	}
	if changed != 1 {
		t.Errorf("TypoLongest(%q) = %q: %d words changed, want 1", q, a, changed)
	}
	e := TypoEvery(q, TypoSeed)
	if e != TypoEvery(q, TypoSeed) {
		t.Fatal("TypoEvery not deterministic")
	}
	for i, w := range strings.Fields(e) {
		want := 0
		if len(qw[i]) >= 4 {
			want = 1
		}
		if d := osa(qw[i], w); d != want {
			t.Errorf("TypoEvery word %q became %q: distance %d, want %d", qw[i], w, d, want)
		}
	}
	if got := TypoLongest("a b c-d", TypoSeed); got != "a b c-d" {
		t.Errorf("no word of 4 letters: got %q", got)
	}
}

func TestSplitsLabelling(t *testing.T) {
	needs := []Need{
		{ID: "a", Split: "dev", Queries: []string{"facture fausse", "wrong invoice", "VAT"}, Gold: []string{"x"}, GoldKind: "archive"},
		{ID: "z", Split: "test", Queries: []string{"nothing here"}, GoldKind: "none"},
	}
	langs := map[string]Label{"a": {Note: "en", Queries: []string{"fr", "en", "mixed"}}}
	count := map[string]int{}
	for _, p := range Splits(needs, langs) {
		count[p.Split]++
		if p.Split == SplitOtherLang && p.Query != "facture fausse" || p.Split == SplitSameLang && p.Query != "wrong invoice" {
			t.Errorf("%s holds %q", p.Split, p.Query)
		}
		if p.Split == SplitNone && p.Need.ID != "z" {
			t.Errorf("no-answer split holds need %s", p.Need.ID)
		}
	}
	want := map[string]int{SplitClean: 1, SplitArchive: 1, SplitTypoLongest: 1, SplitTypoEvery: 1, SplitSameLang: 1, SplitOtherLang: 1, SplitNone: 1}
	for k, v := range want {
		if count[k] != v {
			t.Errorf("split %s: %d probes, want %d (all: %v)", k, count[k], v, count)
		}
	}
	if count[SplitAtom] != 0 {
		t.Errorf("an archive need went to the atom split")
	}
}

func TestProbeMetricsOnToyRanking(t *testing.T) {
	yes, no := true, false
	answers := map[string]Answer{
		"q1": {Hits: []Hit{{"g", 3}, {"x", 1}}, Confident: &yes},
		"q2": {Hits: []Hit{{"x", 3}, {"y", 2}, {"g", 1}}, Confident: &no},
		"q3": {Confident: &no},
	}
	asked := 0
	a := Asker{"toy", func(_ context.Context, _ Need, q string) (Answer, error) { asked++; return answers[q], nil }}
	n := Need{ID: "a", Split: "test", Gold: []string{"g"}, GoldKind: "atom"}
	probes := []Probe{{SplitClean, n, "q1"}, {SplitClean, n, "q2"}, {SplitClean, n, "q3"}, {SplitAtom, n, "q1"}}
	scores, err := EvaluateProbes(context.Background(), probes, a)
	if err != nil {
		t.Fatal(err)
	}
	if asked != 3 {
		t.Errorf("asked %d times, want 3 (q1 once)", asked)
	}
	cells := Cells("toy", scores)
	c, ok := findCell(cells, "toy", SplitClean, "test")
	if !ok || c.N != 3 {
		t.Fatalf("clean cell %+v", c)
	}
	near := func(x, y float64) bool { return math.Abs(x-y) < 1e-9 }
	if !near(c.MRR[0], (1+1.0/3)/3) || !near(c.Hit1[0], 1.0/3) || !near(c.Hit5[0], 2.0/3) || !near(c.Empty, 1.0/3) || !near(c.Unconfident, 2.0/3) {
		t.Errorf("clean cell %+v", c)
	}
	if c.MRR[1] > c.MRR[0] || c.MRR[2] < c.MRR[0] {
		t.Errorf("CI %v does not hold the mean", c.MRR)
	}
	if _, ok := findCell(cells, "toy", SplitClean, "dev"); ok {
		t.Error("a dev cell without dev needs")
	}
}

func TestRatiosAndFlag(t *testing.T) {
	cell := func(r, s string, mrr, empty, unc float64) Cell {
		return Cell{Ranker: r, Split: s, Half: "test", MRR: [3]float64{mrr}, Empty: empty, Unconfident: unc}
	}
	cells := []Cell{
		cell("kessho", SplitSameLang, 0.8, 0, 0), cell("kessho", SplitOtherLang, 0.4, 0, 0),
		cell("kessho", SplitClean, 0.8, 0, 0.05), cell("kessho", SplitTypoEvery, 0.2, 0.5, 0),
		cell("kessho", SplitArchive, 0.9, 0, 0), cell("kessho", SplitAtom, 0.6, 0, 0),
		cell("kessho", SplitNone, 0, 0, 0.75), cell("grep", SplitClean, 0.5, 0, -1),
	}
	joined := strings.Join(Ratios(cells, []string{"kessho", "grep"}), "\n")
	for _, want := range []string{"test kessho: other/same-lang MRR 0.50; typo-every/clean MRR 0.25 (typo-every empty 50 %); atom-archive MRR -0.30",
		"clean +0.30 (vs grep)", "75 % of no-answer needs flagged", "5 % of answerable first phrasings flagged", "dev kessho confidence flag: no signal"} {
		if !strings.Contains(joined, want) {
			t.Errorf("ratios lack %q:\n%s", want, joined)
		}
	}
}

// The second needs file: no-answer needs only, at least 40, half dev
// half test, ids unique across files, valid against the vault; every
// need has a language label with one entry per phrasing.
func TestNeedsFile2AndLabels(t *testing.T) {
	f, err := LoadNeeds(filepath.Join(benchDir, "needs-2.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Validate(filepath.Join(benchDir, "vault")); err != nil {
		t.Fatal(err)
	}
	halves := map[string]int{}
	for _, n := range f.Needs {
		if n.GoldKind != "none" {
			t.Errorf("need %s: kind %s, want none", n.ID, n.GoldKind)
		}
		halves[n.Split]++
	}
	if halves["dev"] < 20 || halves["test"] < 20 {
		t.Errorf("halves %v: want at least 20 each", halves)
	}
	all, langs, err := loadNeedsFiles(benchDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range all.Needs {
		l, ok := langs[n.ID]
		if !ok || len(l.Queries) != len(n.Queries) {
			t.Errorf("need %s: label %+v for %d phrasings", n.ID, l, len(n.Queries))
		}
	}
}
