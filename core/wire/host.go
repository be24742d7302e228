package wire

import "github.com/kessho/kessho/core/plan"

// The kinds of HostRequest: the decisions a host that cannot call
// core/hostlogic natively (the plugin) asks of the module's call export
// (EntryHost), one a request. hostlogic.Handle documents each one's fields and
// answer.
const (
	KindCheckPlan    = "check_plan"
	KindWhere        = "where"
	KindUndoPlan     = "undo_plan"
	KindOpenJournal  = "open_journal"
	KindConflictCopy = "conflict_copy"
	KindSweep        = "sweep"
	KindNewJournal   = "new_journal"
	KindCheckNeed    = "check_need"
	KindList         = "list"
	KindFinished     = "finished"
	KindRefuse       = "refuse"
	KindReadAnswer   = "read_answer"
	KindNow          = "now"
	KindRender       = "render"
)

// HostRequest is one request of a host for a decision (hostlogic.Handle):
// its Kind and the fields that kind reads, the others left zero.
type HostRequest struct {
	Kind      string            `json:"kind"`
	Plan      plan.Plan         `json:"plan"`
	Nodes     map[string]string `json:"nodes"`
	Op        plan.Op           `json:"op"`
	State     OpState           `json:"state"`
	ID        string            `json:"id"`
	Journal   *string           `json:"journal"`
	ReadError string            `json:"read_error"`
	Done      *string           `json:"done"`
	Record    *string           `json:"record"`
	K         int               `json:"k"`
	Now       string            `json:"now"`
	N         int               `json:"n"`
	Names     []string          `json:"names"`
	Patterns  []string          `json:"patterns"`
	Path      string            `json:"path"`
	Why       string            `json:"why"`
	Max       int64             `json:"max"`
	Tool      string            `json:"tool"`
	Rounds    int               `json:"rounds"`
	WaitMS    int64             `json:"wait_ms"`
	Own       []string          `json:"own"`
	Edited    []string          `json:"edited"`
	Kept      []string          `json:"kept"`
	Suffix    string            `json:"suffix"`
	Need      Need              `json:"need"`
	Error     HostError         `json:"error"`
	Lang      string            `json:"lang"`
	Internal  string            `json:"internal"`
	Conflict  string            `json:"conflict"`
	Answer    string            `json:"answer"`
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
// records it and a where request sends it.
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
