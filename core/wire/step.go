package wire

import "github.com/kessho/kessho/core/plan"

// StepIn is one crossing of a host's apply or recovery (the module's
// call export, EntryStep; hostlogic.Step): the first names what to do
// (Start), each later one sends back the State the last answer gave and
// the results of the I/O it asked, in order, as far as the host ran it.
// Now, Wall and Random are what the core cannot make itself, given anew
// each crossing. After its JSON, a step of a call may carry the round's
// request (IORound): a NUL, then the round's input as hostlogic.Step
// reads it; a host may send the first round with the start when it
// listed no journal (there is nothing to roll forward before it).
type StepIn struct {
	Start   *StepStart `json:"start,omitempty"`
	State   string     `json:"state,omitempty"`
	Results []IOResult `json:"results,omitempty"`
	// Now is the host's clock (RFC 3339, to the millisecond): a sweep's
	// young test and wait, a conflict copy's name.
	Now string `json:"now"`
	// Wall is the time a new journal is stamped with (its id).
	Wall string `json:"wall"`
	// Random is hex the core draws a journal's suffix and temporary
	// names from.
	Random string `json:"random"`
}

// StepStart is what a host asks the steps to do: roll forward the
// journals Journals lists (the journal folder's names, as the host listed
// them before the first step), then run Call when it is not nil (a whole
// call: its rounds, their needs, its plan), or apply Plan when it is not
// nil.
type StepStart struct {
	// Lang is the language a refusal the steps end with is written in.
	Lang     string     `json:"lang,omitempty"`
	Call     *StepCall  `json:"call,omitempty"`
	Plan     *plan.Plan `json:"plan,omitempty"`
	Journals []string   `json:"journals"`
	// WaitMS is how long a journal another host wrote is left to it.
	WaitMS int64 `json:"wait_ms"`
	// Own holds the journals this host wrote and has not removed.
	Own []string `json:"own"`
}

// StepCall is a call run whole as steps (the plugin's one loop): the
// rounds of the core (each an IORound, its request sent with the next
// step), the needs of each answered into the host's snapshot, a search
// index's batches stored, then the plan applied; the end says what to
// print.
type StepCall struct {
	Tool string `json:"tool"`
	// MaxRounds is how many rounds with a need the call may take before
	// it is refused (a search index's batches do not count).
	MaxRounds int `json:"max_rounds"`
}

// StepOut is a step's answer: the I/O to do next, in order (IO), and
// the State to send back with their results; or the end of the apply
// (End, IO empty). Then, beside IO, is the end when every op of IO
// gives the result it names in Expect: the host then stops there,
// without another crossing.
type StepOut struct {
	IO    []IO     `json:"io,omitempty"`
	State string   `json:"state,omitempty"`
	End   *StepEnd `json:"end,omitempty"`
	Then  *StepEnd `json:"then,omitempty"`
}

// StepEnd is how the steps ended: OK (a call's answer is then the one
// the step that ran its last round handed the host), or Answer, the
// refusal as a host prints it ({"ok":false,"error":…}, in the start's
// Lang), or, in a call, Invalid: the engine's answer was none, and the
// host fails the call with that text (an error, not a refusal).
type StepEnd struct {
	OK      bool   `json:"ok,omitempty"`
	Answer  string `json:"answer,omitempty"`
	Invalid string `json:"invalid,omitempty"`
}

