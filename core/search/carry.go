package search

// Tool is the name of the tool that searches: hosts that keep an index
// send it a Carry.
const Tool = "mem_search"

// Carry is the index as it travels beside a request and its answer
// (core.Request.Search, core.Answer.Search), for a host that keeps it.
//
// With a mem_search request the host sends Listing, a digest of every
// note's path and version (its "size:mtime"), and ID, the id of the index
// it stored last. When the running core's index is already up to date with
// that listing, nothing more travels. Otherwise the core needs "search":
// "notes" (its index descends from the stored one: the same ID) or
// "index", and the host sends again with Full set, Notes (every note's
// path and version, dot-folders left out) and, for "index", Index, the
// stored bytes. The core
// then reads only the notes whose version changed, and a success whose
// index changed answers Index and ID, which the host stores.
//
// A host that sends no Carry loses nothing but speed: the core reads the
// whole vault and keys notes by their SHA-256.
type Carry struct {
	Listing string            `json:"listing,omitempty"`
	ID      string            `json:"id,omitempty"`
	Full    bool              `json:"full,omitempty"`
	Notes   map[string]string `json:"notes,omitempty"`
	Index   []byte            `json:"index,omitempty"`
}
