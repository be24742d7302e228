package call

import (
	"context"
	"slices"
	"time"

	"github.com/kessho/kessho/core/search"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/core/wire"
)

// Indexer is a Vault that keeps mem_search's index (*vaultfs.Vault is
// one). Run sends the core, with a search or a recall (search.Carries),
// the digest of the notes' versions and the stored index's id
// (search.Carry), answers its "search" need with the versions and, when
// asked, the stored bytes (alone, for "stored"), and stores the index the
// core answers back. A Vault that is not one loses nothing but
// speed: the core reads the notes itself.
type Indexer interface {
	SearchNotes(ctx context.Context) (notes map[string]string, listing string, ok bool)
	IndexID() string
	// LoadIndex appends the stored index to into (into when none, or
	// when it is larger than bound: search.IndexBound of the notes).
	LoadIndex(into []byte, bound int64) []byte
	StoreIndex(data []byte, id string) error
	// IndexUnkept names the place that keeps the index from being stored
	// ("" when it can be): sent as search.Carry.Unkept.
	IndexUnkept() string
}

// Segmenter is an Indexer that stores the index as a base and a delta
// (search.Index.Hand) and knows what its own writes changed since the
// listing it gave last (*vaultfs.Vault is one): Run says so to the core
// (search.Carry.Segments), and sends those changes (Since, Changes), with
// which a core up to date with that listing needs no note's version.
type Segmenter interface {
	Indexer
	// NoteChanges returns the listing SearchNotes gave before the one it
	// gave last, and every note's version that changed between them
	// ("" for a note gone); ok is false when it does not know them all
	// (a walk came between).
	NoteChanges() (since string, changes map[string]string, ok bool)
}

// searchCarry is what a call keeps of the index for the core.
type searchCarry struct {
	ix    Indexer
	notes map[string]string
	carry *search.Carry
	// withIndex: the next request carries the stored index.
	withIndex bool
	// pace sizes a build's batches and its hand-backs by the call's
	// clock; kept is how far the index this call stored got (nil: it
	// stored none).
	pace *pace
	kept *Progress
}

// Progress is how far a search index's build got: the notes the stored
// index holds up to date, and those still to read (search.Carry's
// Indexed and Left). A call stopped at its deadline says it
// (Outcome.Error's details "indexed" and "left").
type Progress struct{ Indexed, Left int }

// newCarry starts the Carry of a mem_search or mem_recall call
// (search.Carries) on a vault that keeps an index; for any other call (or
// vault) it carries nothing.
func newCarry(ctx context.Context, v any, tool string, opts Options, p *pace) *searchCarry {
	ix, ok := v.(Indexer)
	if !ok || !search.Carries(tool) {
		return &searchCarry{}
	}
	notes, listing, ok := ix.SearchNotes(ctx)
	if !ok {
		return &searchCarry{}
	}
	c := &search.Carry{Listing: listing, ID: ix.IndexID(), Batch: opts.IndexBatch, Unkept: ix.IndexUnkept(), Keep: opts.KeepIndex, Paced: p.span > 0}
	if sg, ok := ix.(Segmenter); ok {
		c.Segments = true
		if since, changes, ok := sg.NoteChanges(); ok && since != listing {
			c.Since, c.Changes = since, changes
		}
	}
	return &searchCarry{ix: ix, notes: notes, carry: c, pace: p}
}

// changed is the need for the notes the host's own writes changed since
// the listing it sent last (search.Carry.Changes), read with the first
// request: a core up to date with that listing reads them to bring its
// index up to date, and would otherwise ask for them in a round of its
// own. A note larger than search.MaxNoteBytes is left for the core to
// ask for by its head.
func (s *searchCarry) changed() vault.Need {
	var need vault.Need
	if s.carry == nil {
		return need
	}
	for p, v := range s.carry.Changes {
		if v != "" && search.IsNote(p) && search.VersionSize(v) <= search.MaxNoteBytes {
			need.Files = append(need.Files, p)
		}
	}
	slices.Sort(need.Files)
	return need
}

// batch reports whether a need is one for the next batch of the index
// ("search": "batch"), and stores the index built so far that comes with
// it (index: the bytes after its NUL), its id sent from now on: a call cut
// short after it resumes from there. A batch need without bytes hands
// nothing back (the core hands its index back every few batches once it
// is large): what is stored stays.
func (s *searchCarry) batch(ans wire.Answer, index []byte) bool {
	if s.carry == nil || ans.Need.Search != "batch" || ans.Search == nil {
		return false
	}
	stored := len(index) > 0 && s.ix.StoreIndex(index, ans.Search.ID) == nil // a cache: see store
	if stored {
		s.kept = &Progress{Indexed: ans.Search.Indexed, Left: ans.Search.Left}
	}
	s.carry.ID = ans.Search.ID
	asked := int64(0)
	for _, p := range ans.Need.Files {
		asked += min(search.VersionSize(s.notes[p]), search.MaxNoteBytes)
	}
	s.carry.Batch, s.carry.Hand = s.pace.next(asked, stored)
	return true
}

