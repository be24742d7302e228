package search

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/kessho/kessho/core/fold"
	"github.com/kessho/kessho/core/wire"
)

func strp(s string) *string { return &s }

// build indexes notes (path → text), each with key "k:"+text's length.
func build(notes map[string]string) *Index {
	x := New()
	for p, t := range notes {
		x.Put(ParseNote(p, key(t), strp(t)))
	}
	return x
}

func key(t string) string { return fmt.Sprintf("k:%d:%x", len(t), []byte(t)[:min(len(t), 8)]) }

func all(*Meta) bool { return true }

// search ranks the live notes that keep accepts for the query's terms: Top
// without a limit.
func (x *Index) search(query []string, keep func(*Meta) bool) []Hit {
	hits, _ := x.Top(query, keep, math.MaxInt)
	return hits
}

func paths(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Path)
	}
	return out
}

func TestFoldAccentsAndForms(t *testing.T) {
	x := build(map[string]string{
		"20-knowledge/Vacances.md": "On part en été à la Côte.",
		"20-knowledge/Other.md":    "Nothing here.",
	})
	for _, q := range []string{"ete", "été", norm.NFD.String("été"), "ÉTÉ", "cote"} {
		if got := paths(x.search(Terms(q), all)); !reflect.DeepEqual(got, []string{"20-knowledge/Vacances.md"}) {
			t.Errorf("query %q (% x): got %v", q, q, got)
		}
	}
}

func TestStemmingBothLanguages(t *testing.T) {
	x := build(map[string]string{
		"20-knowledge/a.md": "La décision a été prise.",
		"20-knowledge/b.md": "We kept running the migrations.",
	})
	cases := map[string]string{"decisions": "20-knowledge/a.md", "décidées": "", "migration": "20-knowledge/b.md", "run": "20-knowledge/b.md"}
	for q, want := range cases {
		got := paths(x.search(Terms(q), all))
		if want == "" {
			continue
		}
		if len(got) == 0 || got[0] != want {
			t.Errorf("query %q: got %v, want %s first", q, got, want)
		}
	}
}

func TestStopwordsDropped(t *testing.T) {
	if got := Terms("the of les des et and"); len(got) != 0 {
		t.Errorf("stopwords kept: %v", got)
	}
	if got := Terms("L'archive d'été"); !reflect.DeepEqual(got, []string{stem("archive"), stem("ete")}) {
		t.Errorf("elisions: %v", got)
	}
}

func TestORSentenceQuery(t *testing.T) {
	x := build(map[string]string{"20-knowledge/Webhooks.md": "Stripe webhooks are retried with backoff."})
	got := x.search(Terms("what did we decide about the webhooks last month?"), all)
	if len(got) != 1 {
		t.Fatalf("a sentence with one matching word found %v", paths(got))
	}
}

func TestDesignationOutranksBody(t *testing.T) {
	notes := map[string]string{
		"20-knowledge/Payment retry storm.md": "---\naliases:\n  - card declines\n  - dunning loop\n---\nShort.",
	}
	for i := range 20 {
		notes[fmt.Sprintf("20-knowledge/body%02d.md", i)] = "payment retry payment retry storm storm storm payment retry storm"
	}
	notes["20-knowledge/alias.md"] = "---\naliases: [card declines, dunning loop]\n---\nnothing"
	x := build(notes)
	for q, want := range map[string]string{
		"payment retry storm": "20-knowledge/Payment retry storm.md",
		"retry storm":         "20-knowledge/Payment retry storm.md",
		"Dunning loop":        "20-knowledge/Payment retry storm.md",
	} {
		hits := x.search(Terms(q), all)
		if hits[0].Path != want && !(q == "Dunning loop" && hits[0].Path == "20-knowledge/alias.md") {
			t.Errorf("%q: top %v", q, paths(hits)[:3])
		}
		for _, h := range hits {
			if h.Path != "20-knowledge/Payment retry storm.md" && h.Path != "20-knowledge/alias.md" && h.Score >= hits[0].Score {
				t.Errorf("%q: body note %s scores %v ≥ designation's %v", q, h.Path, h.Score, hits[0].Score)
			}
		}
	}
}

