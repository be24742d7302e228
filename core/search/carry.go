package search

// Tool is the name of the tool that searches: hosts that keep an index
// send it a Carry.
const Tool = "mem_search"

// Carry is the index as it travels beside a request and its answer
// (core.Request.Search, core.Answer.Search). A host that keeps an index
// sends, with a mem_search request, Notes — every note's path (dot-folders
// left out) and its version, e.g. "size:mtime" — and the index it stored
// last (absent when none); the core reads only the notes whose version
// changed, and answers the updated index in the answer's Carry (Index
// only, absent when unchanged), which the host stores. A host that sends
// no Carry loses nothing but speed: the core then reads the whole vault.
type Carry struct {
	Index []byte            `json:"index,omitempty"`
	Notes map[string]string `json:"notes,omitempty"`
}
