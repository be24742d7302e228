package tools

import (
	"slices"
	"strings"
	"sync"

	"github.com/kessho/kessho/core/frontmatter"
	"github.com/kessho/kessho/core/search"
	"github.com/kessho/kessho/core/vault"
)

// What mem_search and mem_recall share: the search index, brought up to
// date with the vault and kept warm between calls in the State the caller
// gives (Env.State), and what they say of it.

// State is what the tools keep from one call to the next in one engine
// instance: the warm search index (warmIndex), and two caches of pure
// functions, the last notes' frontmatter parsed (docs) and the stems of
// words (stems), which change no answer. Whoever runs the tools holds one
// State per engine instance and puts it in every Env it makes
// (core.Core: one per engine instance); a call that uses the warm index
// holds its lock throughout, the caches have their own. An Env without
// one is given a State of its own, which keeps nothing past the call.
type State struct {
	mu    sync.Mutex
	warm  warmIndex
	docs  frontmatter.Cache
	stems search.Stems
}

// NewState returns a State that keeps nothing yet.
func NewState() *State { return &State{} }

// state is env's State, made when it has none.
func (e *Env) state() *State {
	if e.State == nil {
		e.State = NewState()
	}
	return e.State
}

// holdWarm locks env's State for the call, and returns its warm index and
// the function that unlocks it.
func (e *Env) holdWarm() (*warmIndex, func()) {
	s := e.state()
	s.mu.Lock()
	return &s.warm, s.mu.Unlock
}

// docs is the frontmatter parsed lately in env's State: the tools parse
// and edit notes through it.
func (e *Env) docs() *frontmatter.Cache { return &e.state().docs }

// stems is the stems of words in env's State: the search index and the
// query's terms stem through it.
func (e *Env) stems() *search.Stems { return &e.state().stems }

// cutListed is how many cut notes a warning names; the others are
// counted.
const cutListed = 3

// indexWarnings are what mem_search and mem_recall say of the index: that
// the host cannot keep it (search.Carry.Unkept), and which notes only
// the head of which is indexed (search.MaxNoteBytes), the first few by
// path and how many more.
func indexWarnings(env *Env, idx *search.Index) []string {
	var out []string
	m := toolsText().Msg
	if c := env.Search; c != nil && c.Unkept != "" {
		out = append(out, env.say(m.Unkept, c.Unkept, c.Unkept))
	}
	cut := idx.Cut()
	const mib = search.MaxNoteBytes >> 20
	switch {
	case len(cut) == 1:
		out = append(out, env.say(m.CutOne, cut[0], mib, mib))
	case len(cut) > 1:
		names := strings.Join(cut[:min(len(cut), cutListed)], ", ")
		if len(cut) > cutListed {
			names = env.say(m.More, names, len(cut)-cutListed)
		}
		out = append(out, env.say(m.CutMany, len(cut), mib, mib, names))
	}
	return out
}

// warmIndex is the index of the last search, kept in the engine
// instance's State (the warm wasm instance, or the native engine) so that
// the next search neither decodes nor rebuilds it. For a host that carries the index
// (search.Carry), id names the stored index it descends from and listing
// the notes' listing it is up to date with; a core fed no Carry keys notes
// by their SHA-256, which any index state may be brought up to date from.
type warmIndex struct {
	idx         *search.Index
	carried     bool
	id, listing string
	last        lastQuery
	// notes are the versions the host sent with listing notesListing:
	// a host sends them with one round of a call, not with the next.
	notes        map[string]string
	notesListing string
	// sorted is notes' paths in byte order, when the host listed them so
	// (search.Carry.Sorted; nil otherwise).
	sorted []string
	// gone are the notes of listing notesListing the host found missing
	// when the core asked for them (removed since the listing was made):
	// the later batches of the call do not ask for them again.
	gone map[string]bool
	// pending are the stale notes (sorted) a batch need left unread, for
	// index pendingIdx and listing notesListing: the next round of the
	// build starts from them instead of comparing every listed note with
	// the index again (at 100,000 notes, a round's Stale and its sort
	// were more than a third of a first build's core time).
	pending    []string
	pendingIdx *search.Index
	// stored is the id of the index last asked for alone ("stored"): a
	// round that comes without its bytes (none stored) asks for the
	// versions with them instead of again.
	stored string
	// back is what the host holds of the warm index's build: the size of
	// the index it stored last (handed back, or sent), and the note text
	// indexed since (handBack).
	back struct{ size, text int64 }
	// uncollected is the note text a build indexed since the core last
	// collected its heap (collect): it collects every two batches, and
	// before a hand-back. A collection marks the whole index (some 0.2 s
	// at 100,000 notes on wasm); once a batch, it was a fifth of a build.
	uncollected int64
}