// pace sizes a first build's batches by the time they take, and asks the
// core to hand its index back (search.Carry.Hand) often enough that a
// call cut at its deadline loses little: the core has no clock, the host
// has. Each batch is sized to take an eighth of the call's deadline, by
// the time a byte of note text took in the last round that handed
// nothing back (the host's reads, the core's indexing: rate); a round
// that handed an index back measures what that cost beyond its text
// (hand). The index is handed back once half the deadline passed since
// it was last stored (or since the call started), besides the core's own
// cadence by size, and after the first batch of every call; and at the
// last batch that can land before the deadline with a hand-back after it
// (last): that batch is sized to end, with its hand-back, before the
// deadline. A call cut at its deadline loses at most the one batch
// after it. Until a batch was timed, batches are firstBatch; with no
// deadline, the largest.
type pace struct {
	now  func() time.Time
	span time.Duration // the call's deadline from its start; 0: none
	max  int64         // the largest batch
	// stored is when the index was last stored (or the call started);
	// asked when the last batch need came (zero before the first), and
	// bytes the note text it asked for.
	stored, asked time.Time
	bytes         int64
	// start is when the call started; firstTook how long its first
	// round took (up to the first batch need: the listing and the stored
	// index decoded, a batch indexed).
	start     time.Time
	firstTook time.Duration
	// rate is the time a byte of note text took (0: none timed), hand
	// the time the last round that stored an index took beyond its text
	// at that rate (0: none measured).
	rate float64
	hand time.Duration
	// lastTaken is whether the last batch was asked (last): once a call.
	lastTaken bool
}

const (
	// firstBatch is the batch of a call until one was timed, when the
	// largest is larger: 256 KiB, a few hundredths of a second natively,
	// a few tenths in wasm on an idle machine, and about 180 notes of a
	// benchmark vault, so that the index handed back after it is a delta
	// (search.Index.Hand) once the vault has some 25,000 notes.
	firstBatch = 256 << 10
	// minBatch is the smallest batch sized by time.
	minBatch = 64 << 10
	// batchShare and handShare are the shares of the deadline a batch
	// aims at and the most time between two hand-backs (each of which may
	// encode and store the whole index: 45 MB at 100,000 notes).
	batchShare, handShare = 8, 2
)

// newPace is the pace of a call whose deadline is span from now (0:
// none), its largest batch max (0: search.DefaultBatch).
func newPace(now func() time.Time, span time.Duration, max int64) *pace {
	if max <= 0 {
		max = search.DefaultBatch
	}
	t := now()
	return &pace{now: now, span: span, max: max, stored: t, start: t}
}

// first is the first request's Batch.
func (p *pace) first() int64 { return min(p.max, firstBatch) }

// next records a batch need asking for bytes of note text (stored: the
// index it handed back is stored), and returns the next request's Batch
// and Hand.
func (p *pace) next(bytes int64, stored bool) (batch int64, hand bool) {
	t := p.now()
	p.measure(t, stored)
	if stored {
		p.stored = t
	}
	switch {
	case p.span <= 0:
		batch = p.max
	case p.asked.IsZero():
		batch = p.first() // none measured yet
	case p.rate <= 0:
		batch = p.max // no time passed (a clock that moves when told)
	default:
		batch = p.clamp(float64(p.span/batchShare) / p.rate)
	}
	p.asked, p.bytes = t, bytes
	if p.span <= 0 {
		return batch, false
	}
	if last, ok := p.last(t, batch); ok {
		p.lastTaken = true
		return last, true
	}
	return batch, t.Sub(p.stored) >= p.span/handShare
}

// measure times the round that ended at t (stored: it handed an index
// back), from the need before it: its rate, when it stored nothing or
// none was timed yet, and else its hand-back's cost.
func (p *pace) measure(t time.Time, stored bool) {
	took := t.Sub(p.asked)
	switch {
	case p.asked.IsZero():
		p.firstTook = t.Sub(p.start)
	case took <= 0 || p.bytes <= 0:
	case !stored || p.rate <= 0:
		p.rate = float64(took) / float64(p.bytes)
	default:
		p.hand = max(took-time.Duration(p.rate*float64(p.bytes)), 0)
	}
}

