package recallbench

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
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
	dec := json.NewDecoder(strings.NewReader(string(data)))
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
			if !filepath.IsLocal(g) || path.Clean(g) != g {
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
