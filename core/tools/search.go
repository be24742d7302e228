package tools

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/frontmatter"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/search"
	"github.com/kessho/kessho/core/vault"
)

// searchSpec is mem_search in the catalogue. Its slug is a filter, not
// the shared slugParam: optional, described in search.yaml.
var searchSpec = tool[SearchResult](catalogText("search.yaml"), search.Tool, "search query", reads, nil, []catalog.Param{
	{Name: "query", Type: catalog.String, Required: true, MinLength: intp(1), MaxLength: intp(1000)},
	{Name: "zone", Type: catalog.String, Enum: []string{"episodes", "knowledge", "principles", "goals"}},
	{Name: "slug", Type: catalog.String},
	{Name: "kind", Type: catalog.String, Enum: []string{"archive", "atom", "context", "history"}},
	{Name: "include_archived", Type: catalog.Boolean, Default: false},
	{Name: "since", Type: catalog.String},
	{Name: "until", Type: catalog.String},
	{Name: "limit", Type: catalog.Integer, Default: 10, Minimum: floatp(1), Maximum: floatp(100)},
})

// SearchHit is one note mem_search found.
type SearchHit struct {
	Path  string `json:"path"`
	Title string `json:"title"` // display, else the file's name
	Kind  string `json:"kind"`
	// Zone, Slug and Date are null when the note has none.
	Zone       *string  `json:"zone"`
	Slug       *string  `json:"slug"`
	Date       *string  `json:"date"`
	Score      float64  `json:"score"` // not a probability: compare within one answer
	Line       string   `json:"line"`
	LineNumber int      `json:"line_number"`
	Matched    []string `json:"matched"`
}

// SearchResult is mem_search's result.
type SearchResult struct {
	Hits       []SearchHit `json:"hits"`
	Total      int         `json:"total"`
	QueryTerms []string    `json:"query_terms"`
	Common
}

// searchText is search.yaml: mem_search's messages, parsed on first use.
var searchText = loadText[struct {
	NoWord, BadDate, Order, UnknownSlug, Near, None, Common, Hit fault.Msg
	Unkept, CutOne, CutMany, More                                fault.Msg
}]("search.yaml")

// searchArgs is searchTool's arguments.
type searchArgs struct {
	Query           string `json:"query"`
	Zone            string `json:"zone"`
	Slug            string `json:"slug"`
	Kind            string `json:"kind"`
	IncludeArchived bool   `json:"include_archived"`
	Since           string `json:"since"`
	Until           string `json:"until"`
	Limit           int    `json:"limit"`
}

// searchTool is mem_search: check the arguments, bring the index up to
// date with the vault (reading only the notes that changed), rank, then
// read the hits to show each one's best line.
func searchTool(env *Env, a searchArgs) (any, plan.Plan, error) {
	if err := checkSearch(a); err != nil {
		return nil, nil, err
	}
	warm.Lock()
	defer warm.Unlock()
	idx, err := upToDate(env)
	if err != nil {
		return nil, nil, err
	}
	if a.Slug != "" {
		if err := knownSlug(idx, a.Slug); err != nil {
			return nil, nil, err
		}
	}
	terms := search.Terms(a.Query)
	top, total := ranked(idx, a, terms)
	res := SearchResult{Hits: []SearchHit{}, Total: total, QueryTerms: unique(terms), Common: common()}
	var need vault.Need
	for _, h := range top {
		if h.Cut {
			need.Heads = append(need.Heads, h.Path) // its best line is in its head
		} else {
			need.Files = append(need.Files, h.Path)
		}
	}
	if err := env.View.Ask(need); err != nil {
		return nil, nil, err
	}
	for _, h := range top {
		res.Hits = append(res.Hits, searchHit(env, h, res.QueryTerms))
	}
	if len(terms) == 0 {
		res.Warnings = append(res.Warnings, env.Say(searchText().Msg.Common))
	}
	res.Warnings = append(res.Warnings, indexWarnings(env, idx)...)
	res.SummaryMD = searchSummary(env, a.Query, res.Hits)
	keepWarm(env, idx)
	return res, nil, nil
}

// cutListed is how many cut notes a warning names; the others are
// counted.
const cutListed = 3

