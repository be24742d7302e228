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
	"strconv"
	"strings"
	"time"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/hostlogic"
	"github.com/kessho/kessho/core/plan"
)

// journal is a plan on its way to the vault; see the package
// documentation for its format (hostlogic decides what it holds).
type journal = hostlogic.Journal

// newID returns a random suffix for a journal id (hostlogic.ID).
func newSuffix() string {
	var b [4]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// writeJournal makes p durable in .kessho/journal/<id>.json: written under
// a temporary name, fsynced, renamed into place, the folder fsynced. From
// the rename on, a crash ends with the plan applied. A full disk is
// DISK_FULL naming the journal, nothing of it left.
func (v *Vault) writeJournal(p plan.Plan) (*journal, error) {
	j := hostlogic.NewJournal(p, time.Now(), newSuffix())
	data, err := json.Marshal(j)
	if err != nil {
		return nil, fault.Internalf("encoding the journal: %v", err)
	}
	if err := v.mkdirs(journalDir); err != nil {
		if diskFull(err) {
			return nil, hostlogic.DiskFull(journalDir)
		}
		return nil, fault.Internalf("making %s: %v", journalDir, err)
	}
	name := path.Join(journalDir, j.ID+".json")
	if err := v.writeFile(name, data, "journal"); err != nil {
		v.root.Remove(name) // in case only the last fsync failed: the caller is told nothing was written
		if diskFull(err) {
			return nil, hostlogic.DiskFull(name)
		}
		return nil, fault.Internalf("writing the journal: %v", err)
	}
	return j, nil
}

// ours refuses a file of Kessho's own at p (a journal's) that is there
// and is a symbolic link or not a regular file: a journal's files are
// read, cut and removed, never through a link (NotOurs).
func (v *Vault) ours(p string) error {
	if info, err := v.root.Lstat(p); err == nil && !info.Mode().IsRegular() {
		return hostlogic.NotOurs(p, false)
	}
	return nil
}

// openDone opens the journal's record of finished ops for appending,
// keeping its first size bytes (the ops recorded done); never through a
// link (ours).
func (v *Vault) openDone(id string, size int64) (*os.File, error) {
	if err := v.ours(path.Join(journalDir, id+".done")); err != nil {
		return nil, err
	}
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
// progress file or conflict record without its journal) are removed; so
// is the temporary file a one-file plan's mark names (see markTemp).
//
// A journal that cannot be read or is not a valid plan is an error: the
// vault may be half-way, and only a person can tell how to finish it.
func (v *Vault) Recover(l *Lock) error { return v.RecoverFunc(l, nil) }

// RecoverFunc is Recover that also tells done, when not nil, of each
// journal it finished: its id and its plan (the MCP server logs them).
func (v *Vault) RecoverFunc(l *Lock, done func(j *hostlogic.Journal)) error {
	if err := v.holds(l); err != nil {
		return err
	}
	v.sweepIndex()
	v.dropMark(l)
	names, err := v.journalNames()
	if err != nil {
		return err
	}
	if names == nil {
		l.recovered = true
		return nil
	}
	ids, remove := hostlogic.Sweep(names)
	for _, n := range remove {
		if strings.HasPrefix(n, tempPrefix) {
			v.dropMarked(n)
		}
		if err := v.root.Remove(path.Join(journalDir, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fault.Internalf("removing %s: %v", path.Join(journalDir, n), err)
		}
	}
	for _, id := range ids {
		j, err := v.recoverOne(id)
		if err != nil {
			return err
		}
		if done != nil {
			done(j)
		}
	}
	l.recovered = true
	return nil
}

// journalNames lists the journal folder: nil when there is none. The
// folder is opened with one openat2 where it can (openDirBeneath), else
// through os.Root; a link there is never listed, its files never removed.
func (v *Vault) journalNames() ([]string, error) {
	f, ok := v.openDirBeneath(journalDir)
	if ok && f == nil {
		return nil, nil
	}
	if !ok {
		info, err := v.root.Lstat(journalDir)
		if absentErr(err) {
			return nil, nil
		}
		if err == nil && !info.IsDir() {
			return nil, hostlogic.NotOurs(journalDir, true)
		}
		if f, err = v.root.Open(journalDir); err != nil {
			return nil, fault.Internalf("opening %s: %v", journalDir, err)
		}
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return nil, fault.Internalf("listing %s: %v", journalDir, err)
	}
	if names == nil {
		names = []string{}
	}
	return names, nil
}

// recoverOne finishes the plan of journal id and returns it: hostlogic decodes it,
// reads its progress and its conflict record; run rolls it forward.
func (v *Vault) recoverOne(id string) (*journal, error) {
	name := path.Join(journalDir, id+".json")
	for _, ext := range []string{".json", ".done", ".conflict"} {
		if err := v.ours(path.Join(journalDir, id+ext)); err != nil {
			return nil, err
		}
	}
	data, err := v.root.ReadFile(name)
	if err != nil {
		return nil, hostlogic.BadJournal(name, "cannot be read ("+err.Error()+")")
	}
	j, err := hostlogic.Decode(id, data)
	if err != nil {
		return nil, err
	}
	from, size, err := v.progress(id)
	if err != nil {
		return nil, err
	}
	if from > len(j.Plan) {
		return nil, hostlogic.BadJournal(name, fmt.Sprintf("lists %d ops done out of %d", from, len(j.Plan)))
	}
	from, size, err = v.resolved(j, from, size)
	if err != nil {
		return nil, err
	}
	if err := v.removeTemps(j.Plan[from:]); err != nil {
		return nil, err
	}
	return j, v.run(j, from, size, false)
}

// resolved handles the conflict record of journal j, if any, when
// recovery is to resume at op from (hostlogic.ReadRecord says what it
// means). While the record's copy exists, the call is refused with
// RECOVERY_CONFLICT. Once a person has deleted it, their version of the
// target wins: the op is recorded done, the record removed, and recovery
// resumes at the next op. A record of an op already recorded done (a
// crash before its removal) is removed.
func (v *Vault) resolved(j *journal, from int, size int64) (int, int64, error) {
	name := path.Join(journalDir, j.ID+".conflict")
	data, err := v.root.ReadFile(name)
	if absentErr(err) {
		return from, size, nil
	}
	if err != nil {
		return 0, 0, fault.Internalf("reading %s: %v", name, err)
	}
	c, resume, err := hostlogic.ReadRecord(j, data, from)
	if err != nil {
		return 0, 0, err
	}
	if resume == hostlogic.Pending {
		n, err := v.stat(c.Copy)
		if err != nil {
			return 0, 0, err
		}
		if n.kind != absent {
			return 0, 0, c.Stop(j.ID, j.Plan[c.Op])
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

// clock is the time in a conflict copy's name (a test pins it).
var clock = time.Now

// conflictCopy stops a recovery at op k of j, whose target holds neither
// the op's before-state nor its after-state (it was changed after the
// plan began, or the journal was made by hand or synced from elsewhere):
// the target is kept as it is, Kessho's version is written beside it (see
// copyName), <id>.conflict records the stop, and the call is refused with
// RECOVERY_CONFLICT. The copy holds a write's text exactly; for a delete
// or a move, a note saying what the change was.
func (v *Vault) conflictCopy(j *journal, k int) error {
	op := j.Plan[k]
	rec := hostlogic.Record{Op: k, Path: hostlogic.Target(op)}
	now := clock()
	for n := 1; ; n++ {
		rec.Copy = hostlogic.CopyName(rec.Path, now, n)
		info, err := v.stat(rec.Copy)
		if err != nil {
			return v.applyErr(j, k, err)
		}
		if info.kind == absent {
			break
		}
	}
	if err := v.writeFile(rec.Copy, []byte(hostlogic.CopyText(j.ID, op)), "conflict copy"); err != nil {
		return v.applyErr(j, k, err)
	}
	if err := v.writeFile(path.Join(journalDir, j.ID+".conflict"), rec.JSON(), "conflict record"); err != nil {
		return v.applyErr(j, k, err)
	}
	return rec.Stop(j.ID, op)
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
	done, size = hostlogic.Progress(data)
	return done, size, nil
}

// removeTemps removes temporary files Apply may have left beside the
// targets of ops' writes (in hostlogic.TempDirs).
func (v *Vault) removeTemps(ops plan.Plan) error {
	for _, dir := range hostlogic.TempDirs(ops) {
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
