package vaultfs

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"kessho/core/fault"
	"kessho/core/plan"
)

// journalVersion is the version of the journal format this package
// writes. It reads version 1 too (the same without "states").
const journalVersion = 2

// journal is a plan on its way to the vault; see the package
// documentation for its format.
type journal struct {
	Version int       `json:"version"`
	ID      string    `json:"id"`
	Created string    `json:"created"`
	Plan    plan.Plan `json:"plan"`
	States  []opState `json:"states,omitempty"`
}

// opState is the state of an op's target before and after it lands:
// "absent", "sha256:<hex>", "present" (a move's target) or "folder".
type opState struct {
	Before string `json:"before"`
	After  string `json:"after"`
}

// States of a target besides "absent" and a file's hash.
const (
	statePresent = "present"
	stateFolder  = "folder"
)

// stateOf is op's state, by the table of the journal format: a write's
// target goes from op.Expect to the hash of its text, a delete's from
// op.Expect to absent, a check's stays op.Expect, a move's target (To)
// goes from absent to present, a mkdir's from absent to a folder.
func stateOf(op plan.Op) opState {
	switch op.Op {
	case plan.Write:
		return opState{op.Expect, plan.HashString(*op.Text)}
	case plan.Delete:
		return opState{op.Expect, plan.Absent}
	case plan.Check:
		return opState{op.Expect, op.Expect}
	case plan.Move:
		return opState{plan.Absent, statePresent}
	case plan.Mkdir:
		return opState{plan.Absent, stateFolder}
	}
	return opState{}
}

func statesOf(p plan.Plan) []opState {
	out := make([]opState, len(p))
	for i, op := range p {
		out[i] = stateOf(op)
	}
	return out
}

// conflictRecord is <id>.conflict: recovery stopped at op Op, whose
// target Path was changed after the plan began; Kessho's version is in
// Copy.
type conflictRecord struct {
	Op   int    `json:"op"`
	Path string `json:"path"`
	Copy string `json:"copy"`
}

// newID returns a journal id that sorts by creation time.
func newID(now time.Time) string {
	var b [4]byte
	rand.Read(b[:])
	return now.UTC().Format("20060102T150405.000000000Z") + "-" + hex.EncodeToString(b[:])
}

// writeJournal makes p durable in .kessho/journal/<id>.json: written under
// a temporary name, fsynced, renamed into place, the folder fsynced. From
// the rename on, a crash ends with the plan applied.
func (v *Vault) writeJournal(p plan.Plan) (*journal, error) {
	now := time.Now()
	j := &journal{Version: journalVersion, ID: newID(now), Created: now.Format(time.RFC3339Nano), Plan: p, States: statesOf(p)}
	data, err := json.Marshal(j)
	if err != nil {
		return nil, fault.Internalf("encoding the journal: %v", err)
	}
	if err := v.mkdirs(journalDir); err != nil {
		return nil, fault.Internalf("making %s: %v", journalDir, err)
	}
	name := path.Join(journalDir, j.ID+".json")
	if err := v.writeFile(name, data, "journal"); err != nil {
		v.root.Remove(name) // in case only the last fsync failed: the caller is told nothing was written
		return nil, fault.Internalf("writing the journal: %v", err)
	}
	return j, nil
}