func TestAliasesNotFused(t *testing.T) {
	x := build(map[string]string{"20-knowledge/n.md": "---\naliases: [payment retry, storm window]\n---\n"})
	d := x.docs[0]
	seq := []uint32{x.dict[stem("retry")], x.dict[stem("storm")]}
	if tier(d.phrases, seq) != 0 {
		t.Errorf("the last word of one alias and the first of the next make a phrase: %v", d.phrases)
	}
	if tier(d.phrases, []uint32{x.dict[stem("storm")], x.dict[stem("window")]}) != 2 {
		t.Errorf("an alias equal to the query is not tier 2")
	}
}

func TestNotesWithoutOrWithBadFrontmatter(t *testing.T) {
	x := New()
	x.Put(ParseNote("00-inbox/plain.md", "1", strp("just a body about zebras")))
	x.Put(ParseNote("00-inbox/bad.md", "2", strp("---\nsubject: [unclosed\n---\nzebras again")))
	x.Put(ParseNote("00-inbox/zebras latin.md", "3", nil))
	got := paths(x.search(Terms("zebras"), all))
	if len(got) != 3 {
		t.Errorf("got %v", got)
	}
}

func TestClassify(t *testing.T) {
	for p, want := range map[string]Meta{
		"10-episodes/projects/a/archives/2026-11-27-17h40-a-x.md": {Kind: "archive", Zone: "episodes", Slug: "a"},
		"10-episodes/archived/b/context.md":                       {Kind: "context", Zone: "episodes", Slug: "b", Archived: true},
		"10-episodes/domains/c/history.md":                        {Kind: "history", Zone: "episodes", Slug: "c"},
		"40-principles/P.md":                                      {Kind: "atom", Zone: "principles"},
		"00-inbox/x.md":                                           {Kind: "note", Zone: "inbox"},
		"README.md":                                               {Kind: "note"},
	} {
		got := classify(p)
		want.Path = p
		if got != want {
			t.Errorf("%s: %+v, want %+v", p, got, want)
		}
	}
	if IsNote(".obsidian/x.md") || IsNote("a/.trash/x.md") || IsNote("a/x.txt") || !IsNote("a/x.md") {
		t.Error("IsNote")
	}
}

func corpus(n int) map[string]string {
	words := []string{"archive", "décision", "webhook", "retry", "été", "migration", "schema", "cache", "budget", "review", "index", "alias"}
	out := map[string]string{}
	for i := range n {
		out[fmt.Sprintf("20-knowledge/note %03d.md", i)] = fmt.Sprintf("---\nsubject: %s %s\naliases: [%s]\ndate: 2026-01-%02d\n---\n%s and %s with %s\nline two %s\n",
			words[i%12], words[(i/12)%12], words[(i+5)%12], 1+i%28, words[(i*7)%12], words[(i*3)%12], words[i%5], words[(i+1)%12])
	}
	return out
}

func results(x *Index, q string) string {
	var b bytes.Buffer
	for _, h := range x.search(Terms(q), all) {
		fmt.Fprintf(&b, "%s %v %v|", h.Path, h.Score, h.Matched)
	}
	return b.String()
}

func TestIncrementalEqualsFresh(t *testing.T) {
	notes := corpus(120)
	x := build(notes)
	// change one, remove one, add one, then many removals to force compaction
	notes["20-knowledge/note 005.md"] = "brand new text about budget cache"
	delete(notes, "20-knowledge/note 006.md")
	notes["20-knowledge/added.md"] = "---\nsubject: webhook retry\n---\nextra"
	for i := 40; i < 80; i++ {
		delete(notes, fmt.Sprintf("20-knowledge/note %03d.md", i))
	}
	listing := map[string]string{}
	for p, tx := range notes {
		listing[p] = key(tx)
	}
	sorted := slices.Sorted(maps.Keys(listing))
	inOrder := build(corpus(120)).StaleSorted(listing, sorted) // taken in the listing's order, not sorted again
	stale := x.Stale(listing)
	if !reflect.DeepEqual(stale, []string{"20-knowledge/added.md", "20-knowledge/note 005.md"}) {
		t.Fatalf("stale = %v", stale)
	}
	if !reflect.DeepEqual(inOrder, stale) {
		t.Fatalf("StaleSorted = %v; Stale %v", inOrder, stale)
	}
	for _, p := range stale {
		x.Put(ParseNote(p, listing[p], strp(notes[p])))
	}
	fresh := build(notes)
	for _, q := range []string{"webhook retry", "budget", "décision été", "cache schema review"} {
		if a, b := results(x, q), results(fresh, q); a != b {
			t.Errorf("%q: incremental\n%s\nfresh\n%s", q, a, b)
		}
	}
	x.Compact()
	if len(x.docs) != x.live {
		t.Fatalf("compaction left %d docs for %d live", len(x.docs), x.live)
	}
	y, err := Decode(x.EncodeRoom(0))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"webhook retry", "budget", "décision été", "alias"} {
		want := results(fresh, q)
		if a := results(x, q); a != want {
			t.Errorf("%q after compaction:\n%s\nwant\n%s", q, a, want)
		}
		if a := results(y, q); a != want {
			t.Errorf("%q after decode:\n%s\nwant\n%s", q, a, want)
		}
	}
	// a decoded index takes updates without corrupting its neighbours
	y.Put(ParseNote("20-knowledge/z.md", "z", strp("webhook webhook archive")))
	fresh.Put(ParseNote("20-knowledge/z.md", "z", strp("webhook webhook archive")))
	if a, b := results(y, "webhook archive alias"), results(fresh, "webhook archive alias"); a != b {
		t.Errorf("put after decode:\n%s\nwant\n%s", a, b)
	}
}

