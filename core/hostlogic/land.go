package hostlogic

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/wire"
)

// recoverOne rolls journal id forward once it is opened (openJournal):
// the progress rewritten when it differs from what the journal allows, a
// stale or resolved record removed, temporary files left by a crash
// removed, then the ops left landed.
func (m *machine) recoverOne(id string) error {
	// The journal, its progress and its record, read together.
	var reads []wire.IO
	for _, ext := range []string{"json", "done", "conflict"} {
		reads = append(reads, wire.IO{Op: wire.IOStateRead, Path: jfile(id, ext)})
	}
	rs, err := m.all(reads, func(int) *string { return nil })
	var readError string
	switch {
	case len(rs) == 0:
		readError = err.Error()
	case rs[0].V == plan.Absent:
		return nil // finished by someone else since the listing
	case err != nil:
		return err
	}
	text, done, record := textOf(rs, 0), textOf(rs, 1), textOf(rs, 2)
	o, err := m.openJournal(id, text, readError, done, record)
	if err != nil {
		return err
	}
	if done == nil {
		done = foresee("")
	}
	if *done != o.done {
		if _, err := m.try(wire.IO{Op: wire.IOWrite, Path: jfile(id, "done"), Text: &o.done}, succeeds()); err != nil {
			return err
		}
	}
	if o.dropRecord {
		if err := m.stRemove(jfile(id, "conflict")); err != nil {
			return err
		}
	}
	if err := m.removeTemps(o.tempDirs); err != nil {
		return err
	}
	return m.runJournal(&live{ID: o.j.ID, Plan: o.j.Plan, States: o.j.States}, o.from, true)
}

// textOf is the text the i-th of rs read, nil when it read none (the file
// is missing, or rs stopped before it).
func textOf(rs []wire.IOResult, i int) *string {
	switch {
	case i >= len(rs) || rs[i].V == plan.Absent:
		return nil
	case rs[i].Text == nil:
		return foresee("")
	}
	return rs[i].Text
}

// opened is a journal as openJournal reads it.
type opened struct {
	j          *Journal
	from       int
	done       string
	dropRecord bool
	tempDirs   []string
}

// openJournal decodes journal id, its progress and its conflict record.
// A pending record (op from) refuses the call while its copy exists; once
// a person deleted it, their version wins for that op: it is recorded
// done and the record dropped, as is a stale one.
func (m *machine) openJournal(id string, text *string, readError string, done, record *string) (opened, error) {
	if readError != "" {
		return opened{}, BadJournal(JournalPath(id), "cannot be read ("+readError+")")
	}
	j, err := Decode(id, []byte(*text))
	if err != nil {
		return opened{}, err
	}
	var n int
	if done != nil {
		n, _ = Progress([]byte(*done))
	}
	if n > len(j.Plan) {
		return opened{}, BadJournal(JournalPath(id), fmt.Sprintf("lists %d ops done out of %d", n, len(j.Plan)))
	}
	var data []byte
	if record != nil {
		data = []byte(*record)
	}
	rec, resume, err := ReadRecord(j, data, n)
	if err != nil {
		return opened{}, err
	}
	from := n
	if resume == Pending {
		s, err := m.look(Look{Path: rec.Copy}, nil)
		if err != nil {
			return opened{}, err
		}
		if s != plan.Absent {
			return opened{}, rec.Stop(j.ID, j.Plan[rec.Op])
		}
		from++
	}
	return opened{j: j, from: from, done: doneText(from), dropRecord: resume != NoRecord, tempDirs: TempDirs(j.Plan[n:])}, nil
}