// openDone opens the journal's record of finished ops for appending,
// keeping its first size bytes (the ops recorded done).
func (v *Vault) openDone(id string, size int64) (*os.File, error) {
	f, err := v.root.OpenFile(path.Join(journalDir, id+".done"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fault.Internalf("opening the journal's progress: %v", err)
	}
	if err := f.Truncate(size); err != nil {
		f.Close()
		return nil, fault.Internalf("cutting the journal's progress: %v", err)
	}
	if err := v.syncDir(journalDir); err != nil { // the new name must last
		f.Close()
		return nil, fault.Internalf("syncing %s: %v", journalDir, err)
	}
	return f, nil
}

// removeJournal removes the journal, then its progress and conflict
// record: in that order, so that a journal is never found without the
// progress it had.
func (v *Vault) removeJournal(id string) error {
	if err := v.root.Remove(path.Join(journalDir, id+".json")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fault.Internalf("removing the journal: %v", err)
	}
	step("journal %s: removed", id)
	if err := v.root.Remove(path.Join(journalDir, id+".done")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fault.Internalf("removing the journal's progress: %v", err)
	}
	step("journal %s: progress removed", id)
	if err := v.root.Remove(path.Join(journalDir, id+".conflict")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fault.Internalf("removing the journal's conflict record: %v", err)
	}
	if err := v.syncDir(journalDir); err != nil {
		return fault.Internalf("syncing %s: %v", journalDir, err)
	}
	step("journal %s: folder synced", id)
	return nil
}

// Recover rolls forward every plan a crash left half-applied, oldest
// first, so that the vault holds what those plans make. l must be the
// vault's lock, held; the host calls Recover right after Lock, before it
// reads anything.
//
// For each journal, Recover removes stray temporary files
// (".kessho-tmp-*") from the folders the remaining writes target, then
// resumes at the first op the journal's progress does not list. An op
// whose target holds its after-state is recorded done; one whose target
// holds its before-state is landed (with the re-check of Apply); any
// other is a recovery conflict: the target is kept as it is, Kessho's
// version is written beside it, and Recover (so every call) fails with
// RECOVERY_CONFLICT until a person deletes that copy (see the package
// documentation). A check op, which writes nothing, is recorded done.
// Leftovers that carry no plan (temporary files in the journal folder, a
// progress file or conflict record without its journal) are removed.
//
// A journal that cannot be read or is not a valid plan is an error: the
// vault may be half-way, and only a person can tell how to finish it.
func (v *Vault) Recover(l *Lock) error {
	if err := v.holds(l); err != nil {
		return err
	}
	f, err := v.root.Open(journalDir)
	if absentErr(err) {
		return nil
	}
	if err != nil {
		return fault.Internalf("opening %s: %v", journalDir, err)
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return fault.Internalf("listing %s: %v", journalDir, err)
	}
	sort.Strings(names)
	jsons := map[string]bool{}
	var ids []string
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
		if strings.HasPrefix(n, tempPrefix) || (isDone && !jsons[id]) {
			if err := v.root.Remove(path.Join(journalDir, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fault.Internalf("removing %s: %v", path.Join(journalDir, n), err)
			}
		}
	}
	for _, id := range ids {
		if err := v.recoverOne(id); err != nil {
			return err
		}
	}
	return nil
}

// recoverOne finishes the plan of journal id.
func (v *Vault) recoverOne(id string) error {
	name := path.Join(journalDir, id+".json")
	bad := func(why string) error {
		return fault.New(fault.Internal, map[string]any{"path": name},
			fmt.Sprintf("internal error: the journal %s of an interrupted change %s; the vault may be half-way: look at the journal, finish or undo the change by hand, then delete the journal", name, why),
			fmt.Sprintf("erreur interne : le journal %s d'une modification interrompue %s ; le coffre est peut-être à mi-chemin : lisez le journal, terminez ou défaites la modification à la main, puis supprimez le journal", name, why))
	}
	data, err := v.root.ReadFile(name)
	if err != nil {
		return bad("cannot be read (" + err.Error() + ")")
	}
	var j journal
	if err := json.Unmarshal(data, &j); err != nil {
		return bad("is not valid JSON (" + err.Error() + ")")
	}
	if j.Version != 1 && j.Version != journalVersion {
		return bad(fmt.Sprintf("has version %d, and this Kessho reads versions 1 and %d", j.Version, journalVersion))
	}
	if j.ID != id {
		return bad(fmt.Sprintf("names itself %q", j.ID))
	}
	if err := j.Plan.Validate(); err != nil {
		return bad("holds an invalid plan (" + err.Error() + ")")
	}
	want := statesOf(j.Plan)
	switch {
	case j.Version == 1 && j.States != nil:
		return bad("has version 1 and states")
	case j.Version == 1:
		j.States = want
	case !slices.Equal(j.States, want):
		return bad("holds states that do not match its plan")
	}
	from, size, err := v.progress(id)
	if err != nil {
		return err
	}
	if from > len(j.Plan) {
		return bad(fmt.Sprintf("lists %d ops done out of %d", from, len(j.Plan)))
	}
	from, size, err = v.resolved(&j, from, size, bad)
	if err != nil {
		return err
	}
	if err := v.removeTemps(j.Plan[from:]); err != nil {
		return err
	}
	return v.run(&j, from, size, false)
}

// resolved handles the conflict record of journal j, if any, when
// recovery is to resume at op from. While the record's copy exists, the
// call is refused with RECOVERY_CONFLICT. Once a person has deleted it,
// their version of the target wins: the op is recorded done, the record
// removed, and recovery resumes at the next op. A record of an op already
// recorded done (a crash before its removal) is removed.
func (v *Vault) resolved(j *journal, from int, size int64, bad func(string) error) (int, int64, error) {
	name := path.Join(journalDir, j.ID+".conflict")
	data, err := v.root.ReadFile(name)
	if absentErr(err) {
		return from, size, nil
	}
	if err != nil {
		return 0, 0, fault.Internalf("reading %s: %v", name, err)
	}
	var c conflictRecord
	if err := json.Unmarshal(data, &c); err != nil {
		return 0, 0, bad("has a conflict record that is not valid JSON (" + err.Error() + ")")
	}
	if c.Op > from || c.Op < 0 || c.Op >= len(j.Plan) || c.Path != target(j.Plan[c.Op]) || plan.CheckPath(c.Copy) != nil {
		return 0, 0, bad(fmt.Sprintf("has a conflict record that does not match its progress (op %d, path %q, copy %q)", c.Op, c.Path, c.Copy))
	}
	if c.Op == from {
		n, err := v.stat(c.Copy)
		if err != nil {
			return 0, 0, err
		}
		if n.kind != absent {
			return 0, 0, recoveryConflict(c.Path, c.Copy, j.ID)
		}
		done, err := v.openDone(j.ID, size)
		if err != nil {
			return 0, 0, err
		}
		err = record(done, from)
		done.Close()
		if err != nil {
			return 0, 0, fault.Internalf("recording op %d of journal %s done: %v", from, j.ID, err)
		}
		size += int64(len(strconv.Itoa(from))) + 1
		from++
	}
	if err := v.root.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, 0, fault.Internalf("removing %s: %v", name, err)
	}
	step("journal %s: conflict record removed", j.ID)
	return from, size, nil
}

