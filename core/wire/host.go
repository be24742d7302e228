package wire

// The kinds of HostRequest: the decisions a host that cannot call
// core/hostlogic natively (the plugin) asks of the module's call export
// (EntryHost) around a call's rounds, one a request (its apply, its
// recovery and the answering of its needs are steps: StepIn). hostlogic.Handle documents each one's
// fields and answer.
const (
	KindRefuse     = "refuse"
	KindReadAnswer = "read_answer"
	KindNow        = "now"
	KindRender     = "render"
)

// HostRequest is one request of a host for a decision (hostlogic.Handle):
// its Kind and the fields that kind reads, the others left zero.
type HostRequest struct {
	Kind     string    `json:"kind"`
	Now      string    `json:"now"`
	Path     string    `json:"path"`
	Why      string    `json:"why"`
	Max      int64     `json:"max"`
	Tool     string    `json:"tool"`
	Rounds   int       `json:"rounds"`
	Error    HostError `json:"error"`
	Lang     string    `json:"lang"`
	Internal string    `json:"internal"`
	Conflict string    `json:"conflict"`
	Answer   string    `json:"answer"`
}

// HostError is a refusal as host decisions carry it, both languages kept
// (a *fault.Error on the wire): the host throws it as it is and has it
// rendered (KindRender) at the call's end.
type HostError struct {
	Code    string         `json:"code"`
	En      string         `json:"en"`
	Fr      string         `json:"fr"`
	Details map[string]any `json:"details"`
}

// OpState is the state of an op's target before and after it lands:
// "absent", "sha256:<hex>" or "present" (a move's target), as a journal
// records it.
type OpState struct {
	Before string `json:"before"`
	After  string `json:"after"`
}

// Look is a path a host decision needs the state of (its "need"), hashed
// when Hash is set.
type Look struct {
	Path string `json:"path"`
	Hash bool   `json:"hash,omitempty"`
}
