package wire

// Carry is the index as it travels beside a request and its answer
// (Request.Search, Answer.Search), for a host that keeps it.
//
// With a mem_search or mem_recall request (search.Carries) the host sends
// Listing, a digest of every note's path and version (its "size:mtime"),
// and ID, the id of the index it stored last. When the running core's
// index is already up to date with that listing, nothing more travels.
// When the ID records that very listing (search.IDListing: the notes did not
// change since the stored index was built), the core needs "search":
// "stored", and the host sends again with Index alone, the stored bytes
// after the JSON, no versions. Otherwise the core needs "search":
// "notes" (its index descends from the stored one: the same ID) or
// "index", and the host sends again with Full set, Notes (every note's
// path and version, dot-folders left out) and, for "index", Index, the
// stored bytes, after the request's JSON (Join), with that one round
// only: the core keeps them for the call's later rounds. The core then
// reads only the notes whose version changed, and a success whose index
// changed answers Index and ID, which the host stores.
//
// The notes to read are asked for in batches of at most Batch bytes of
// note text (their sizes read from their versions; search.DefaultBatch when 0;
// a note larger than that is a batch alone). Once the first batch is
// indexed, each need for the next one holds "search": "batch" and comes
// with an ID: with the index built so far after the JSON, as a success
// carries it, after the first batch and then every few once the index is
// large (core/tools.handBack), or alone, naming the index the host stored
// last. The host stores the bytes if any, forgets the files it sent (they
// are indexed), and sends the next request with what the need names
// alone. A call cut short (its deadline, a crash, the instance lost)
// loses at most what was indexed since the last hand-back: the next one
// resumes from the stored index. See docs/HOSTS.md, section 6.
//
// A host that sends no Carry loses nothing but speed: the core reads the
// whole vault and keys notes by their SHA-256.
type Carry struct {
	Listing string            `json:"listing,omitempty"`
	ID      string            `json:"id,omitempty"`
	Full    bool              `json:"full,omitempty"`
	Notes   map[string]string `json:"notes,omitempty"`
	// Sorted is Notes' paths in byte order when the request listed them
	// so (DecodeRequest sets it, nil otherwise; hosts list them sorted):
	// a first build takes its notes in that order without sorting them, a
	// third of a second at 100,000 notes on wasm.
	Sorted []string `json:"-"`
	// Batch bounds the note text one round asks for, in bytes (0:
	// search.DefaultBatch). Tests lower it to build a small vault in batches.
	Batch int64 `json:"batch,omitempty"`
	// Unkept names the place that keeps the host from storing the index
	// (a .kessho/index that is a symbolic link or not a folder): the
	// search still answers, its index rebuilt each time, and says so.
	Unkept string `json:"unkept,omitempty"`
	// Segments says that the host stores the index as a base and a delta
	// (search.Index.Hand): a success or a batch need whose index changed
	// little then hands back the delta alone (it starts "KSHD"), which the
	// host stores beside the base it keeps, and the host sends them
	// joined, the base first. A host that does not set it is handed the
	// whole index every time.
	Segments bool `json:"segments,omitempty"`
	// Since and Changes are what the host knows changed since it sent
	// listing Since (its own writes: their plans): each note's new
	// version, or "" for a note gone. A core whose index is up to date
	// with Since brings it up to date with Listing from them alone,
	// without every note's version; any other asks for them (a need
	// "notes" or "index") as before.
	Since   string            `json:"since,omitempty"`
	Changes map[string]string `json:"changes,omitempty"`
	// Hand asks the core to hand back the index built so far with this
	// round's need for the next batch, however little it indexed since it
	// last did: the host's clock says that its deadline draws near, and a
	// call cut short then loses nothing it indexed before this round. The
	// core, which has no clock, hands back by size alone otherwise.
	Hand bool `json:"hand,omitempty"`
	// Paced says that the host asks for the hand-backs of a build by its
	// clock (Hand, as its deadline draws near and every half of it): the
	// core then hands the index back by size only once the text indexed
	// since reaches both the index's size and four batches, not the
	// smaller (core/tools.handBack): at 100,000 notes on wasm each
	// whole-index hand-back cost a call some tenths of a second. A host
	// without a deadline leaves it unset.
	Paced bool `json:"paced,omitempty"`
	// Keep says that the host keeps this core between its calls (a
	// running MCP server, not a one-shot command): a success whose index
	// holds few changes the host did not store (search.KeepBound) keeps
	// them in the core's memory and hands nothing back, so that the call
	// right after a write does not encode and store a delta for each.
	// Nothing depends on the stored index being that fresh: a host that
	// loses the core (a process that ends, a wasm instance dropped) sends
	// the index it stored, and the notes changed since are read again, as
	// after any outside edit.
	Keep bool `json:"keep,omitempty"`
	// Indexed and Left come with a need for the next batch: the notes the
	// index built so far holds up to date, and those still to read. A
	// host that stores the index the need hands back keeps them, and a
	// call stopped at its deadline says how far the stored index got.
	Indexed int `json:"indexed,omitempty"`
	Left    int `json:"left,omitempty"`
	// Index travels after the JSON, not in it (Join, Split): 5 MB of
	// base64 at 10,000 notes cost more than the whole search.
	Index []byte `json:"-"`
}

// Clone is c as a core reads it from its JSON (Clone of Request): its
// maps copied, nil when empty, and no index (it travels after the JSON)
// nor Sorted (a native core sorts: some 40 ms at 100,000 notes).
func (c Carry) Clone() Carry {
	c.Notes, c.Changes, c.Index, c.Sorted = cloneMap(c.Notes), cloneMap(c.Changes), nil, nil
	return c
}