// clamp is a batch of about n bytes, between minBatch and the largest.
func (p *pace) clamp(n float64) int64 {
	return int64(max(min(n, float64(p.max)), float64(min(minBatch, p.max))))
}

// last reports whether the batch asked at t is the last that can land
// before the deadline with a hand-back after it: after it, another batch
// of that size and a hand-back would not; it is then sized (at most
// batch) to end with its hand-back before the deadline. A round is
// taken to last a quarter longer than the rate says, a hand-back half
// again as long as the last one measured, and at least half the call's
// first round (which decoded the stored index and the notes' versions; a
// hand-back encodes the index alone, and both grow with it) and a
// hundredth of the deadline: the last one measured may be the first
// batch's, a delta of a few notes, where the last is the whole index (at
// 100,000 notes on wasm, a call that took the one for the other lost all
// but its first batch). ok
// is false, too, when no batch was timed, or when none of minBatch can
// land (the batch is then lost to the deadline whatever it asks).
func (p *pace) last(t time.Time, batch int64) (int64, bool) {
	if p.rate <= 0 || p.lastTaken {
		return batch, false
	}
	hand := max(p.hand*3/2, p.firstTook/2, p.span/100)
	perByte := p.rate * 5 / 4
	round := time.Duration(perByte * float64(batch))
	left := p.start.Add(p.span).Sub(t) - hand
	fit := min(batch, int64(float64(left)/perByte))
	if left >= 2*round || fit < min(minBatch, batch) {
		return batch, false
	}
	return fit, true
}

// answer answers a need's "search": the notes' versions ("notes"), them
// and the stored bytes ("index"), or the stored bytes alone ("stored":
// the stored index was built from the very listing sent).
func (s *searchCarry) answer(need vault.Need) {
	if s.carry == nil {
		return
	}
	switch need.Search {
	case "notes", "index":
		// A build may follow: its batches small until one is timed (the
		// first request's Batch, the largest, also bounds the host's own
		// changes read in one round: search.Carry.Changes).
		s.carry.Full, s.carry.Notes, s.carry.Batch = true, s.notes, s.pace.first()
	case "stored":
	default:
		return
	}
	s.withIndex = need.Search != "notes"
}

// request is the request's JSON (wire.EncodeCompacted: req.Args are
// compacted once a call, by rounds.request) followed by the index the
// core asked for, if any (wire.Join). The versions and the index go
// with the one round that answers the core's "search" need: the core
// keeps them for the call's later rounds (the same listing and id name
// them), and asks again if it lost them.
func (s *searchCarry) request(req *wire.Request) []byte {
	if s.carry == nil {
		return wire.EncodeCompacted(req, nil)
	}
	notes := s.carry.Notes
	s.carry.Notes = nil
	reqJSON := wire.EncodeCompacted(req, notes)
	out := reqJSON
	if s.withIndex {
		// wire.Join, the index read straight after the separator.
		if joined := s.ix.LoadIndex(append(reqJSON, wire.Sep), search.IndexBound(s.notes)); len(joined) > len(reqJSON)+1 {
			out = joined
		}
	}
	s.carry.Full, s.withIndex = false, false
	return out
}

// value is the request request would send, as a value (DirectPinner):
// what request's JSON decodes to (wire.Request.Clone), the search
// carry a copy holding this round's notes and the stored index when the
// core asked for it. Like request, it sends the notes' versions and the
// index once.
func (s *searchCarry) value(req *wire.Request) wire.Request {
	out := req.Clone()
	if s.carry == nil {
		return out
	}
	c := s.carry.Clone()
	s.carry.Notes = nil
	if s.withIndex {
		if index := s.ix.LoadIndex(nil, search.IndexBound(s.notes)); len(index) > 0 {
			c.Index = index
		}
	}
	s.carry.Full, s.withIndex = false, false
	out.Search = &c
	return out
}

// store stores the index a successful answer carries (index: the bytes
// after its NUL, under the id in ans.Search), and returns raw
// without it (Outcome.Raw: the index holds the notes' mtimes, which differ
// from one run to the next, while the rest of the answer may not). A
// failure to store it is no failure of the call: the index is a cache,
// and the next search rebuilds what it lacks.
func (s *searchCarry) store(ans wire.Answer, index, raw []byte) []byte {
	if ans.Search == nil {
		return raw
	}
	if s.ix != nil && len(index) > 0 {
		_ = s.ix.StoreIndex(index, ans.Search.ID)
	}
	ans.Search = nil
	if b, err := wire.EncodeAnswer(ans); err == nil {
		return b
	}
	return raw
}
