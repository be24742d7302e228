package recallbench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/kessho/kessho/host/call"
)

// Coverage asks mem_search for q as Rank does, and returns the answer's
// confidence signal: its coverage and whether it is confident.
func (k *Kessho) Coverage(ctx context.Context, q string, includeArchived bool) (float64, bool, error) {
	raw, err := json.Marshal(map[string]any{"query": q, "limit": Limit, "include_archived": includeArchived})
	if err != nil {
		return 0, false, err
	}
	out, err := call.Run(ctx, k.v, k.eng, "mem_search", raw, call.Options{Now: k.now, TZ: Zone, Lang: "en"})
	if err != nil {
		return 0, false, err
	}
	if !out.OK {
		return 0, false, &Refused{Answer: string(out.Answer)}
	}
	var res struct {
		Coverage  float64 `json:"coverage"`
		Confident bool    `json:"confident"`
	}
	err = json.Unmarshal(out.Result, &res)
	return res.Coverage, res.Confident, err
}

// ConfidenceReport writes, for the half of dir's needs (dev or test),
// how many no-answer needs mem_search flags not confident (the target:
// at least half) and how many answerable first phrasings (at most 10 %),
// with the coverages of each group sorted, to tune on the dev half.
func ConfidenceReport(ctx context.Context, dir, half string, w io.Writer) error {
	f, err := LoadNeeds(filepath.Join(dir, "needs.json"))
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "recall-confidence-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := CopyNotes(filepath.Join(dir, f.Vault), tmp); err != nil {
		return err
	}
	k, err := OpenKessho(tmp)
	if err != nil {
		return err
	}
	defer k.Close()
	var none, answerable []float64
	flagged := [2]int{}
	for _, n := range f.Needs {
		if n.Split != half {
			continue
		}
		cov, ok, err := k.Coverage(ctx, n.Queries[0], n.IncludeArchived)
		if err != nil {
			return err
		}
		g := 1
		if n.GoldKind == "none" {
			g = 0
			none = append(none, cov)
		} else {
			answerable = append(answerable, cov)
		}
		if !ok {
			flagged[g]++
		}
	}
	sort.Float64s(none)
	sort.Float64s(answerable)
	fmt.Fprintf(w, "confidence, %s half: no-answer flagged %d/%d; answerable first phrasings flagged %d/%d\n", half, flagged[0], len(none), flagged[1], len(answerable))
	if half == "dev" {
		fmt.Fprintf(w, "coverages, no-answer: %v\ncoverages, answerable: %v\n", none, answerable)
	}
	return nil
}
