package recallbench

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
)

// PhrasingScore is a ranker's aggregate on one phrasing of the
// answerable needs of one half: its hit@1, hit@5 and MRR@10 as if that
// phrasing were the first, over the needs that have it.
type PhrasingScore struct {
	N                 int
	Hit1, Hit5, MRR10 float64
}

// ScorePhrasing ranks the phrasing of 1-based index i of every
// answerable need of half with r and returns the means; needs with fewer
// phrasings are left out. It lists no need: it is the figure to tune on
// for one kind of phrasing (the third is in the other language).
func ScorePhrasing(ctx context.Context, needs []Need, r Ranker, half string, i int) (PhrasingScore, error) {
	var s PhrasingScore
	for _, n := range needs {
		if n.Split != half || n.GoldKind == "none" || len(n.Queries) < i {
			continue
		}
		hits, err := r.Rank(ctx, n, n.Queries[i-1])
		if err != nil {
			return s, fmt.Errorf("%s, need %s, phrasing %d: %w", r.Name, n.ID, i, err)
		}
		var ranking []string
		for _, h := range hits {
			ranking = append(ranking, h.Path)
		}
		one := Score([][]string{ranking}, n.Gold)
		s.N++
		s.Hit1 += one.Hit1
		s.Hit5 += one.Hit5
		s.MRR10 += one.RR10
	}
	if s.N > 0 {
		s.Hit1, s.Hit5, s.MRR10 = s.Hit1/float64(s.N), s.Hit5/float64(s.N), s.MRR10/float64(s.N)
	}
	return s, nil
}

// RunPhrasing writes every ranker's ScorePhrasing on half for phrasing i.
func (b *Bench) RunPhrasing(ctx context.Context, w io.Writer, half string, i int) error {
	fmt.Fprintf(w, "phrasing %d of the %s half's answerable needs, as if it were the first:\n", i, half)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ranker\tn\thit@1\thit@5\tMRR@10\t")
	for _, r := range b.Rankers {
		s, err := ScorePhrasing(ctx, b.Needs, r, half, i)
		if err != nil {
			return err
		}
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%.2f\t%.2f\t\n", r.Name, s.N, s.Hit1, s.Hit5, s.MRR10)
	}
	return tw.Flush()
}