func TestCorruptIndexRefused(t *testing.T) {
	x := build(corpus(30))
	data := x.EncodeRoom(0)
	if _, err := Decode(data); err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(data); n++ {
		if _, err := Decode(data[:n]); err == nil {
			t.Fatalf("truncated to %d bytes: decoded", n)
		}
	}
	for i := 0; i < len(data); i++ {
		for bit := range 8 {
			d := bytes.Clone(data)
			d[i] ^= 1 << bit
			if _, err := Decode(d); err == nil {
				t.Fatalf("bit %d of byte %d flipped: decoded", bit, i)
			}
		}
	}
	for _, foreign := range [][]byte{nil, []byte("{}"), []byte("KSHI\x02\x01xxxxxxxx")} {
		if _, err := Decode(foreign); err == nil {
			t.Errorf("%q decoded", foreign)
		}
	}
}

// TestWordsFoldsAsTheWholeText: folding ASCII in place and the rest by
// TestWordsFoldAsTheWholeText checks that Words cuts text where folding
// the whole text would: each word, folded, is the run of letters and
// digits fold.Fold(text) gives at its place.
func TestWordsFoldAsTheWholeText(t *testing.T) {
	parts := []string{"a", "Z", "9", " ", ".", "'", "é", "E\u0301", "\u0301", "ß", "Œuvre", "日本", "-", "\n", "ı", "ﬁ", "Ⅻ", "x\u0308"}
	r := rand.New(rand.NewPCG(3, 4))
	runs := func(s string, out *[]string) {
		start := -1
		for i, c := range s + " " {
			word := unicode.IsLetter(c) || unicode.IsDigit(c)
			switch {
			case word && start < 0:
				start = i
			case !word && start >= 0:
				*out = append(*out, s[start:i])
				start = -1
			}
		}
	}
	for range 5000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		s := b.String()
		var got, want []string
		Words(s, func(w string) { runs(fold.Fold(w), &got) })
		runs(fold.Fold(s), &want)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: %q, want %q", s, got, want)
		}
	}
}

// TestAccentsBeforeFolding checks the two analyses that folding first got
// wrong: a word that folds to a stopword of the other language is kept
// (`thèse`, not `these`), and the French stemmer reads the accents, so
// that a past participle meets its noun (`sauvegardée`, `sauvegarde`).
func TestAccentsBeforeFolding(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"sauvegardée", "sauvegarde"}, {"sauvegardées", "Sauvegarder"}, {"fermées", "fermé"},
		{"déployée", "déploiement"}, {"créée", "créer"}, {"Été", "e\u0301te\u0301"}, {"décisions", "Décision"}, {"decisions", "décision"},
	} {
		if ta, tb := Terms(c.a), Terms(c.b); len(ta) != 1 || !reflect.DeepEqual(ta, tb) {
			t.Errorf("%q gives %q and %q gives %q: want one same term", c.a, ta, c.b, tb)
		}
	}
	if got := Terms("thèse THÈSE the\u0300se"); len(got) != 3 || got[0] != got[1] || got[1] != got[2] {
		t.Errorf("thèse: %q, want three times its term", got)
	}
	for _, q := range []string{"these", "même", "meme", "où", "très", "à"} {
		if got := Terms(q); len(got) != 0 {
			t.Errorf("%q is a stopword, got %q", q, got)
		}
	}
}

