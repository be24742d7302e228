package recallbench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// NeedsFile is testdata/recall/needs.json (its README says how it was
// written, split and frozen).
type NeedsFile struct {
	Version int    `json:"version"`
	Frozen  string `json:"frozen"`
	Vault   string `json:"vault"`
	Needs   []Need `json:"needs"`
}

// Need is one thing an agent tries to remember.
type Need struct {
	ID        string   `json:"id"`
	Split     string   `json:"split"` // dev | test
	Situation string   `json:"situation"`
	Queries   []string `json:"queries"` // 1–6 reformulations, escalating
	Gold      []string `json:"gold"`    // vault-relative paths; empty for gold_kind none
	GoldKind  string   `json:"gold_kind"`
	// IncludeArchived: the gold lives in an archived project, so Kessho
	// is asked to search archived projects too.
	IncludeArchived bool `json:"include_archived,omitempty"`
}

// LoadNeeds reads a needs file, refusing unknown keys.
func LoadNeeds(file string) (*NeedsFile, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f NeedsFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return &f, nil
}

// Validate checks every need against the vault folder: an id used once,
// a split (dev or test), 1–6 non-blank phrasings, a kind, and gold paths
// that exist in the vault and are of that kind (none for "none").
func (f *NeedsFile) Validate(vault string) error {
	var errs []error
	seen := map[string]bool{}
	for i, n := range f.Needs {
		bad := func(format string, a ...any) {
			errs = append(errs, fmt.Errorf("need %d (%q): %s", i+1, n.ID, fmt.Sprintf(format, a...)))
		}
		if n.ID == "" {
			bad("no id")
		} else if seen[n.ID] {
			bad("id used twice")
		}
		seen[n.ID] = true
		if n.Split != "dev" && n.Split != "test" {
			bad("split %q: want dev or test", n.Split)
		}
		if len(n.Queries) < 1 || len(n.Queries) > 6 {
			bad("%d phrasings: want 1 to 6", len(n.Queries))
		}
		for _, q := range n.Queries {
			if strings.TrimSpace(q) == "" {
				bad("a blank phrasing")
			}
		}
		switch {
		case n.GoldKind == "none" && len(n.Gold) > 0:
			bad("gold_kind none with gold paths")
		case n.GoldKind != "none" && n.GoldKind != "archive" && n.GoldKind != "atom":
			bad("gold_kind %q: want archive, atom or none", n.GoldKind)
		case n.GoldKind != "none" && len(n.Gold) == 0:
			bad("no gold path")
		}
		for _, g := range n.Gold {
			if !filepath.IsLocal(g) || filepath.ToSlash(filepath.Clean(g)) != g {
				bad("gold %q is not a clean vault-relative path", g)
				continue
			}
			if _, err := os.Stat(filepath.Join(vault, filepath.FromSlash(g))); err != nil {
				bad("gold %q is not in the vault", g)
				continue
			}
			if k := KindOf(g); k != n.GoldKind {
				bad("gold %q is an %s, the need says %s", g, k, n.GoldKind)
			}
		}
	}
	return errors.Join(errs...)
}

// KindOf tells an archive from an atom by its place in the vault
// (SPEC section 1): "archive", "atom", or "other" (context, history…).
func KindOf(p string) string {
	switch {
	case strings.HasPrefix(p, "10-episodes/") && strings.Contains(p, "/archives/"):
		return "archive"
	case strings.HasPrefix(p, "20-knowledge/"), strings.HasPrefix(p, "40-principles/"), strings.HasPrefix(p, "50-goals/"):
		return "atom"
	}
	return "other"
}

// MaxAttempts is the attempts-to-find of a need that no phrasing found:
// one more than the six phrasings a need may have. The report also
// counts those needs apart ("not found"), so that the mean is never read
// without them.
const MaxAttempts = 7

// NeedScore is one ranker's result on one need.
type NeedScore struct {
	Hit1, Hit5 float64 // first phrasing: gold at rank 1; in the top 5
	RR10       float64 // first phrasing: 1/rank of the first gold, 0 past rank 10
	Attempts   int     // 1-based index of the first phrasing whose top 5 holds a gold; MaxAttempts when none
	EmptyFirst bool    // the first phrasing came back with no hit at all
	TopScore   float64 // the ranker's score of its first hit on the first phrasing (0 when none)
}

// FirstRank is the 1-based rank of the first gold path in ranking, 0
// when none is in it.
func FirstRank(ranking, gold []string) int {
	for i, p := range ranking {
		if slices.Contains(gold, p) {
			return i + 1
		}
	}
	return 0
}

// Score scores the rankings of a need's phrasings, in order (the first
// is the first phrasing), against its gold paths.
func Score(rankings [][]string, gold []string) NeedScore {
	var s NeedScore
	s.Attempts = MaxAttempts
	for i, r := range rankings {
		if k := FirstRank(r, gold); k > 0 && k <= 5 {
			s.Attempts = i + 1
			break
		}
	}
	if len(rankings) == 0 {
		return s
	}
	first := rankings[0]
	s.EmptyFirst = len(first) == 0
	k := FirstRank(first, gold)
	if k == 1 {
		s.Hit1 = 1
	}
	if k >= 1 && k <= 5 {
		s.Hit5 = 1
	}
	if k >= 1 && k <= 10 {
		s.RR10 = 1 / float64(k)
	}
	return s
}

// Mean is the arithmetic mean (NaN for no value).
func Mean(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, x := range v {
		sum += x
	}
	return sum / float64(len(v))
}

// Bootstrap is the percentile bootstrap 95 % confidence interval of the
// mean of v: resamples resamplings of v with replacement (the needs),
// the 2.5th and 97.5th percentiles of their means. A fixed seed makes a
// report reproducible.
func Bootstrap(v []float64, resamples int, seed uint64) (lo, hi float64) {
	if len(v) == 0 || resamples <= 0 {
		return math.NaN(), math.NaN()
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	means := make([]float64, resamples)
	for r := range means {
		sum := 0.0
		for range v {
			sum += v[rng.IntN(len(v))]
		}
		means[r] = sum / float64(len(v))
	}
	slices.Sort(means)
	at := func(q float64) float64 {
		i := int(math.Round(q * float64(resamples-1)))
		return means[i]
	}
	return at(0.025), at(0.975)
}
