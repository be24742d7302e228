package wikilink

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLiveNamesAsNamesOf: LiveNames, files added and removed one at a
// time, resolves every target as NamesOf of the files left does,
// whichever file of a shared name is last by path.
func TestLiveNamesAsNamesOf(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	dirs := []string{"20-knowledge", "40-principles", "50-goals/sub"}
	stems := []string{"Retry", "retry", "Cache plan", "deploy", "Été"}
	live := NewLiveNames(nil)
	files := map[string]bool{}
	for round := range 400 {
		p := fmt.Sprintf("%s/%s.md", dirs[r.IntN(len(dirs))], stems[r.IntN(len(stems))])
		if files[p] {
			delete(files, p)
			live.Remove(p)
		} else {
			files[p] = true
			live.Add(p)
		}
		want := NamesOf(slices.Sorted(maps.Keys(files)))
		for _, d := range dirs {
			for _, s := range stems {
				for _, target := range []string{s, s + ".md", d + "/" + s, d + "/" + s + ".md"} {
					gp, gok := live.Note(target)
					wp, wok := want.Note(target)
					tp, tok := live.Taken(s)
					up, uok := want.Taken(s)
					if gp != wp || gok != wok || tp != up || tok != uok {
						t.Fatalf("round %d, %q: Note %q %v, want %q %v; Taken %q %v, want %q %v", round, target, gp, gok, wp, wok, tp, tok, up, uok)
					}
				}
			}
		}
	}
}