// lastQuery is the ranking of the last search on the warm index: the
// rounds of one call (the one that reads the hits' lines) rank once.
type lastQuery struct {
	idx     *search.Index
	listing string
	args    any // the tool's arguments (comparable)
	top     []search.Hit
	total   int
	rank    *search.Ranking
}

// upToDate returns the index brought up to date with the vault: the warm
// one when the host's listing is the one it is up to date with, else the
// warm or the host's (a corrupt, stale or foreign one is rebuilt) brought
// up to date by reading only the notes whose version changed.
func (warm *warmIndex) upToDate(env *Env) (*search.Index, error) {
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
		case sameID && c.Since != "" && warm.listing == c.Since && changesFit(c):
			return warm.applyChanges(env)
		case sameID:
			return nil, env.View.AskSearch("notes")
		case c.ID == "" && warm.carried && warm.idx != nil && warm.id == "" && warm.notesListing == c.Listing:
			sent = warm.notes // a first build's rounds before its first hand-back
		case c.Listing != "" && search.IDListing(c.ID) == c.Listing:
			return warm.storedIndex(env)
		default:
			return nil, env.View.AskSearch("index")
		}
	}
	listing, sorted := sent, warm.sorted // sent with an earlier round, and its order
	if sent == nil {
		var err error
		if listing, sorted, err = noteVersions(env); err != nil {
			return nil, err
		}
	}
	if carried && warm.notesListing != c.Listing {
		warm.notes, warm.notesListing, warm.sorted = listing, c.Listing, sorted
		warm.gone = map[string]bool{}
	}
	idx := warm.base(c, carried)
	idx.UseStems(env.stems())
	stale := warm.stale(idx, listing, sorted, sent != nil)
	warm.idx, warm.carried, warm.listing = idx, carried, ""
	if !carried {
		// Versions are hashes: every note was read to make them.
		if err := index(env, idx, listing, stale, nil); err != nil {
			return nil, err
		}
	} else if err := warm.indexBatches(env, idx, listing, slices.DeleteFunc(stale, func(p string) bool { return warm.gone[p] })); err != nil {
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

// stale is the notes of listing idx must read (search.Index.StaleSorted,
// sorted its paths in order when known): the ones the last batch need
// left (pending), when that need was of idx and, sameListing, of this
// listing, else every listed note compared again.
func (warm *warmIndex) stale(idx *search.Index, listing map[string]string, sorted []string, sameListing bool) []string {
	stale := warm.pending // the same index and listing as the round that left them
	if !sameListing || warm.pendingIdx != idx {
		stale = idx.StaleSorted(listing, sorted)
	}
	warm.pending, warm.pendingIdx = nil, nil
	return stale
}

// base is the index upToDate brings up to date: the warm one when it is
// the host's (its id) or when neither carries one, else the host's (a
// new one when it does not decode), or a new one.
func (warm *warmIndex) base(c *search.Carry, carried bool) *search.Index {
	var idx *search.Index
	switch {
	case carried && warm.carried && warm.idx != nil && warm.id == c.ID && (c.ID != "" || !c.Full):
		idx = warm.idx
	case carried:
		var err error
		if idx, err = search.Decode(c.Index); err != nil {
			idx = search.New()
			idx.Changed = true
		}
		warm.id = search.ID(c.Index)
		c.Index = nil // decoded (a copy): the request's bytes can be collected
		// The first batch hands back (handBack): from then on the host's id
		// is the core's, whatever the host sent.
		warm.back.size, warm.back.text = 0, 0
	case !warm.carried && warm.idx != nil:
		idx = warm.idx
	default:
		idx = search.New()
		warm.back.size, warm.back.text = 0, 0
	}
	return idx
}

// storedIndex is the index the host stored when its id records the
// listing the host sends (search.IDListing): the notes did not change
// since it was built, so the core asks for the stored bytes alone
// ("stored"), without the notes' versions. Bytes that do not decode, or
// that do not record that listing themselves, are asked for again with
// the versions ("index"): freshness never rests on the id alone.
func (warm *warmIndex) storedIndex(env *Env) (*search.Index, error) {
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
	c.Index = nil // decoded (a copy): the request's bytes can be collected
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

// indexBatches indexes the stale notes (sorted) in batches: first those
// the request holds (the batch the host read, whatever bound it read it
// by), then the next ones, up to the host's Batch bytes of text, their
// sizes read from their versions ("size:mtime"), which are asked for.
// Once a batch was indexed in this run, that need is a "batch" one and
// may hand the index built so far back to the host (handBack, or the
// host's Hand), which stores it and sends the next batch alone
// (search.Carry): the request, and the instance's memory, hold one batch
// of text, and a call cut short loses what was indexed since the last
// hand-back. The host may change Batch from one round to the next (the
// Go host sizes batches by the time they take).
func (warm *warmIndex) indexBatches(env *Env, idx *search.Index, listing map[string]string, stale []string) error {
	bound := env.Search.Batch
	if bound <= 0 {
		bound = search.DefaultBatch
	}
	built := int64(-1) // the text indexed in this run
	for len(stale) > 0 {
		n, size := heldBatch(env.View, listing, stale)
		if n == 0 {
			n, size = nextBatch(listing, stale, bound)
		}
		if err := index(env, idx, listing, stale[:n], warm.gone); err != nil {
			if built < 0 {
				return err
			}
			return warm.askBatch(env, idx, listing, built, bound, stale)
		}
		built, stale = max(built, 0)+size, stale[n:]
	}
	return nil
}

// heldBatch is how many of the stale notes, from the first, the request
// holds (their text, or that they are gone), and their text's size.
func heldBatch(v *vault.View, listing map[string]string, stale []string) (n int, size int64) {
	for n < len(stale) && v.Holds(stale[n], search.VersionSize(listing[stale[n]]) > search.MaxNoteBytes) {
		size += indexedSize(listing[stale[n]])
		n++
	}
	return n, size
}

// nextBatch is how many of the stale notes, from the first, the next
// batch reads: as many as bound bytes of text hold, one at least.
func nextBatch(listing map[string]string, stale []string, bound int64) (n int, size int64) {
	for n < len(stale) && (n == 0 || size+indexedSize(listing[stale[n]]) <= bound) {
		size += indexedSize(listing[stale[n]])
		n++
	}
	return n, size
}

// askBatch is the need for the next batch once built bytes of text were
// indexed in this run and the stale notes are still to read (kept, for
// the next round of the build: pending): the index built
// so far handed back when handBack says so or the host asks (Hand), and
// how far the build got (Env.IndexIndexed, Env.IndexLeft).
func (warm *warmIndex) askBatch(env *Env, idx *search.Index, listing map[string]string, built, bound int64, stale []string) error {
	left := len(stale)
	warm.back.text += built
	warm.uncollected += built
	hand := env.Search.Hand || handBack(warm.back.size, warm.back.text, bound, env.Search.Paced)
	if hand || warm.uncollected >= 2*bound {
		collect() // the batches' garbage, before the index is encoded
		warm.uncollected = 0
	}
	if hand {
		warm.keepWarm(env, idx)
	}
	if env.IndexID == "" {
		env.IndexID = warm.id // nothing handed back: the host keeps what it stored
	}
	env.IndexIndexed, env.IndexLeft = max(len(listing)-left, 0), left
	warm.pending, warm.pendingIdx = stale, idx
	return env.View.AskSearch("batch")
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
// batches of work, and no more than the index's own size of text. A host
// that paces the build by its clock (search.Carry.Paced: it asks with
// Hand as its deadline draws near, and every half of it) is handed the
// index, after its run's first batch, once the text reaches both: at
// 100,000 notes on wasm each whole hand-back of 30 to 45 MB cost a call
// some tenths of a second, and a crash loses no more than the larger.
func handBack(size, text, bound int64, paced bool) bool {
	if paced && size > 0 { // a run's first batch hands back all the same
		return text >= max(size, 4*bound)
	}
	return text >= min(size, 4*bound)
}

// indexedSize is how much of a note of version v a batch reads: its
// size, at most search.MaxNoteBytes (a longer note is read by its head).
func indexedSize(v string) int64 { return min(search.VersionSize(v), search.MaxNoteBytes) }

// noteVersions returns every note's path and version, and those paths
// in byte order when known (nil otherwise): those the host sends now (the
// listing itself when it lists notes alone, as hosts do), else the
// vault's listing (one tree need) and each note's SHA-256 (one files
// need).
func noteVersions(env *Env) (map[string]string, []string, error) {
	if c := env.Search; c != nil && c.Full {
		listing, sorted := onlyNotes(c.Notes, c.Sorted)
		return listing, sorted, nil
	}
	all, err := env.View.Walk(".")
	if err != nil {
		return nil, nil, err
	}
	var notes []string
	for _, p := range all {
		if search.IsNote(p) {
			notes = append(notes, p)
		}
	}
	if err := env.View.Ask(vault.Need{Files: notes}); err != nil {
		return nil, nil, err
	}
	out := map[string]string{}
	for _, p := range notes {
		if c, _ := env.View.Read(p); c.Exists {
			out[p] = c.Expect
		}
	}
	return out, nil, nil
}

// onlyNotes is the listing a host sent (sorted, its paths in order or
// nil) without what is not a note (search.IsNote): the listing itself
// when it holds notes alone, where a copy cost a tenth of a second at
// 100,000 notes on wasm.
func onlyNotes(listing map[string]string, sorted []string) (map[string]string, []string) {
	all := true
	for p := range listing {
		if !search.IsNote(p) {
			all = false
			break
		}
	}
	if all {
		return listing, sorted
	}
	out := map[string]string{}
	for p, v := range listing {
		if search.IsNote(p) {
			out[p] = v
		}
	}
	if sorted != nil {
		sorted = slices.DeleteFunc(slices.Clone(sorted), func(p string) bool { return !search.IsNote(p) })
	}
	return out, sorted
}

// changesFit reports whether the host's changes since its last listing
// (search.Carry.Changes) fit one batch of text: they are read in one
// round; more are asked for as a build's batches are.
func changesFit(c *search.Carry) bool {
	bound := c.Batch
	if bound <= 0 {
		bound = search.DefaultBatch
	}
	size := int64(0)
	for _, v := range c.Changes {
		size += indexedSize(v)
	}
	return size <= bound
}

// applyChanges brings the warm index, up to date with the host's
// listing Since, up to date with its listing from the changes the host
// made since (search.Carry.Changes): the notes gone are removed, those
// whose version the index lacks are read. It reads what changed and
// nothing else, and every round of the call may run it again (a note
// removed or put twice is one change), until the index is up to date.
func (warm *warmIndex) applyChanges(env *Env) (*search.Index, error) {
	c, idx := env.Search, warm.idx
	var stale []string
	for p, v := range c.Changes {
		switch key, ok := idx.Key(p); {
		case !search.IsNote(p):
		case v == "":
			idx.Remove(p)
		case !ok || key != v:
			stale = append(stale, p)
		}
	}
	slices.Sort(stale)
	if err := index(env, idx, c.Changes, stale, nil); err != nil {
		return nil, err
	}
	idx.Compact()
	warm.listing = c.Listing
	if idx.Listing != c.Listing {
		idx.Listing, idx.Changed = c.Listing, true
	}
	return idx, nil
}

// keepWarm hands a host that carries the index, when the index changed,
// what it stores of it (search.Index.Hand: the delta alone, for a host
// that keeps segments, when little changed) and its id.
func (warm *warmIndex) keepWarm(env *Env, idx *search.Index) {
	if !warm.carried || !idx.Changed {
		return
	}
	var whole int64
	env.IndexOut, whole = idx.Hand(answerRoom(env.View.Need()), env.Search != nil && env.Search.Segments)
	env.IndexID = search.ID(env.IndexOut)
	warm.id = env.IndexID
	warm.back.size, warm.back.text = whole, 0
	idx.Changed = false
}

// settle ends a successful call on idx: a core that the host keeps
// (search.Carry.Keep) holds a few changes in memory (search.KeepBound)
// when the host stores an index (its id), any other hands the index back
// when it changed (keepWarm). A host that stores none (a first build) is
// always handed one.
func (warm *warmIndex) settle(env *Env, idx *search.Index) {
	if c := env.Search; warm.carried && c != nil && c.Keep && c.ID != "" && idx.Unhanded() <= search.KeepBound {
		return
	}
	warm.keepWarm(env, idx)
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