// TestTopIsTheSortedPrefix checks that Top's partial ordering gives the
// first hits of the whole ranking, and the whole count, for every limit.
func TestTopIsTheSortedPrefix(t *testing.T) {
	x := New()
	for _, n := range benchNotes(300) {
		x.Put(n)
	}
	q := Terms(x.terms[3] + " " + x.terms[40] + " " + x.terms[7])
	all := x.search(q, func(*Meta) bool { return true })
	if len(all) < 20 {
		t.Fatalf("only %d hits", len(all))
	}
	for _, k := range []int{1, 2, 5, 10, len(all) - 1, len(all), len(all) + 3} {
		top, total := x.Top(q, func(*Meta) bool { return true }, k)
		if total != len(all) || !reflect.DeepEqual(top, all[:min(k, len(all))]) {
			t.Errorf("limit %d: total %d of %d, prefix equal %v", k, total, len(all), reflect.DeepEqual(top, all[:min(k, len(all))]))
		}
	}
}

// TestLinksKeptAndListingRecorded: the index keeps the wikilinks of the
// principles and goals (keys, each once, frontmatter included, code left
// out) and of no other note, and they survive Encode/Decode; the listing
// it is up to date with is encoded and named by its ID, and any change
// to the index forgets it.
func TestLinksKeptAndListingRecorded(t *testing.T) {
	text := "---\nsource: \"[[Alpha-Session]]\"\n---\nSee [[alpha]], [[10-episodes/projects/Alpha/context.md|ctx]] and [[ALPHA]].\n\n`[[in code]]`\n"
	x := New()
	x.Put(ParseNote("40-principles/p.md", "1:1", &text))
	x.Put(ParseNote("20-knowledge/k.md", "1:1", &text))
	x.Listing = "L1"
	data := x.EncodeRoom(0)
	if got := IDListing(ID(data)); got != "L1" {
		t.Fatalf("the id %q records listing %q, want L1", ID(data), got)
	}
	y, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if y.Listing != "L1" {
		t.Errorf("decoded listing %q", y.Listing)
	}
	got := map[string][]string{}
	y.Links(func(p string, keys []string) { got[p] = keys })
	want := map[string][]string{"40-principles/p.md": {"10-episodes/projects/alpha/context", "alpha", "alpha-session"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("links %v, want %v", got, want)
	}
	y.Remove("20-knowledge/k.md")
	if y.Listing != "" || IDListing(ID(y.EncodeRoom(0))) != "" {
		t.Errorf("a changed index still claims listing %q", y.Listing)
	}
}

// TestEncodeSizedExactly checks that an encoding's buffer is exactly its
// size plus the room asked for (no estimate, no growth: in the wasm
// engine every byte allocated stays its memory), that the room does not
// change the bytes, and that wire.Prepend puts a JSON text before them in that
// same buffer, as Join would, or joins by a copy when the room is short.
func TestEncodeSizedExactly(t *testing.T) {
	x := build(corpus(40))
	x.Put(ParseNote("40-principles/p.md", "p", strp("---\ndisplay: Keep [[alpha]]\naliases: [a b, c]\n---\nsee [[beta]] and [[alpha]]\n")))
	x.Listing = "abc"
	data := x.EncodeRoom(0)
	if len(data) != cap(data) {
		t.Fatalf("encoded %d bytes in a buffer of %d", len(data), cap(data))
	}
	text := []byte(`{"need":{"files":["a.md"]}}`)
	want := wire.Join(text, data)
	roomy := x.EncodeRoom(len(text) + 1)
	if !bytes.Equal(roomy, data) || cap(roomy) != len(data)+len(text)+1 {
		t.Fatalf("with room: %d bytes in %d, same bytes %v", len(roomy), cap(roomy), bytes.Equal(roomy, data))
	}
	out := wire.Prepend(text, roomy)
	if !bytes.Equal(out, want) || &out[0] != &roomy[:1][0] {
		t.Fatalf("Prepend with room: same bytes %v, same buffer %v", bytes.Equal(out, want), &out[0] == &roomy[:1][0])
	}
	short := x.EncodeRoom(len(text))
	if out := wire.Prepend(text, short); !bytes.Equal(out, want) || !bytes.Equal(short, data) {
		t.Fatalf("Prepend without room: same bytes %v, index kept %v", bytes.Equal(out, want), bytes.Equal(short, data))
	}
	if y, err := Decode(data); err != nil || results(y, "webhook alias") != results(x, "webhook alias") {
		t.Fatalf("decoded: %v", err)
	}
}
