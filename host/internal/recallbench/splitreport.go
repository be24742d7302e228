package recallbench

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
)

// SplitReport is every ranker's cells and the issue 29 ratios.
type SplitReport struct {
	Cells  []Cell   `json:"cells"`
	Ratios []string `json:"ratios"`
}

func findCell(cells []Cell, ranker, split, half string) (Cell, bool) {
	for _, c := range cells {
		if c.Ranker == ranker && c.Split == split && c.Half == half {
			return c, true
		}
	}
	return Cell{}, false
}

// Ratios states, per half, issue 29's Done-when figures: for each
// ranker other-language MRR ÷ same-language MRR, every-word-typo MRR ÷
// clean MRR (with its share of empty answers), atoms' MRR − archives'
// MRR; Kessho's MRR minus the best baseline's on each split; and the
// confidence flag (no-answer needs flagged, answerable first phrasings
// flagged) or "no signal".
func Ratios(cells []Cell, rankers []string) []string {
	var out []string
	for _, half := range []string{"dev", "test"} {
		for _, r := range rankers {
			get := func(s string) Cell { c, _ := findCell(cells, r, s, half); return c }
			same, other, clean, every := get(SplitSameLang), get(SplitOtherLang), get(SplitClean), get(SplitTypoEvery)
			out = append(out, fmt.Sprintf("%s %s: other/same-lang MRR %.2f; typo-every/clean MRR %.2f (typo-every empty %.0f %%); atom-archive MRR %+.2f",
				half, r, ratio(other.MRR[0], same.MRR[0]), ratio(every.MRR[0], clean.MRR[0]), 100*every.Empty,
				get(SplitAtom).MRR[0]-get(SplitArchive).MRR[0]))
		}
		out = append(out, marginLine(cells, rankers, half), flagLine(cells, half))
	}
	return out
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// marginLine: kessho's MRR@10 minus the best baseline's, per split.
func marginLine(cells []Cell, rankers []string, half string) string {
	line := half + " kessho − best baseline MRR@10:"
	for _, s := range splitOrder[:len(splitOrder)-1] {
		k, ok := findCell(cells, "kessho", s, half)
		if !ok {
			return line + " kessho unavailable"
		}
		best, name := -1.0, ""
		for _, r := range rankers {
			if c, ok := findCell(cells, r, s, half); ok && r != "kessho" && c.MRR[0] > best {
				best, name = c.MRR[0], r
			}
		}
		line += fmt.Sprintf(" %s %+.2f (vs %s);", s, k.MRR[0]-best, name)
	}
	return line
}

// flagLine: kessho's confident: false share on no-answer needs and on
// answerable first phrasings.
func flagLine(cells []Cell, half string) string {
	none, ok1 := findCell(cells, "kessho", SplitNone, half)
	clean, ok2 := findCell(cells, "kessho", SplitClean, half)
	if !ok1 || !ok2 || none.Unconfident < 0 || clean.Unconfident < 0 {
		return half + " kessho confidence flag: no signal (the answer has no confident field)"
	}
	return fmt.Sprintf("%s kessho confidence flag: %.0f %% of no-answer needs flagged (want ≥ 50 %%), %.0f %% of answerable first phrasings flagged (want ≤ 10 %%)",
		half, 100*none.Unconfident, 100*clean.Unconfident)
}

// WriteSplits prints the split table and the ratios, or JSON.
func WriteSplits(w io.Writer, rep SplitReport, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", " ")
		return enc.Encode(rep)
	}
	fmt.Fprintln(w, "\n== issue 29 splits (first phrasing; same/other-lang: every fr/en phrasing; typos: TypoSeed 29)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "half\tsplit\tranker\tn\tMRR@10\thit@1\thit@5\tempty\tconfident:false\t")
	ci := func(v [3]float64) string { return fmt.Sprintf("%.2f [%.2f %.2f]", v[0], v[1], v[2]) }
	for _, c := range rep.Cells {
		flag := "no signal"
		if c.Unconfident >= 0 {
			flag = fmt.Sprintf("%.0f %%", 100*c.Unconfident)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%.0f %%\t%s\t\n", c.Half, c.Split, c.Ranker, c.N,
			ci(c.MRR), ci(c.Hit1), ci(c.Hit5), 100*c.Empty, flag)
	}
	tw.Flush()
	for _, r := range rep.Ratios {
		fmt.Fprintln(w, r)
	}
	return nil
}
