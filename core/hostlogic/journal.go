package hostlogic

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/wire"
)

// The journal's files (journal version 2, shared by both hosts):
//
//	.kessho/journal/<id>.json      the plan on its way (Journal)
//	.kessho/journal/<id>.done      one line per op done: "0\n1\n2\n…" (Progress)
//	.kessho/journal/<id>.conflict  recovery stopped at an op (Record)
const (
	JournalDir = ".kessho/journal"
	// TempPrefix starts the name of every temporary file a host writes
	// before renaming it into place.
	TempPrefix = ".kessho-tmp-"
)

// JournalVersion is the version of the journal format hosts write. They
// read version 1 too (the same without "states").
const JournalVersion = 2

// Journal is a plan on its way to the vault.
type Journal struct {
	Version int       `json:"version"`
	ID      string    `json:"id"`
	Created string    `json:"created"`
	Plan    plan.Plan `json:"plan"`
	States  []OpState `json:"states,omitempty"`
}

// OpState is the state of an op's target before and after it lands
// (wire.OpState).
type OpState = wire.OpState

// States of a target besides "absent" and a file's hash.
const (
	StatePresent = "present"
	StateFolder  = "folder" // what a host reports for a folder (never an op's state)
)

// StateOf is op's state, by the table of the journal format: a write's
// target goes from op.Expect to the hash of its text, a delete's from
// op.Expect to absent, a check's stays op.Expect, a move's target (To)
// goes from absent to present.
func StateOf(op plan.Op) OpState {
	switch op.Op {
	case plan.Write:
		return OpState{Before: op.Expect, After: plan.HashString(*op.Text)}
	case plan.Delete:
		return OpState{Before: op.Expect, After: plan.Absent}
	case plan.Check:
		return OpState{Before: op.Expect, After: op.Expect}
	case plan.Move:
		return OpState{Before: plan.Absent, After: StatePresent}
	}
	return OpState{}
}

// StatesOf is StateOf of every op of p.
func StatesOf(p plan.Plan) []OpState {
	out := make([]OpState, len(p))
	for i, op := range p {
		out[i] = StateOf(op)
	}
	return out
}

// NewJournal returns the version 2 journal of p, created at now, with
// the id ID(now, suffix).
func NewJournal(p plan.Plan, now time.Time, suffix string) *Journal {
	return &Journal{Version: JournalVersion, ID: ID(now, suffix), Created: now.Format(time.RFC3339Nano), Plan: p, States: StatesOf(p)}
}

// ID returns a journal id that sorts by creation time: now in UTC as
// "20060102T150405.000000000Z", "-" and suffix (random hex).
func ID(now time.Time, suffix string) string {
	return now.UTC().Format("20060102T150405.000000000Z") + "-" + suffix
}

// JournalPath is the vault path of journal id.
func JournalPath(id string) string { return path.Join(JournalDir, id+".json") }

// Decode reads journal id from data: a version 1 or 2 journal that names
// itself id, holds a valid plan and (version 2) the states of that plan.
// Anything else is a BadJournal error.
func Decode(id string, data []byte) (*Journal, error) {
	bad := func(why string) error { return BadJournal(JournalPath(id), why) }
	var j Journal
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, bad("is not valid JSON (" + err.Error() + ")")
	}
	if j.Version != 1 && j.Version != JournalVersion {
		return nil, bad(fmt.Sprintf("has version %d, and this Kessho reads versions 1 and %d", j.Version, JournalVersion))
	}
	if j.ID != id {
		return nil, bad(fmt.Sprintf("names itself %q", j.ID))
	}
	if err := j.Plan.Validate(); err != nil {
		return nil, bad("holds an invalid plan (" + err.Error() + ")")
	}
	want := StatesOf(j.Plan)
	switch {
	case j.Version == 1 && j.States != nil:
		return nil, bad("has version 1 and states")
	case j.Version == 1:
		j.States = want
	case !slices.Equal(j.States, want):
		return nil, bad("holds states that do not match its plan")
	}
	return &j, nil
}

