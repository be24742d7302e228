package hostlogic

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"strconv"
	"time"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/wire"
)

// The apply a step runs (docs/HOSTS.md, "Applying a plan", "The journal
// and recovery"), for a host without a lock (the plugin): the journals a
// crash left rolled forward, then the plan checked, journaled, landed op
// by op and, when a target changed meanwhile, undone. Each I/O goes
// through machine.do; an I/O error is an *ioFail.

// run runs the start's call, or rolls forward its journals, then
// applies its plan.
func (m *machine) run() error {
	if m.st.Start.Call != nil {
		return m.runCall(*m.st.Start.Call)
	}
	if err := m.recoverJournals(); err != nil {
		return err
	}
	if m.st.Start.Plan == nil {
		return nil
	}
	return m.apply(*m.st.Start.Plan)
}

// apply checks p against the vault, writes its journal and lands it.
func (m *machine) apply(p plan.Plan) error {
	if err := m.checkPlan(p); err != nil {
		return err
	}
	if len(p) == 0 {
		return nil
	}
	for _, op := range p {
		if op.Path != "" {
			if err := m.undoSafe(op.Path, false); err != nil {
				return err
			}
		}
	}
	j, err := m.writeJournal(p)
	if err != nil {
		return err
	}
	return m.runJournal(j, 0, false)
}

// checkPlan is Check of p over what the host looks at: first every path
// firstLooks names, then each one Check asks for besides.
func (m *machine) checkPlan(p plan.Plan) error {
	if err := p.Validate(); err != nil {
		return fault.Internalf("the module returned an invalid plan: %v", err)
	}
	var seen map[string]string
	if looks := firstLooks(p); len(looks) > 0 {
		var err error
		if seen, err = m.looks(looks, func(l Look) (*string, []string) { return foreseeLook(p, l) }); err != nil {
			return err
		}
	}
	for {
		d := &nodes{m: seen}
		err := Check(p, d)
		if !errors.Is(err, errNeed) {
			return err
		}
		more, err := m.looks(d.need, nil)
		if err != nil {
			return err
		}
		if seen == nil {
			seen = map[string]string{}
		}
		maps.Copy(seen, more)
	}
}

// foreseeLook is what l most likely finds: what the first op naming its
// path expects there, a folder above a file an op expects. A folder
// above paths expected absent alone may not be there yet: either is
// foreseen (or), for Check reads such a path only to see that no file is
// in the way (room), which a folder and nothing both pass alike.
func foreseeLook(p plan.Plan, l Look) (*string, []string) {
	for _, op := range p {
		switch {
		case l.Path == op.Path && op.Expect == plan.Absent:
			return foresee(plan.Absent), nil
		case l.Path == op.Path && l.Hash:
			return foresee(op.Expect), nil
		case l.Path == op.Path || l.Path == op.From:
			return foresee("file"), nil
		case l.Path == op.To:
			return foresee(plan.Absent), nil
		case under(op.From, l.Path) || (under(op.Path, l.Path) && op.Expect != plan.Absent):
			return foresee(StateFolder), nil
		}
	}
	if aboveOnly(p, l.Path) {
		return foresee(StateFolder), []string{plan.Absent}
	}
	return nil, nil
}

// aboveOnly reports whether p's ops name x only as a folder above the
// paths they write (never x itself, nor anything x holds but those
// paths, nor a move's source or target at or above x).
func aboveOnly(p plan.Plan, x string) bool {
	for _, op := range p {
		for _, y := range []string{op.From, op.To} {
			if y != "" && (y == x || under(y, x) || under(x, y)) {
				return false
			}
		}
		if op.Path == x || under(x, op.Path) || (op.Op != plan.Write && under(op.Path, x)) {
			return false
		}
	}
	return true
}

// look is what is at l.Path as Check and Where read it.
func (m *machine) look(l Look, expect *string) (string, error) {
	op := wire.IO{Op: wire.IOLook, Path: l.Path}
	if l.Hash {
		op.Hash = "sha256"
	}
	r, err := m.try(op, expect)
	return r.V, err
}

// looks is what is at each of ls, asked together (what foresee, when
// not nil, foresees of each first, and what else it allows).
func (m *machine) looks(ls []Look, foresee func(Look) (*string, []string)) (map[string]string, error) {
	ops := make([]wire.IO, len(ls))
	for i, l := range ls {
		ops[i] = wire.IO{Op: wire.IOLook, Path: l.Path}
		if l.Hash {
			ops[i].Hash = "sha256"
		}
		if foresee != nil {
			_, ops[i].Or = foresee(l)
		}
	}
	rs, err := m.all(ops, func(i int) *string {
		if foresee == nil {
			return nil
		}
		e, _ := foresee(ls[i])
		return e
	})
	if err != nil {
		return nil, err
	}
	seen := map[string]string{}
	for i, r := range rs {
		seen[ls[i].Path] = r.V
	}
	return seen, nil
}