// indexWarnings are what mem_search and mem_recall say of the index: that
// the host cannot keep it (search.Carry.Unkept), and which notes only
// the head of which is indexed (search.MaxNoteBytes), the first few by
// path and how many more.
func indexWarnings(env *Env, idx *search.Index) []string {
	var out []string
	m := searchText().Msg
	if c := env.Search; c != nil && c.Unkept != "" {
		out = append(out, env.Say(m.Unkept, c.Unkept, c.Unkept))
	}
	cut := idx.Cut()
	const mib = search.MaxNoteBytes >> 20
	switch {
	case len(cut) == 1:
		out = append(out, env.Say(m.CutOne, cut[0], mib, mib))
	case len(cut) > 1:
		names := strings.Join(cut[:min(len(cut), cutListed)], ", ")
		if len(cut) > cutListed {
			names = env.Say(m.More, names, len(cut)-cutListed)
		}
		out = append(out, env.Say(m.CutMany, len(cut), mib, mib, names))
	}
	return out
}

// checkSearch refuses a query without a word and dates that are not
// dates or out of order.
func checkSearch(a searchArgs) error {
	words := 0
	search.Words(a.Query, func(string) { words++ })
	if words == 0 {
		return argument("query", searchText().Msg.NoWord)
	}
	for _, d := range []struct{ name, v string }{{"since", a.Since}, {"until", a.Until}} {
		if _, err := time.Parse("2006-01-02", d.v); d.v != "" && err != nil {
			return argument(d.name, searchText().Msg.BadDate, d.v)
		}
	}
	if a.Since != "" && a.Until != "" && a.Since > a.Until {
		return argument("until", searchText().Msg.Order, a.Since, a.Until)
	}
	if a.Slug != "" {
		return vault.CheckSlug("slug", a.Slug)
	}
	return nil
}

// knownSlug refuses a slug filter that names no project or domain of the
// index (UNKNOWN_SLUG with the closest ones; naming mem_init_project
// when the index knows no project at all).
func knownSlug(idx *search.Index, slug string) error {
	slugs := idx.Slugs() // sorted
	if _, ok := slices.BinarySearch(slugs, slug); ok {
		return nil
	}
	near := vault.Closest(slug, slugs, 5)
	m := searchText().Msg
	var en, fr string
	switch {
	case len(near) > 0:
		en, fr = m.Near.In("en", strings.Join(near, ", ")), m.Near.In("fr", strings.Join(near, ", "))
	case len(slugs) == 0:
		en, fr = "; "+vault.NoProjectYet.En, " ; "+vault.NoProjectYet.Fr
	}
	return fault.New(fault.UnknownSlug, map[string]any{"slug": slug, "close_matches": append([]string{}, near...)},
		m.UnknownSlug.In("en", slug, en), m.UnknownSlug.In("fr", slug, fr))
}

// keeper is the filters as a test on a note: a slug filter takes the
// project's notes archived or not; otherwise archived projects are left
// out unless include_archived; since and until leave undated notes out.
func keeper(a searchArgs) func(*search.Meta) bool {
	return func(m *search.Meta) bool {
		switch {
		case a.Slug != "" && m.Slug != a.Slug,
			a.Slug == "" && m.Archived && !a.IncludeArchived,
			a.Zone != "" && m.Zone != a.Zone,
			a.Kind != "" && m.Kind != a.Kind,
			a.Since != "" && (m.Date == "" || m.Date < a.Since),
			a.Until != "" && (m.Date == "" || m.Date > a.Until):
			return false
		}
		return true
	}
}

