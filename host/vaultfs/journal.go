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
	"sort"
	"strconv"
	"strings"
	"time"

	"kessho/core/fault"
	"kessho/core/plan"
)

// journalVersion is the version of the journal format this package writes
// and reads.
const journalVersion = 1

// journal is a plan on its way to the vault; see the package
// documentation for its format.
type journal struct {
	Version int       `json:"version"`
	ID      string    `json:"id"`
	Created string    `json:"created"`
	Plan    plan.Plan `json:"plan"`
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
	j := &journal{Version: journalVersion, ID: newID(now), Created: now.Format(time.RFC3339Nano), Plan: p}
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

// removeJournal removes the journal, then its progress: in that order, so
// that a journal is never found without the progress it had.
func (v *Vault) removeJournal(id string) error {
	if err := v.root.Remove(path.Join(journalDir, id+".json")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fault.Internalf("removing the journal: %v", err)
	}
	step("journal %s: removed", id)
	if err := v.root.Remove(path.Join(journalDir, id+".done")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fault.Internalf("removing the journal's progress: %v", err)
	}
	step("journal %s: progress removed", id)
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
// resumes at the first op the journal's progress does not list, skipping
// ops whose target already holds the new state (see the package
// documentation). Leftovers that carry no plan (temporary files in the
// journal folder, a progress file without its journal) are removed.
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
	if j.Version != journalVersion {
		return bad(fmt.Sprintf("has version %d, and this Kessho reads version %d", j.Version, journalVersion))
	}
	if j.ID != id {
		return bad(fmt.Sprintf("names itself %q", j.ID))
	}
	if err := j.Plan.Validate(); err != nil {
		return bad("holds an invalid plan (" + err.Error() + ")")
	}
	from, size, err := v.progress(id)
	if err != nil {
		return err
	}
	if from > len(j.Plan) {
		return bad(fmt.Sprintf("lists %d ops done out of %d", from, len(j.Plan)))
	}
	if err := v.removeTemps(j.Plan[from:]); err != nil {
		return err
	}
	return v.run(&j, from, size)
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