// target is the path whose state an op's journal states describe when a
// recovery conflict is written: a move's source, any other op's path.
func target(op plan.Op) string {
	if op.Op == plan.Move {
		return op.From
	}
	return op.Path
}

// conflictCopy stops a recovery at op k of j, whose target holds neither
// the op's before-state nor its after-state (it was changed after the
// plan began, or the journal was made by hand or synced from elsewhere):
// the target is kept as it is, Kessho's version is written beside it (see
// copyName), <id>.conflict records the stop, and the call is refused with
// RECOVERY_CONFLICT. The copy holds a write's text exactly; for a delete,
// move or mkdir, a note saying what the change was.
func (v *Vault) conflictCopy(j *journal, k int) error {
	op := j.Plan[k]
	x := target(op)
	var text string
	if op.Op == plan.Write {
		text = *op.Text
	} else {
		var what string
		switch op.Op {
		case plan.Delete:
			what = "delete " + op.Path
		case plan.Move:
			what = "move " + op.From + " to " + op.To
		default:
			what = "make the folder " + op.Path
		}
		text = "Kessho's interrupted change (journal " + j.ID + ") was to " + what +
			"; it was changed since, so it was kept as it is. Delete this note once you have decided; Kessho then goes on with the rest of that change."
	}
	cp, err := v.copyName(x, time.Now())
	if err == nil {
		err = v.writeFile(cp, []byte(text), "conflict copy")
	}
	if err != nil {
		return v.applyErr(j, k, err)
	}
	rec, _ := json.Marshal(conflictRecord{Op: k, Path: x, Copy: cp})
	if err := v.writeFile(path.Join(journalDir, j.ID+".conflict"), rec, "conflict record"); err != nil {
		return v.applyErr(j, k, err)
	}
	return recoveryConflict(x, cp, j.ID)
}