// undoSafe refuses p, a path under Kessho's undo records, when the host
// says a place on its way is a link or not what it must be (NotOurs).
func (m *machine) undoSafe(p string, dir bool) error {
	if !plan.IsUndo(p) {
		return nil
	}
	r, err := m.try(wire.IO{Op: wire.IOUndoWay, Path: p, Dir: dir}, succeeds())
	if err != nil || r.V == "" {
		return err
	}
	var bad struct {
		At     string `json:"at"`
		Folder bool   `json:"folder"`
	}
	if err := json.Unmarshal([]byte(r.V), &bad); err != nil {
		return fault.Internalf("the host's undo way is not JSON: %v", err)
	}
	return NotOurs(bad.At, bad.Folder)
}

// live is a journal being applied: its id, plan and ops' states.
type live struct {
	ID     string
	Plan   plan.Plan
	States []OpState
}

// jfile is the path of journal id's file of extension ext.
func jfile(id, ext string) string { return path.Join(JournalDir, id+"."+ext) }

// writeJournal makes p the vault's journal (temporary name, then renamed
// into place); a full disk is DiskFull naming it, nothing written.
func (m *machine) writeJournal(p plan.Plan) (*live, error) {
	j := NewJournal(p, m.wall(), m.random(4))
	text, _ := json.Marshal(j)
	if err := m.writeState(JournalPath(j.ID), string(text)); err != nil {
		var f *ioFail
		if errors.As(err, &f) && f.DiskFull {
			return nil, DiskFull(JournalPath(j.ID))
		}
		return nil, fmt.Errorf("writing the journal: %v", err)
	}
	m.do(wire.IO{Op: wire.IOOwn, Path: j.ID}, succeeds())
	return &live{ID: j.ID, Plan: p}, nil
}

// writeState writes one of Kessho's files under a temporary name, then
// renames it into place; the temporary file goes on failure.
func (m *machine) writeState(p, data string) error {
	tmp := path.Join(path.Dir(p), TempPrefix+m.random(8))
	_, err := m.try(wire.IO{Op: wire.IOWrite, Path: tmp, Text: &data}, succeeds())
	if err == nil {
		err = m.stRemove(p)
	}
	if err == nil {
		_, err = m.try(wire.IO{Op: wire.IORename, Path: tmp, To: p}, succeeds())
	}
	if err != nil {
		m.do(wire.IO{Op: wire.IOStRemove, Path: tmp}, succeeds())
	}
	return err
}

func (m *machine) stRemove(p string) error {
	_, err := m.try(wire.IO{Op: wire.IOStRemove, Path: p}, succeeds())
	return err
}

// stRead is the text of one of Kessho's files, nil when it is missing.
func (m *machine) stRead(p string) (*string, error) {
	r, err := m.try(wire.IO{Op: wire.IOStateRead, Path: p}, nil)
	if err != nil || r.V == plan.Absent {
		return nil, err
	}
	if r.Text == nil {
		return foresee(""), nil
	}
	return r.Text, nil
}

// removeJournal removes the journal, then its progress and its conflict.
func (m *machine) removeJournal(id string) error {
	for _, ext := range []string{"json", "done", "conflict"} {
		if err := m.stRemove(jfile(id, ext)); err != nil {
			return fmt.Errorf("removing the journal: %v", err)
		}
	}
	m.do(wire.IO{Op: wire.IODisown, Path: id}, succeeds())
	return nil
}

// markDone records op k of journal id as finished.
func (m *machine) markDone(id string, k int) error {
	text := strconv.Itoa(k) + "\n"
	_, err := m.try(wire.IO{Op: wire.IOAppend, Path: jfile(id, "done"), Text: &text}, succeeds())
	return err
}

// wait has the host wait ms milliseconds.
func (m *machine) wait(ms int) {
	m.do(wire.IO{Op: wire.IOWait, MS: ms}, nil)
}

// recoverJournals rolls forward every plan a crash left half-applied, in
// Sweep's order. A journal another host wrote less than the start's
// WaitMS ago (Young) is given that long to go first: that host may be
// applying it. For WaitMS at most: a clock set wrong must not make us
// wait for ever.
func (m *machine) recoverJournals() error {
	names := m.st.Start.Journals
	if len(names) == 0 {
		return nil
	}
	wait := time.Duration(m.st.Start.WaitMS) * time.Millisecond
	deadline := m.now().Add(wait)
	for {
		ids, remove := Sweep(names)
		if !Young(names, m.st.Start.Own, m.now(), wait) || !m.now().Before(deadline) {
			for _, n := range remove {
				if err := m.stRemove(path.Join(JournalDir, n)); err != nil {
					return err
				}
			}
			for _, id := range ids {
				if err := m.recoverOne(id); err != nil {
					return err
				}
			}
			return nil
		}
		m.wait(100)
		r, err := m.try(wire.IO{Op: wire.IOStateList, Path: JournalDir}, nil)
		if err != nil {
			return err
		}
		names = nil
		_ = json.Unmarshal([]byte(r.V), &names)
	}
}