// The ops of IO, each one method of the host's port to the vault.
const (
	IOLook      = "look"       // Path's state: absent, folder, file, or (Hash) sha256:<hex>
	IOKind      = "kind"       // absent, file or folder
	IORead      = "read"       // the file's bytes (Data) and their hash (V)
	IOModify    = "modify"     // Text over the file at Path if it holds Expect (Hash); Text back: what it replaced
	IOCreate    = "create"     // a new file: Text, or Data's bytes
	IORemove    = "remove"     // the file at Path
	IOMove      = "move"       // Path to To
	IOMkdir     = "mkdir"      // Path and its parents; List back: the folders made
	IORmdir     = "rmdir"      // Path, when empty
	IOList      = "list"       // folder Path's files (List)
	IOUndoWay   = "undo_way"   // V: "" or the place on Path's way that is not ours, as JSON {"at","folder"}
	IOStateList = "state_list" // Kessho's folder Path: V, its names as JSON ([] when missing)
	IOStateRead = "state_read" // Kessho's file Path: Text, or V "absent"
	IOWrite     = "state_write"
	IOAppend    = "state_append"
	IOStRemove  = "state_remove"
	IORename    = "state_rename" // Path to To
	IOWait      = "wait"         // MS milliseconds
	IOOwn       = "own"          // the host wrote journal Path
	IODisown    = "disown"       // the host removed journal Path

	// A call's ops (StepCall). A round has no result: the host sends the
	// results of the ops before it, and the round's request after the
	// step's JSON (hostlogic.Step). The index ops are the host's search
	// index (docs/HOSTS.md, section 6); they never fail a call.
	IORound      = "round"          // the next request of the call, built from the host's snapshot
	IOIndexStore = "index_store"    // keep the index that followed this step's answer under id To
	IOIndexRead  = "index_read"     // a need's search (What: notes, index or stored) answered in the next request
	IOResetSnap  = "snapshot_reset" // the host's snapshot emptied: the files sent are indexed

	// A need's ops read into the host's snapshot (wire.Snapshot), which
	// stays the host's: V "had" when the snapshot holds the path already
	// (or has it missing), "absent" when nothing is there (the host puts
	// it in missing), "folder" or "file" when it is the other kind.
	IONeedFile = "need_file" // the file into Files: V "text", "not_utf8", or "too_much" past the host's bound on text (Max)
	IONeedHead = "need_head" // the file's head into Heads: V "head"
	IONeedList = "need_list" // folder Path's entries (List, "/" after a folder's): V "folder"; To, a match's key; V "raw" (foreseen for a folder's or a match's, not a tree walk's): held in Snapshot.RawDirs or RawMatches, no List
	IONeedPut  = "need_put"  // List as the entries of Dirs[Path], or of Matches[To]
)

// IO is one op of a step's I/O. Expect, when set, is the V the core
// foresaw (Or: the others it allows as well): a host that gets another
// (or an error) stops after that op. The ops without Expect, asked, come
// last: the host runs them all.
type IO struct {
	Op     string   `json:"op"`
	Path   string   `json:"path,omitempty"`
	To     string   `json:"to,omitempty"`
	Hash   string   `json:"hash,omitempty"`
	Text   *string  `json:"text,omitempty"`
	Data   []byte   `json:"data,omitempty"`
	Dir    bool     `json:"dir,omitempty"`
	MS     int      `json:"ms,omitempty"`
	List   []string `json:"list,omitempty"`
	What   string   `json:"what,omitempty"`
	Expect *string  `json:"expect,omitempty"`
	Or     []string `json:"or,omitempty"`
	// Indexed and Left, with an index_store of a build's batch, are how
	// far the index stored got (Carry's Indexed and Left): a call the
	// host stops at its deadline says it.
	Indexed int `json:"indexed,omitempty"`
	Left    int `json:"left,omitempty"`
}

// IOResult is what one op gave: V (the value compared with Expect),
// Text, Data or List (what it read), Max (a need_file's "too_much": the
// bound), or Err.
type IOResult struct {
	V    string   `json:"v,omitempty"`
	Max  int64    `json:"max,omitempty"`
	Text *string  `json:"text,omitempty"`
	Data []byte   `json:"data,omitempty"`
	List []string `json:"list,omitempty"`
	Err  *IOError `json:"err,omitempty"`
}

// IOError is an op's failure: Stale ("changed", "exists") when the
// port's last-instant check refused it, nothing changed; DiskFull on a
// full disk; Message, the error's text, always.
type IOError struct {
	Stale    string `json:"stale,omitempty"`
	Path     string `json:"path,omitempty"`
	DiskFull bool   `json:"disk_full,omitempty"`
	Message  string `json:"message"`
}