// removeTemps removes the temporary files a Go host may have left in dirs.
func (m *machine) removeTemps(dirs []string) error {
	for _, dir := range dirs {
		if dir != "." {
			if k, err := m.kind(dir, foresee(StateFolder)); err != nil || k != StateFolder {
				if err != nil {
					return err
				}
				continue
			}
		}
		r, err := m.try(wire.IO{Op: wire.IOList, Path: dir}, nil)
		if err != nil {
			return err
		}
		for _, n := range r.List {
			if strings.HasPrefix(n, TempPrefix) {
				if err := m.stRemove(path.Join(dir, n)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// kind is what is at p: "absent", "file" or "folder".
func (m *machine) kind(p string, expect *string) (string, error) {
	r, err := m.try(wire.IO{Op: wire.IOKind, Path: p}, expect)
	return r.V, err
}

// runJournal lands j's ops from op from on, recording each done, then
// removes the journal. Live (not rec), a target changed meanwhile undoes
// the landed ops (stop). In a recovery Where says if an op is done or to
// land; neither, or a failed re-check, keeps the user's file and writes
// Kessho's version beside it (keepTheirs). An I/O error leaves the
// journal for the next call (failed).
func (m *machine) runJournal(j *live, from int, rec bool) error {
	var landed []landing
	for k := from; k < len(j.Plan); k++ {
		at, err := m.landOne(j, k, rec, &landed)
		if err != nil {
			s := staleOf(err)
			if s == nil {
				return m.failed(j, k, err, !rec)
			}
			if !rec {
				return m.stop(j, s, landed)
			}
		} else if at != AtNeither {
			continue
		}
		return m.keepTheirs(j, k)
	}
	return m.removeJournal(j.ID)
}

// landOne lands op k of j where it is to land, and records it done.
func (m *machine) landOne(j *live, k int, rec bool, landed *[]landing) (At, error) {
	op := j.Plan[k]
	at := AtBefore
	if rec && op.Op == plan.Check {
		at = AtAfter
	} else if rec {
		seen, err := m.looks(Looks(op), func(l Look) (*string, []string) { return foreseeBefore(op, j.States[k], l), nil })
		if err != nil {
			return at, err
		}
		at = Where(op, j.States[k], func(x string) string { return seen[x] })
	}
	if at == AtBefore && op.Path != "" {
		// a link planted since, or before a recovery
		if err := m.undoSafe(op.Path, false); err != nil {
			return at, err
		}
	}
	if at == AtBefore {
		l, err := m.land(op)
		if err != nil {
			return at, err
		}
		*landed = append(*landed, l)
	}
	if at != AtNeither {
		return at, m.markDone(j.ID, k)
	}
	return at, nil
}

// foreseeBefore is what l most likely finds in a recovery: op's
// before-state (the ops a crash left are mostly those not landed yet).
func foreseeBefore(op plan.Op, st OpState, l Look) *string {
	switch {
	case op.Op != plan.Move:
		return foresee(st.Before)
	case l.Path == op.From:
		return foresee("file")
	}
	return foresee(plan.Absent)
}

// landing is what undoing a landed op needs: the text a write replaced,
// or the bytes a delete removed, and the folders made for it.
type landing struct {
	prior string
	bytes []byte
	made  []string
}

// land re-checks op's target against its before-state as close to the
// change as the host's port allows, and makes the change (a stale
// failure, nothing changed, when it does not hold).
func (m *machine) land(op plan.Op) (landing, error) {
	p := op.Path
	switch op.Op {
	case plan.Write:
		if op.Expect == plan.Absent {
			if k, err := m.kind(p, foresee(plan.Absent)); err != nil || k != plan.Absent {
				return landing{}, orStale(err, "exists", p)
			}
			made, err := m.createIn(p, op.Text, nil)
			return landing{made: made}, err
		}
		if k, err := m.kind(p, foresee("file")); err != nil || k != "file" {
			return landing{}, orStale(err, "changed", p)
		}
		prior, err := m.modify(p, op.Expect, *op.Text)
		return landing{prior: prior}, err
	case plan.Move:
		return m.move(op)
	}
	if op.Expect == plan.Absent {
		if k, err := m.kind(p, foresee(plan.Absent)); err != nil || k != plan.Absent {
			return landing{}, orStale(err, "exists", p) // a check of absence
		}
		return landing{}, nil
	}
	k, err := m.kind(p, foresee("file"))
	if err != nil {
		return landing{}, err
	}
	var r wire.IOResult
	if k == "file" {
		if r, err = m.try(wire.IO{Op: wire.IORead, Path: p}, foresee(op.Expect)); err != nil {
			return landing{}, err
		}
	}
	if k != "file" || r.V != op.Expect {
		return landing{}, stale("changed", p)
	}
	if op.Op == plan.Delete {
		if _, err := m.try(wire.IO{Op: wire.IORemove, Path: p}, succeeds()); err != nil {
			return landing{}, err
		}
	}
	return landing{bytes: nonNilBytes(r.Data)}, nil
}

func nonNilBytes(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// orStale is err, or when nil the stale failure why at p.
func orStale(err error, why, p string) error {
	if err != nil {
		return err
	}
	return stale(why, p)
}

// move lands a move: its source there, its target free.
func (m *machine) move(op plan.Op) (landing, error) {
	if k, err := m.kind(op.From, foresee("file")); err != nil || k == plan.Absent {
		return landing{}, orStale(err, "changed", op.From)
	}
	if k, err := m.kind(op.To, foresee(plan.Absent)); err != nil || k != plan.Absent {
		return landing{}, orStale(err, "exists", op.To)
	}
	made, err := m.mkdir(path.Dir(op.To))
	if err != nil {
		return landing{}, err
	}
	_, err = m.try(wire.IO{Op: wire.IOMove, Path: op.From, To: op.To}, succeeds())
	return landing{made: made}, err
}

func (m *machine) mkdir(p string) ([]string, error) {
	r, err := m.try(wire.IO{Op: wire.IOMkdir, Path: p}, succeeds())
	return r.List, err
}

// modify writes text over the file at p if it holds expect; it returns
// the text it replaced.
func (m *machine) modify(p, expect, text string) (string, error) {
	r, err := m.try(wire.IO{Op: wire.IOModify, Path: p, Hash: expect, Text: &text}, succeeds())
	if r.Text == nil {
		return "", err
	}
	return *r.Text, err
}

// createIn makes the file p (its folders first, removed again when p
// turns out taken); it returns the folders made.
func (m *machine) createIn(p string, text *string, data []byte) ([]string, error) {
	made, err := m.mkdir(path.Dir(p))
	if err != nil {
		return nil, err
	}
	if _, err := m.try(wire.IO{Op: wire.IOCreate, Path: p, Text: text, Data: data}, succeeds()); err != nil {
		if staleOf(err) != nil {
			if err := m.rmdirs(made); err != nil {
				return nil, err
			}
		}
		return nil, err
	}
	return made, nil
}

// rmdirs removes the folders made (outermost first), innermost first,
// each only when empty.
func (m *machine) rmdirs(made []string) error {
	for _, d := range slices.Backward(made) {
		if _, err := m.try(wire.IO{Op: wire.IORmdir, Path: d}, succeeds()); err != nil {
			return err
		}
	}
	return nil
}

// failed ends an apply whose op k failed to land: the journal stays for
// the next call (unless, live, another host finished it). A full disk is
// DiskFullHalfway: a write the disk cut short may have left part of it.
func (m *machine) failed(j *live, k int, err error, isLive bool) error {
	op := j.Plan[k]
	target := op.Path
	if target == "" {
		target = op.From
	}
	if isLive {
		if fin, err := m.finishedElsewhere(j, target); err != nil || fin {
			return err
		}
	}
	var f *ioFail
	switch {
	case !errors.As(err, &f):
		return err
	case f.DiskFull:
		return DiskFullHalfway(target)
	}
	return fmt.Errorf("applying op %d (%s) of plan %s: %v; the vault is half-way and the next call finishes the plan", k, op.Op, j.ID, err)
}
