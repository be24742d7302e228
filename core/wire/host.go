package wire

// OpState is the state of an op's target before and after it lands:
// "absent", "sha256:<hex>" or "present" (a move's target), as a journal
// records it.
type OpState struct {
	Before string `json:"before"`
	After  string `json:"after"`
}

// Look is a path a decision of the core needs the state of (a plan's
// check, an undo's), hashed when Hash is set.
type Look struct {
	Path string `json:"path"`
	Hash bool   `json:"hash,omitempty"`
}
