package recallbench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
)

// LangFile is testdata/recall/needs-lang.json: the language of each
// need's note ("fr", "en", "-" for no note) and of each of its phrasings
// ("fr", "en" or "mixed": technical words of neither).
type LangFile struct {
	Version int              `json:"version"`
	Written string           `json:"written"`
	Method  string           `json:"method"`
	Labels  map[string]Label `json:"labels"`
}

// Label is one need's languages.
type Label struct {
	Note    string   `json:"note"`
	Queries []string `json:"queries"`
}

// LoadLangs reads a language labels file, refusing unknown keys.
func LoadLangs(file string) (*LangFile, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f LangFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return &f, nil
}

// Answer is one ranked phrasing: the hits and, when the ranker says so,
// whether it is confident (nil: the ranker gives no signal).
type Answer struct {
	Hits      []Hit
	Confident *bool
}

// Probe is one query of one split: a need, the half, the text asked.
type Probe struct {
	Split string
	Need  Need
	Query string
}

// Split names, in the report's order.
const (
	SplitClean       = "clean"
	SplitTypoLongest = "typo-longest"
	SplitTypoEvery   = "typo-every"
	SplitSameLang    = "same-lang"
	SplitOtherLang   = "other-lang"
	SplitArchive     = "archive"
	SplitAtom        = "atom"
	SplitNone        = "no-answer"
)

// Splits lists the probes of every split. Answerable needs give their
// first phrasing to clean, to archive or atom (their kind), and its two
// typo variants (TypoSeed); every phrasing labelled fr or en goes to
// same-lang or other-lang against its note's language (mixed ones to
// neither); a need with no answer gives its first phrasing to no-answer.
func Splits(needs []Need, langs map[string]Label) []Probe {
	var out []Probe
	for _, n := range needs {
		if len(n.Queries) == 0 {
			continue
		}
		first := n.Queries[0]
		if n.GoldKind == "none" {
			out = append(out, Probe{SplitNone, n, first})
			continue
		}
		out = append(out, Probe{SplitClean, n, first}, Probe{n.GoldKind, n, first},
			Probe{SplitTypoLongest, n, TypoLongest(first, TypoSeed)},
			Probe{SplitTypoEvery, n, TypoEvery(first, TypoSeed)})
		l, ok := langs[n.ID]
		if !ok || (l.Note != "fr" && l.Note != "en") {
			continue
		}
		for i, q := range n.Queries {
			if i >= len(l.Queries) || (l.Queries[i] != "fr" && l.Queries[i] != "en") {
				continue
			}
			s := SplitOtherLang
			if l.Queries[i] == l.Note {
				s = SplitSameLang
			}
			out = append(out, Probe{s, n, q})
		}
	}
	return out
}

// ProbeScore is one ranker's answer to one probe, scored.
type ProbeScore struct {
	Probe
	RR10, Hit1, Hit5 float64
	Empty            bool
	Confident        *bool
}

func scoreProbe(p Probe, a Answer) ProbeScore {
	s := ProbeScore{Probe: p, Empty: len(a.Hits) == 0, Confident: a.Confident}
	paths := make([]string, len(a.Hits))
	for i, h := range a.Hits {
		paths[i] = h.Path
	}
	k := FirstRank(paths, p.Need.Gold)
	if k >= 1 && k <= 10 {
		s.RR10 = 1 / float64(k)
	}
	if k == 1 {
		s.Hit1 = 1
	}
	if k >= 1 && k <= 5 {
		s.Hit5 = 1
	}
	return s
}

// Asker is one ranker as the split report asks it.
type Asker struct {
	Name string
	Ask  func(ctx context.Context, n Need, q string) (Answer, error)
}

// EvaluateProbes asks every probe once per distinct (query, archived)
// pair and scores it.
func EvaluateProbes(ctx context.Context, probes []Probe, a Asker) ([]ProbeScore, error) {
	type key struct {
		q   string
		arc bool
	}
	cache := map[key]Answer{}
	out := make([]ProbeScore, 0, len(probes))
	for _, p := range probes {
		k := key{p.Query, p.Need.IncludeArchived}
		ans, ok := cache[k]
		if !ok {
			var err error
			if ans, err = a.Ask(ctx, p.Need, p.Query); err != nil {
				return nil, fmt.Errorf("%s, need %s (%s): %w", a.Name, p.Need.ID, p.Split, err)
			}
			cache[k] = ans
		}
		out = append(out, scoreProbe(p, ans))
	}
	return out, nil
}

// Cell is one ranker's figures on one split of one half.
type Cell struct {
	Ranker string     `json:"ranker"`
	Split  string     `json:"split"`
	Half   string     `json:"half"`
	N      int        `json:"n"`
	MRR    [3]float64 `json:"mrr10"` // mean, CI low, CI high
	Hit1   [3]float64 `json:"hit1"`
	Hit5   [3]float64 `json:"hit5"`
	Empty  float64    `json:"empty_share"`
	// Unconfident: share of the probes answered confident: false; -1
	// when the ranker gave no signal.
	Unconfident float64 `json:"unconfident_share"`
}

// Cells aggregates scores of one ranker by split and half.
func Cells(ranker string, scores []ProbeScore) []Cell {
	var out []Cell
	for _, half := range []string{"dev", "test"} {
		for _, split := range splitOrder {
			var sel []ProbeScore
			for _, s := range scores {
				if s.Split == split && s.Need.Split == half {
					sel = append(sel, s)
				}
			}
			if len(sel) > 0 {
				out = append(out, cellOf(ranker, split, half, sel))
			}
		}
	}
	return out
}

var splitOrder = []string{SplitClean, SplitTypoLongest, SplitTypoEvery, SplitSameLang, SplitOtherLang, SplitArchive, SplitAtom, SplitNone}

func cellOf(ranker, split, half string, sel []ProbeScore) Cell {
	c := Cell{Ranker: ranker, Split: split, Half: half, N: len(sel)}
	stat := func(f func(ProbeScore) float64) [3]float64 {
		v := make([]float64, len(sel))
		for i, s := range sel {
			v[i] = f(s)
		}
		lo, hi := Bootstrap(v, resamples, 1)
		return [3]float64{Mean(v), lo, hi}
	}
	c.MRR = stat(func(s ProbeScore) float64 { return s.RR10 })
	c.Hit1 = stat(func(s ProbeScore) float64 { return s.Hit1 })
	c.Hit5 = stat(func(s ProbeScore) float64 { return s.Hit5 })
	c.Empty = stat(func(s ProbeScore) float64 { return b2f(s.Empty) })[0]
	c.Unconfident = -1
	if !slices.ContainsFunc(sel, func(s ProbeScore) bool { return s.Confident == nil }) {
		c.Unconfident = stat(func(s ProbeScore) float64 { return b2f(!*s.Confident) })[0]
	}
	return c
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