func unique(terms []string) []string {
	out := []string{}
	for _, t := range terms {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// warm is the index of the last search, kept in the running core (the
// warm wasm instance, or the native process) so that the next search
// neither decodes nor rebuilds it. For a host that carries the index
// (search.Carry), id names the stored index it descends from and listing
// the notes' listing it is up to date with; a core fed no Carry keys notes
// by their SHA-256, which any index state may be brought up to date from.
var warm struct {
	sync.Mutex
	idx         *search.Index
	carried     bool
	id, listing string
	last        lastQuery
	// notes are the versions the host sent with listing notesListing:
	// a host sends them with one round of a call, not with the next.
	notes        map[string]string
	notesListing string
	// gone are the notes of listing notesListing the host found missing
	// when the core asked for them (removed since the listing was made):
	// the later batches of the call do not ask for them again.
	gone map[string]bool
	// stored is the id of the index last asked for alone ("stored"): a
	// round that comes without its bytes (none stored) asks for the
	// versions with them instead of again.
	stored string
	// back is what the host holds of the warm index's build: the size of
	// the index it stored last (handed back, or sent), and the note text
	// indexed since (handBack).
	back struct{ size, text int64 }
}

// lastQuery is the ranking of the last search on the warm index: the
// rounds of one call (the one that reads the hits' lines) rank once.
type lastQuery struct {
	idx     *search.Index
	listing string
	args    searchArgs
	top     []search.Hit
	total   int
}

// ranked returns the first hits and their number for a, reusing the last
// ranking when the index, brought up to date with the same listing, and
// the arguments are the same.
func ranked(idx *search.Index, a searchArgs, terms []string) ([]search.Hit, int) {
	l := &warm.last
	if warm.listing != "" && l.idx == idx && l.listing == warm.listing && l.args == a {
		return l.top, l.total
	}
	top, total := idx.Top(terms, keeper(a), a.Limit)
	warm.last = lastQuery{}
	if warm.listing != "" {
		warm.last = lastQuery{idx, warm.listing, a, top, total}
	}
	return top, total
}

// upToDate returns the index brought up to date with the vault: the warm
// one when the host's listing is the one it is up to date with, else the
// warm or the host's (a corrupt, stale or foreign one is rebuilt) brought
// up to date by reading only the notes whose version changed.
func upToDate(env *Env) (*search.Index, error) {
	c := env.Search
	carried := c != nil && (c.Listing != "" || c.Full)
	if carried && warm.carried && warm.idx != nil && c.Listing != "" && warm.listing == c.Listing {
		return warm.idx, nil // also the later rounds of the call that brought it up to date
	}
	var sent map[string]string
	if carried && !c.Full {
		sameID := warm.carried && warm.idx != nil && c.ID != "" && warm.id == c.ID
		switch {
		case sameID && warm.idx.Listing == c.Listing:
			warm.listing = c.Listing // the stored index, up to date
			return warm.idx, nil
		case sameID && warm.notesListing == c.Listing:
			sent = warm.notes // sent with an earlier round of this call
		case sameID:
			return nil, env.View.AskSearch("notes")
		case c.Listing != "" && search.IDListing(c.ID) == c.Listing:
			return storedIndex(env)
		default:
			return nil, env.View.AskSearch("index")
		}
	}
	listing, err := noteVersions(env, sent)
	if err != nil {
		return nil, err
	}
	if carried && warm.notesListing != c.Listing {
		warm.notes, warm.notesListing = listing, c.Listing
		warm.gone = map[string]bool{}
	}
	var idx *search.Index
	switch {
	case carried && warm.carried && warm.idx != nil && c.ID != "" && warm.id == c.ID:
		idx = warm.idx
	case carried:
		if idx, err = search.Decode(c.Index); err != nil {
			idx = search.New()
			idx.Changed = true
		}
		warm.id = search.ID(c.Index)
		// The first batch hands back (handBack): from then on the host's id
		// is the core's, whatever the host sent.
		warm.back.size, warm.back.text = 0, 0
	case !warm.carried && warm.idx != nil:
		idx = warm.idx
	default:
		idx = search.New()
		warm.back.size, warm.back.text = 0, 0
	}
	warm.idx, warm.carried, warm.listing = idx, carried, ""
	stale := idx.Stale(listing)
	if !carried {
		// Versions are hashes: every note was read to make them.
		if err := index(env, idx, listing, stale, nil); err != nil {
			return nil, err
		}
	} else if err := indexBatches(env, idx, listing, slices.DeleteFunc(stale, func(p string) bool { return warm.gone[p] })); err != nil {
		return nil, err
	}
	idx.Compact()
	if carried {
		warm.listing = c.Listing
		if idx.Listing != c.Listing {
			idx.Listing, idx.Changed = c.Listing, true
		}
	}
	return idx, nil
}

// storedIndex is the index the host stored when its id records the
// listing the host sends (search.IDListing): the notes did not change
// since it was built, so the core asks for the stored bytes alone
// ("stored"), without the notes' versions. Bytes that do not decode, or
// that do not record that listing themselves, are asked for again with
// the versions ("index"): freshness never rests on the id alone.
func storedIndex(env *Env) (*search.Index, error) {
	c := env.Search
	if len(c.Index) == 0 && warm.stored != c.ID {
		warm.stored = c.ID // a host that sends no bytes is asked for the versions next
		return nil, env.View.AskSearch("stored")
	}
	warm.stored = ""
	idx, err := search.Decode(c.Index)
	if err != nil || idx.Listing != c.Listing {
		return nil, env.View.AskSearch("index")
	}
	warm.idx, warm.carried, warm.id, warm.listing = idx, true, search.ID(c.Index), c.Listing
	warm.back.size, warm.back.text = 0, 0
	return idx, nil
}

// index reads the notes at paths (Ask) and brings the index up to date
// with them: one that is gone is removed, and recorded in gone when not
// nil. A note whose version says it is larger than search.MaxNoteBytes
// is asked for by its head alone (a heads need), and any text longer
// than that is indexed on its head (search.Head): the index records it
// cut (Meta.Cut).
func index(env *Env, idx *search.Index, listing map[string]string, paths []string, gone map[string]bool) error {
	var files, heads []string
	for _, p := range paths {
		if search.VersionSize(listing[p]) > search.MaxNoteBytes {
			heads = append(heads, p)
		} else {
			files = append(files, p)
		}
	}
	if err := env.View.Ask(vault.Need{Files: files, Heads: heads}); err != nil {
		return err
	}
	for _, p := range paths {
		c, cut := indexedText(env, p, search.VersionSize(listing[p]) > search.MaxNoteBytes)
		switch {
		case !c.Exists:
			idx.Remove(p)
			if gone != nil {
				gone[p] = true
			}
		case c.NotUTF8:
			idx.Put(search.ParseNote(p, listing[p], nil))
		default:
			n := search.ParseNote(p, listing[p], &c.Text)
			n.Cut = cut
			idx.Put(n)
		}
	}
	return nil
}

// indexedText is what the index reads of the note at p, answered by Ask:
// its head when head is set (or when the text read whole is longer than
// search.MaxNoteBytes), and whether that is less than the note.
func indexedText(env *Env, p string, head bool) (vault.Content, bool) {
	if head {
		c, size, _ := env.View.ReadHead(p)
		return c, size > search.MaxNoteBytes
	}
	c, _ := env.View.Read(p)
	if c.Exists && !c.NotUTF8 {
		var cut bool
		c.Text, cut = search.Head(c.Text)
		return c, cut
	}
	return c, false
}

// indexBatches indexes the stale notes (sorted) in batches of at most the
// host's Batch bytes of text, their sizes read from their versions
// ("size:mtime"): the notes of the first batch the request does not hold
// are asked for. Once a batch was indexed in this run, that need is a
// "batch" one and hands the index built so far back to the host, which
// stores it and sends the next batch alone (search.Carry): the request,
// and the instance's memory, hold one batch of text, and a call cut short
// loses one batch at most.
func indexBatches(env *Env, idx *search.Index, listing map[string]string, stale []string) error {
	bound := env.Search.Batch
	if bound <= 0 {
		bound = search.DefaultBatch
	}
	built := int64(-1) // the text of the batch indexed in this run
	for len(stale) > 0 {
		n, size := 0, int64(0)
		for n < len(stale) && (n == 0 || size+indexedSize(listing[stale[n]]) <= bound) {
			size += indexedSize(listing[stale[n]])
			n++
		}
		if err := index(env, idx, listing, stale[:n], warm.gone); err != nil {
			if built < 0 {
				return err
			}
			warm.back.text += built
			collect() // the batch's garbage, before the index is encoded
			if handBack(warm.back.size, warm.back.text, bound) {
				keepWarm(env, idx)
			}
			if env.IndexID == "" {
				env.IndexID = warm.id // nothing handed back: the host keeps what it stored
			}
			return env.View.AskSearch("batch")
		}
		built, stale = size, stale[n:]
	}
	return nil
}

// handBack reports whether a need for the next batch hands back the index
// built so far, when the host stored one of size bytes last and text
// bytes of notes were indexed since: once the text reaches that size, or
// four batches (bound). Each hand-back encodes, copies and stores the
// whole index (22 MB at 50,000 notes, where a batch is 4 MiB): handing it
// back after every batch made the bytes encoded grow with the square of
// the vault, and each buffer, a little larger than the last, stayed in the
// wasm engine's memory. So the bytes handed back are at most the text
// indexed, plus one index; and a call cut short loses at most four
// batches of work, and no more than the index's own size of text.
func handBack(size, text, bound int64) bool {
	return text >= min(size, 4*bound)
}

// indexedSize is how much of a note of version v a batch reads: its
// size, at most search.MaxNoteBytes (a longer note is read by its head).
func indexedSize(v string) int64 { return min(search.VersionSize(v), search.MaxNoteBytes) }

// noteVersions returns every note's path and version: sent, the notes the
// host sent with an earlier round, or those it sends now, else the
// vault's listing (one tree need) and each note's SHA-256 (one files
// need).
func noteVersions(env *Env, sent map[string]string) (map[string]string, error) {
	if sent != nil {
		return sent, nil
	}
	out := map[string]string{}
	if env.Search != nil && env.Search.Full {
		for p, v := range env.Search.Notes {
			if search.IsNote(p) {
				out[p] = v
			}
		}
		return out, nil
	}
	all, err := env.View.Walk(".")
	if err != nil {
		return nil, err
	}
	var notes []string
	for _, p := range all {
		if search.IsNote(p) {
			notes = append(notes, p)
		}
	}
	if err := env.View.Ask(vault.Need{Files: notes}); err != nil {
		return nil, err
	}
	for _, p := range notes {
		if c, _ := env.View.Read(p); c.Exists {
			out[p] = c.Expect
		}
	}
	return out, nil
}

// keepWarm hands a host that carries the index its new encoding and id
// when the index changed.
func keepWarm(env *Env, idx *search.Index) {
	if !warm.carried || !idx.Changed {
		return
	}
	env.IndexOut = idx.EncodeRoom(answerRoom(env.View.Need()))
	env.IndexID = search.ID(env.IndexOut)
	warm.id = env.IndexID
	warm.back.size, warm.back.text = int64(len(env.IndexOut)), 0
	idx.Changed = false
}

// answerRoom is the room an index handed back keeps after its bytes for
// the answer's JSON (search.Prepend): the files a batch need names, their
// JSON escapes, and a success's hits. A larger answer is joined by a copy.
func answerRoom(need vault.Need) int {
	room := 128 << 10
	for _, p := range need.Files {
		room += 2*len(p) + 3
	}
	return room
}

// searchHit is one hit as mem_search answers it, with its best line: the
// line holding the most query terms, a body line before a frontmatter
// one, then the first (trimmed, at most 240 characters); none (line "",
// line_number 0) when no line holds one (a match on the file's name
// alone, a file that is not UTF-8). terms are the query's, each once. A
// note the index holds cut (Meta.Cut) is read by its head: its line is
// one of what the index searched.
func searchHit(env *Env, h search.Hit, terms []string) SearchHit {
	hit := SearchHit{Path: h.Path, Title: h.Title, Kind: h.Kind, Zone: optional(h.Zone), Slug: optional(h.Slug), Date: optional(h.Date),
		Score: h.Score, Matched: h.Matched}
	c, size := hitText(env, h)
	bodyLine := h.BodyLine // the index of the body's first line
	if !sameSize(h.Key, size) {
		// Edited since the index read it: parse it again.
		bodyLine = 0
		if doc, err := frontmatter.Parse(c.Text); err == nil {
			bodyLine = strings.Count(c.Text[:doc.BodyOffset()], "\n")
		}
	}
	best := 0
	for i, line := range strings.Split(c.Text, "\n") {
		n := 0
		lt := search.Terms(line)
		for _, t := range terms {
			if slices.Contains(lt, t) {
				n += 2
			}
		}
		if n > 0 && i >= bodyLine {
			n++
		}
		if n > best {
			best, hit.LineNumber, hit.Line = n, i+1, clip(strings.TrimSpace(line), 240)
		}
	}
	return hit
}

// hitText is the text of hit h and the size of its file, answered by
// Ask: its head when the index holds it cut, else the whole file.
func hitText(env *Env, h search.Hit) (vault.Content, int64) {
	if h.Cut {
		c, size, _ := env.View.ReadHead(h.Path)
		return c, size
	}
	c, _ := env.View.Read(h.Path)
	return c, int64(len(c.Text))
}

// sameSize reports whether a note's index key (the host's "size:mtime",
// or "sha256:<hex>" when the core read the note itself, in this call or
// an earlier one with the same content) may be of a text of n bytes.
func sameSize(key string, n int64) bool {
	size, _, ok := strings.Cut(key, ":")
	return !ok || size == "sha256" || size == strconv.FormatInt(n, 10)
}

// clip cuts s to at most n characters, the last one "…" when cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// searchSummary is the hits as a numbered list for people.
func searchSummary(env *Env, query string, hits []SearchHit) string {
	if len(hits) == 0 {
		return env.Say(searchText().Msg.None, query)
	}
	var md strings.Builder
	for i, h := range hits {
		where := h.Path
		if h.LineNumber > 0 {
			where = fmt.Sprintf("%s:%d", h.Path, h.LineNumber)
		}
		line := ""
		if h.Line != "" {
			line = "\n   " + h.Line
		}
		md.WriteString(env.Say(searchText().Msg.Hit, i+1, h.Title, h.Score, where, line) + "\n")
	}
	return strings.TrimSuffix(md.String(), "\n")
}
