package search

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func fuzzyTop(x *Index, q string, prefix bool) []Hit {
	terms := Terms(q)
	hits, _ := x.RankExpanded(terms, Fuzzy(len(terms), prefix), all).Top(x, math.MaxInt)
	return hits
}

func expandVault() *Index {
	return build(map[string]string{
		"20-knowledge/Sensors.md":  "The humidity sensors of the greenhouse drift in winter.",
		"20-knowledge/Parser.md":   "The configuration parser rejects tabs.",
		"20-knowledge/Sense.md":    "Nothing here makes sense.",
		"20-knowledge/Thermals.md": "Thermometers calibrated yearly.",
	})
}

func TestFuzzyOneEdit(t *testing.T) {
	x := expandVault()
	if got := paths(x.search(Terms("greenhuose"), all)); got != nil {
		t.Fatalf("exact ranking found a typo: %v", got)
	}
	for _, q := range []string{"greenhuose", "grenhouse", "parsr", "configuratoin"} {
		hits := fuzzyTop(x, q, false)
		if len(hits) == 0 {
			t.Errorf("%q: no hit", q)
		}
	}
	if got := paths(fuzzyTop(x, "parsr", false)); !reflect.DeepEqual(got, []string{"20-knowledge/Parser.md"}) {
		t.Errorf("parsr: %v", got)
	}
}

func TestFuzzyShortTermsAlone(t *testing.T) {
	x := expandVault()
	if got := paths(fuzzyTop(x, "tab", false)); len(got) != 1 { // exact: tab(s) only
		t.Errorf("tab: %v", got)
	}
	if got := fuzzyTop(x, "snes", false); len(got) != 0 { // 4 letters, but 2 edits from sens
		t.Errorf("snes: %v", paths(got))
	}
}

func TestFuzzyWeighsLess(t *testing.T) {
	x := expandVault()
	exact, typo := x.search(Terms("parser"), all), fuzzyTop(x, "parsre", false)
	if len(exact) != 1 || len(typo) != 1 || typo[0].Path != exact[0].Path || typo[0].Score >= exact[0].Score {
		t.Fatalf("a typo scores %v, the word %v", typo, exact)
	}
}

func TestPrefixLastTerm(t *testing.T) {
	x := expandVault()
	for _, q := range []string{"sens", "senso", "humidity sens"} {
		got := paths(fuzzyTop(x, q, true))
		if len(got) == 0 || !contains(got, "20-knowledge/Sensors.md") {
			t.Errorf("%q with prefix: %v", q, got)
		}
	}
	if got := paths(fuzzyTop(x, "therm", false)); got != nil {
		t.Errorf("therm without prefix: %v", got)
	}
	if got := paths(fuzzyTop(x, "therm humidity", true)); !reflect.DeepEqual(got, []string{"20-knowledge/Sensors.md"}) {
		t.Errorf("prefix applies to the last term only: %v", got)
	}
}

func TestEditsWithin(t *testing.T) {
	for _, c := range []struct {
		a, b    string
		k, want int
	}{{"parser", "parsre", 1, 1}, {"parser", "pasrre", 1, -1}, {"configuratoin", "configur", 1, 0}, {"configuratoin", "confiugr", 1, 1}, {"parser", "parse", 1, 1}, {"été", "ete", 2, 2}, {"été", "ete", 1, -1}, {"same", "same", 1, 0}, {"abcd", "abcdef", 1, -1}} {
		if got, ok := editsWithin([]rune(c.a), c.b, c.k); !ok && c.want != -1 || ok && got != c.want {
			t.Errorf("editsWithin(%q, %q, %d) = %d, want %d", c.a, c.b, c.k, got, c.want)
		}
	}
}

func TestExpandedRankingUpdate(t *testing.T) {
	x := expandVault()
	terms := Terms("parsr")
	r := x.RankExpanded(terms, Fuzzy(1, false), all)
	r.Top(x, 10)
	x.Put(ParseNote("20-knowledge/Pars.md", "k", strp("the pars of it")))
	if r.Update(x, all) {
		t.Fatal("an expanded ranking updated after the index learned terms")
	}
}

func contains(s []string, v string) bool {
	for _, e := range s {
		if e == v {
			return true
		}
	}
	return false
}

func TestCoverage(t *testing.T) {
	x := expandVault()
	cov := func(q string) []float64 {
		terms := Terms(q)
		r := x.RankExpanded(terms, Fuzzy(len(terms), false), all)
		hits, _ := r.Top(x, 10)
		var out []float64
		for _, h := range hits {
			out = append(out, r.Coverage(x, h))
		}
		return out
	}
	if got := cov("humidity sensors greenhouse"); len(got) != 1 || got[0] != 1 {
		t.Errorf("every word matched: %v", got)
	}
	if got := cov("greenhouse zeppelins"); len(got) != 1 || got[0] <= 0 || got[0] >= 0.5 {
		t.Errorf("an unknown rare word weighs more than a known one: %v", got)
	}
	one, typo := cov("parser"), cov("parsre")
	if len(typo) != 1 || typo[0] != fuzzyOne || one[0] != 1 {
		t.Errorf("a typo covers at its alternative's weight: %v, the word %v", typo, one)
	}
}

// TestCovering checks that Covering keeps exactly the hits whose
// Coverage reaches the least asked, over random queries of an index's
// words, typos and words it does not know.
func TestCovering(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 2))
	x := New()
	for _, n := range orderNotes(r, 200, 0) {
		x.Put(n)
	}
	kept := map[bool]int{}
	for range 200 {
		var q []string
		for range 1 + r.IntN(4) {
			q = append(q, []string{x.terms[r.IntN(len(x.terms))], randomWord(r, 5+r.IntN(6))}[r.IntN(2)])
		}
		terms := Terms(strings.Join(q, " "))
		rk := x.RankExpanded(terms, Fuzzy(len(terms), true), all)
		hits, _ := rk.Top(x, math.MaxInt)
		least := []float64{0, 0.26, 0.5, 0.8, 1}[r.IntN(5)]
		keep := rk.Covering(x, least, all)
		for _, h := range hits {
			if got, want := keep(h.Meta), rk.Coverage(x, h) >= least; got != want {
				t.Fatalf("%q, %s: Covering(%v) %v, Coverage %v", q, h.Path, least, got, rk.Coverage(x, h))
			}
			kept[keep(h.Meta)]++
		}
	}
	if kept[true] < 100 || kept[false] < 100 {
		t.Fatalf("hits kept and left out: %v", kept)
	}
}