// copyName returns a free name for the conflict copy of x: x's folder,
// x's base name without a final ".md", ".kessho-conflict-", the UTC time
// as YYYYMMDDTHHMMSSZ, and ".md"; when taken, "-2", "-3"… before ".md".
func (v *Vault) copyName(x string, now time.Time) (string, error) {
	stem := join(path.Dir(x), strings.TrimSuffix(path.Base(x), ".md")+".kessho-conflict-"+now.UTC().Format("20060102T150405Z"))
	for n := 1; ; n++ {
		p := stem + ".md"
		if n > 1 {
			p = stem + "-" + strconv.Itoa(n) + ".md"
		}
		info, err := v.stat(p)
		if err != nil {
			return "", err
		}
		if info.kind == absent {
			return p, nil
		}
	}
}

// recoveryConflict is the refusal of every call while a recovery conflict
// is unresolved.
func recoveryConflict(p, cp, id string) *fault.Error {
	return fault.New(fault.RecoveryConflict, map[string]any{"path": p, "copy": cp, "journal": path.Join(journalDir, id+".json")},
		"an interrupted change could not be finished: "+p+" was changed after it began; your version is kept and Kessho's is in "+cp+"; copy what you need from it into "+p+", then delete "+cp+" and run the call again",
		"une modification interrompue n'a pas pu être terminée : "+p+" a été modifié depuis son début ; votre version est gardée et celle de Kessho est dans "+cp+" ; reportez-en ce qu'il vous faut dans "+p+", puis supprimez "+cp+" et relancez l'appel")
}

// progress returns how many ops of journal id are recorded done (the
// leading lines of its .done file that read 0, 1, 2, …) and the length in
// bytes of those lines. Anything after them, such as a line torn by a
// crash, counts for nothing: run cuts it off, and the op is checked again.
func (v *Vault) progress(id string) (done int, size int64, err error) {
	data, err := v.root.ReadFile(path.Join(journalDir, id+".done"))
	if absentErr(err) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, fault.Internalf("reading the progress of journal %s: %v", id, err)
	}
	lines := strings.Split(string(data), "\n")
	lines = lines[:len(lines)-1] // after the last newline: nothing, or a torn line
	for _, line := range lines {
		if line != strconv.Itoa(done) {
			break
		}
		done++
		size += int64(len(line)) + 1
	}
	return done, size, nil
}

// removeTemps removes temporary files Apply may have left beside the
// targets of ops' writes.
func (v *Vault) removeTemps(ops plan.Plan) error {
	seen := map[string]bool{}
	for _, op := range ops {
		if op.Op != plan.Write {
			continue
		}
		dir := path.Dir(op.Path)
		if seen[dir] {
			continue
		}
		seen[dir] = true
		f, err := v.root.Open(dir)
		if err != nil {
			continue // not there (yet): nothing left in it
		}
		names, err := f.Readdirnames(-1)
		f.Close()
		if err != nil {
			return fault.Internalf("listing %s: %v", dir, err)
		}
		for _, n := range names {
			if strings.HasPrefix(n, tempPrefix) {
				if err := v.root.Remove(join(dir, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return fault.Internalf("removing %s: %v", join(dir, n), err)
				}
			}
		}
	}
	return nil
}