// Progress returns how many ops a progress file lists as done (its
// leading lines that read 0, 1, 2, …) and the length in bytes of those
// lines. Anything after them, such as a line torn by a crash, counts for
// nothing: the host cuts it off, and the op is checked again.
func Progress(data []byte) (done int, size int64) {
	lines := strings.Split(string(data), "\n")
	lines = lines[:len(lines)-1] // after the last newline: nothing, or a torn line
	for _, line := range lines {
		if line != strconv.Itoa(done) {
			break
		}
		done++
		size += int64(len(line)) + 1
	}
	return done, size
}

// Record is <id>.conflict: recovery stopped at op Op, whose target Path
// was changed after the plan began; Kessho's version is in Copy.
type Record struct {
	Op   int    `json:"op"`
	Path string `json:"path"`
	Copy string `json:"copy"`
}

// JSON is the record as a host writes it (Go's JSON).
func (r Record) JSON() []byte {
	b, _ := json.Marshal(r)
	return b
}

// Resume says what the conflict record of a journal whose progress lists
// done ops means for its recovery.
type Resume int

// What a conflict record means.
const (
	NoRecord Resume = iota // none: recovery resumes at done
	Stale                  // it names an op already done (a crash before its removal): remove it
	Pending                // it names op done: while Copy exists the call is refused; once gone, record the op done and remove it
)

// ReadRecord decodes j's conflict record (nil data: none) and says what
// it means when recovery resumes at op done. A record that is not valid
// JSON or does not match the journal is a BadJournal error.
func ReadRecord(j *Journal, data []byte, done int) (Record, Resume, error) {
	var r Record
	if data == nil {
		return r, NoRecord, nil
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return r, 0, BadJournal(JournalPath(j.ID), "has a conflict record that is not valid JSON ("+err.Error()+")")
	}
	if r.Op > done || r.Op < 0 || r.Op >= len(j.Plan) || r.Path != Target(j.Plan[r.Op]) || plan.CheckPath(r.Copy) != nil {
		return r, 0, BadJournal(JournalPath(j.ID), fmt.Sprintf("has a conflict record that does not match its progress (op %d, path %q, copy %q)", r.Op, r.Path, r.Copy))
	}
	if r.Op < done {
		return r, Stale, nil
	}
	return r, Pending, nil
}

// Sweep orders a recovery from the names in the journal folder: the ids
// of the journals, oldest first (ids sort by time), and the names to
// remove first: temporary files, and progress files and conflict records
// whose journal is gone.
func Sweep(names []string) (ids, remove []string) {
	names = slices.Sorted(slices.Values(names))
	jsons := map[string]bool{}
	for _, n := range names {
		if id, ok := strings.CutSuffix(n, ".json"); ok && !strings.HasPrefix(n, ".") {
			jsons[id] = true
			ids = append(ids, id)
		}
	}
	for _, n := range names {
		id, isDone := strings.CutSuffix(n, ".done")
		if !isDone {
			id, isDone = strings.CutSuffix(n, ".conflict")
		}
		if strings.HasPrefix(n, TempPrefix) || (isDone && !jsons[id]) {
			remove = append(remove, n)
		}
	}
	return ids, remove
}

// At is where an op's target stands, against the op's states.
type At int

// Where a target stands.
const (
	AtNeither At = iota
	AtBefore
	AtAfter
)

// Where tells whether op's target holds st.After, else st.Before, else
// neither, from what is at the paths Looks(op) names: state returns
// plan.Absent, StateFolder, "sha256:<hex>" for a file (or "file" where
// only its kind was asked) or "other".
//
// Recovery lands an op only at AtBefore, records it done at AtAfter (and
// a check, which writes nothing, whatever its file holds), and writes a
// conflict copy at AtNeither.
func Where(op plan.Op, st OpState, state func(x string) string) At {
	switch op.Op {
	case plan.Write, plan.Delete, plan.Check:
		switch state(op.Path) {
		case st.After:
			return AtAfter
		case st.Before:
			return AtBefore
		}
	case plan.Move:
		from, to := state(op.From), state(op.To)
		switch {
		case from == plan.Absent && to != plan.Absent:
			return AtAfter
		case from != plan.Absent && from != "other" && to == plan.Absent:
			return AtBefore
		}
	}
	return AtNeither
}

// Look is a path Where needs, and whether a file there must be hashed
// (wire.Look).
type Look = wire.Look

