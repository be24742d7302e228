package hostlogic

import (
	"fmt"
	"path"
	"slices"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/wire"
)

// stop ends a live apply whose next op found its target changed (s): the
// progress goes, the landed ops are undone newest first as UndoPlan says
// (a restore that loses its race asks again for the ops left), then the
// journal; the refusal says what stayed.
func (m *machine) stop(j *live, s *ioFail, landed []landing) error {
	if fin, err := m.finishedElsewhere(j, s.Path); err != nil || fin {
		return err
	}
	stop, err := m.undoAll(j, s, landed)
	if err != nil {
		return fmt.Errorf("undoing plan %s after %s changed: %v; the vault is half-way and the next call finishes the plan", j.ID, s.Path, err)
	}
	if err := m.removeJournal(j.ID); err != nil {
		return err
	}
	return stop
}

// undoAll undoes the landed ops of j, newest first; it returns the
// refusal to end the call with.
func (m *machine) undoAll(j *live, s *ioFail, landed []landing) (*fault.Error, error) {
	if err := m.stRemove(jfile(j.ID, "done")); err != nil { // a recovery then looks at every op again
		return nil, err
	}
	u, stop, err := m.undoPlan(j.Plan[:len(landed)], nil, nil, s)
	if err != nil {
		return nil, err
	}
	for i := len(landed) - 1; i >= 0; i-- {
		raced, err := m.undo(u.Undos[i], landed[i])
		if err != nil {
			return nil, err
		}
		if raced {
			edited := append(slices.Clone(u.Edited), u.Undos[i].Path)
			if u, stop, err = m.undoPlan(j.Plan[:i], edited, u.Kept, s); err != nil {
				return nil, err
			}
		}
	}
	return stop, nil
}

// undoPlan is UndoPlan of ops over what the host looks at, and the
// refusal it ends with.
func (m *machine) undoPlan(ops plan.Plan, edited, kept []string, s *ioFail) (Undoing, *fault.Error, error) {
	seen, err := m.looks(UndoLooks(ops), nil)
	if err != nil {
		return Undoing{}, nil, err
	}
	var failed *fault.Error
	switch s.Stale {
	case "changed":
		failed = Changed(s.Path)
	case "exists":
		failed = Exists(s.Path)
	default:
		return Undoing{}, nil, fault.Internalf("an undo without a refusal (why %q)", s.Stale)
	}
	u := UndoPlan(ops, func(x string) string { return seen[x] }, edited, kept)
	return u, u.Stop(failed), nil
}

// undo puts back what one landed op changed as u says, then removes the
// folders made for it; raced when a restore found its file changed at
// the last instant (it is left as it is).
func (m *machine) undo(u Undo, l landing) (raced bool, err error) {
	switch {
	case u.Do == "remove":
		_, err = m.try(wire.IO{Op: wire.IORemove, Path: u.Path}, succeeds())
	case u.Do == "move":
		if _, err = m.mkdir(path.Dir(u.Path)); err == nil {
			_, err = m.try(wire.IO{Op: wire.IOMove, Path: u.From, To: u.Path}, succeeds())
		}
	case u.Do == "restore" && u.Expect == plan.Absent:
		_, err = m.createIn(u.Path, nil, l.bytes)
	case u.Do == "restore":
		_, err = m.modify(u.Path, u.Expect, l.prior) // a write's: the text it replaced
	}
	if err != nil {
		if staleOf(err) == nil {
			return false, err
		}
		raced = u.Do == "restore"
	}
	return raced, m.rmdirs(l.made)
}

// finishedElsewhere tells whether another host finished j meanwhile (its
// journal gone); then every path the plan touches must hold its final
// state (FinalStates), or the call is refused (FinishedElsewhere).
func (m *machine) finishedElsewhere(j *live, p string) (bool, error) {
	if text, err := m.stRead(jfile(j.ID, "json")); err != nil || text != nil {
		return false, err
	}
	final := FinalStates(j.Plan)
	looks := make([]Look, len(final))
	for i, f := range final {
		looks[i] = Look{Path: f.Path, Hash: f.State != plan.Absent && f.State != StatePresent}
	}
	seen, err := m.looks(looks, nil)
	if err != nil {
		return false, err
	}
	for _, f := range final {
		if s := seen[f.Path]; s != f.State && (f.State != StatePresent || s == plan.Absent) {
			return false, FinishedElsewhere(p, f.Path)
		}
	}
	return true, nil
}

// keepTheirs writes the conflict copy of op k under the first free
// CopyName, then <id>.conflict; it returns the recovery's conflict.
func (m *machine) keepTheirs(j *live, k int) error {
	now := m.now()
	op := j.Plan[k]
	rec := Record{Op: k, Path: Target(op)}
	for n := 1; ; n++ {
		rec.Copy = CopyName(rec.Path, now, n)
		s, err := m.look(Look{Path: rec.Copy}, foresee(plan.Absent))
		if err != nil {
			return err
		}
		if s == plan.Absent {
			break
		}
	}
	text := CopyText(j.ID, op)
	if _, err := m.createIn(rec.Copy, &text, nil); err != nil {
		return fmt.Errorf("writing the conflict copy %s of plan %s: %v", rec.Copy, j.ID, err)
	}
	if err := m.writeState(jfile(j.ID, "conflict"), string(rec.JSON())); err != nil {
		return fmt.Errorf("writing the conflict of journal %s: %v", j.ID, err)
	}
	return rec.Stop(j.ID, op)
}
