package recallbench

import (
	"path/filepath"
	"strings"
	"testing"
)

// The frozen needs file is valid: every gold path exists in the vault
// and is of the need's kind, 1–6 phrasings, a split label, unique ids.
func TestNeedsFile(t *testing.T) {
	f, err := LoadNeeds(filepath.Join(benchDir, "needs.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Validate(filepath.Join(benchDir, "vault")); err != nil {
		t.Fatal(err)
	}
	halves := map[string]int{}
	for _, n := range f.Needs {
		halves[n.Split]++
	}
	if halves["dev"] < 50 || halves["test"] < 50 {
		t.Errorf("halves %v: want at least 50 needs in each", halves)
	}
}

func TestValidateRefuses(t *testing.T) {
	vault := filepath.Join(benchDir, "vault")
	ok := Need{ID: "a", Split: "dev", Queries: []string{"q"}, GoldKind: "atom",
		Gold: []string{"20-knowledge/restic forget needs prune to free space.md"}}
	if err := (&NeedsFile{Needs: []Need{ok}}).Validate(vault); err != nil {
		t.Fatalf("a valid need refused: %v", err)
	}
	bad := map[string]func(n *Need){
		"missing gold":        func(n *Need) { n.Gold = []string{"20-knowledge/nowhere.md"} },
		"no phrasing":         func(n *Need) { n.Queries = nil },
		"seven phrasings":     func(n *Need) { n.Queries = strings.Fields("a b c d e f g") },
		"blank phrasing":      func(n *Need) { n.Queries = []string{" "} },
		"no split":            func(n *Need) { n.Split = "" },
		"odd split":           func(n *Need) { n.Split = "train" },
		"kind mismatch":       func(n *Need) { n.GoldKind = "archive" },
		"none with a gold":    func(n *Need) { n.GoldKind = "none" },
		"answerable, no gold": func(n *Need) { n.Gold = nil },
		"no id":               func(n *Need) { n.ID = "" },
		"escaping path":       func(n *Need) { n.Gold = []string{"../recall/needs.json"} },
	}
	for name, spoil := range bad {
		n := ok
		spoil(&n)
		if err := (&NeedsFile{Needs: []Need{n}}).Validate(vault); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := (&NeedsFile{Needs: []Need{ok, ok}}).Validate(vault); err == nil {
		t.Error("two needs with one id: accepted")
	}
}