// Looks returns the paths Where(op, …) reads.
func Looks(op plan.Op) []Look {
	switch op.Op {
	case plan.Move:
		return []Look{{Path: op.From}, {Path: op.To}}
	}
	return []Look{{Path: op.Path, Hash: true}}
}

// Target is the path a recovery conflict names: a move's source, any
// other op's path.
func Target(op plan.Op) string {
	if op.Op == plan.Move {
		return op.From
	}
	return op.Path
}

// CopyName returns the n-th candidate name (n >= 1) of the conflict copy
// of x made at now: x's folder, x's base name without a final ".md",
// ".kessho-conflict-", the UTC time as YYYYMMDDTHHMMSSZ, and ".md"; from
// the second, "-2", "-3"… before ".md". A host takes the first that is
// free.
func CopyName(x string, now time.Time, n int) string {
	stem := strings.TrimSuffix(path.Base(x), ".md") + ".kessho-conflict-" + now.UTC().Format("20060102T150405Z")
	if dir := path.Dir(x); dir != "." {
		stem = dir + "/" + stem
	}
	if n > 1 {
		return stem + "-" + strconv.Itoa(n) + ".md"
	}
	return stem + ".md"
}

// CopyText is what the conflict copy of op (of journal id) holds: a
// write's text exactly; for a delete or move, a note saying what
// the change was.
func CopyText(id string, op plan.Op) string {
	var what string
	switch op.Op {
	case plan.Write:
		return *op.Text
	case plan.Delete:
		what = "delete " + op.Path
	default:
		what = "move " + op.From + " to " + op.To
	}
	return "Kessho's interrupted change (journal " + id + ") was to " + what +
		"; it was changed since, so it was kept as it is. Delete this note once you have decided; Kessho then goes on with the rest of that change."
}

// Stop is the refusal that ends a recovery of journal id stopped at r,
// whose op is op.
func (r Record) Stop(id string, op plan.Op) *fault.Error {
	return RecoveryConflict(r.Path, r.Copy, JournalPath(id), op.Op == plan.Write)
}

// PathState is what a path holds once a whole plan has landed.
type PathState struct {
	Path  string
	State string // plan.Absent, StatePresent or "sha256:<hex>"
}

// FinalStates returns what each path p touches holds once p has landed,
// in the order the paths were first touched (a path a move carried away
// goes last, under its new name): a write's its text's hash, a delete's
// absent, a move's source absent and its target present, the files a
// move carried under their new names. A check touches nothing.
func FinalStates(p plan.Plan) []PathState {
	var out []PathState
	set := func(x, s string) {
		for i := range out {
			if out[i].Path == x {
				out[i].State = s
				return
			}
		}
		out = append(out, PathState{x, s})
	}
	for _, op := range p {
		switch op.Op {
		case plan.Write:
			set(op.Path, plan.HashString(*op.Text))
		case plan.Delete:
			set(op.Path, plan.Absent)
		case plan.Move:
			var moved []PathState
			out = slices.DeleteFunc(out, func(f PathState) bool {
				if under(f.Path, op.From) {
					moved = append(moved, PathState{op.To + f.Path[len(op.From):], f.State})
					return true
				}
				return false
			})
			for _, f := range moved {
				set(f.Path, f.State)
			}
			set(op.From, plan.Absent)
			set(op.To, StatePresent)
		}
	}
	return out
}

// Young reports whether names (the journal folder's) hold a journal that
// another host may be applying at this instant: one created (by its id)
// less than wait before now, or after now (a clock set wrong), that is
// not one of own (the asking host's) and not stopped on a conflict. A
// host without a lock leaves such a journal to its writer for wait at
// most before it rolls it forward.
func Young(names, own []string, now time.Time, wait time.Duration) bool {
	for _, n := range names {
		id, ok := strings.CutSuffix(n, ".json")
		if !ok || strings.HasPrefix(n, ".") || slices.Contains(own, id) || slices.Contains(names, id+".conflict") || len(id) < 26 {
			continue
		}
		t, err := time.Parse("20060102T150405.000000000Z", id[:26])
		if err == nil && now.Sub(t) < wait {
			return true
		}
	}
	return false
}
