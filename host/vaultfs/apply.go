package vaultfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/hostlogic"
	"github.com/kessho/kessho/core/plan"
)

// Apply applies p to the vault, all of it or none of it. l must be the
// vault's lock, held.
//
// Apply first finishes any plan a crash left behind (as Recover does),
// then validates p (a malformed plan is INTERNAL: the core never makes
// one), then checks every op's precondition against the state the ops
// before it will leave: "sha256:<hex>" must match the file's bytes,
// "absent" means nothing at all at that path, a move needs its source, and
// no op may need a folder where a file is. The first that fails gives
// CONFLICT naming the path, and nothing is written.
//
// A move whose source is a symbolic link is refused with
// INVALID_ARGUMENT naming the link, before anything is written.
//
// A plan that changes one file (one write or one delete, and checks of
// other files) needs no journal: see applyOne. Any other plan is
// journalled: Apply writes the journal (see the package documentation) and
// lands the ops in order, recording each one done, and removes the
// journal. Each op re-reads its target immediately before it changes the
// disk (see land), because another program (an editor, a sync client)
// may have written it since the check:
//
//   - write: missing parent folders are made, each fsynced into its
//     parent; a temporary file beside the target (".kessho-tmp-<random>")
//     is written and fsynced; then the target is re-checked and the
//     temporary file renamed over it (on Linux with renameat2, see
//     swapInto), the folder fsynced. An overwritten file keeps its
//     permission bits.
//   - delete: re-check, remove, fsync the folder.
//   - move: make the target's parent folders, re-check (the source is
//     there, the target is not), rename (a file or a whole folder), fsync
//     both folders.
//   - check: re-check.
//
// When a re-check fails, Apply stops there, undoes the ops that landed
// (last first, each only where its target still holds what the op left;
// once one does not, the files the plan made are kept too: see abandon),
// removes the journal and returns CONFLICT naming the path: the other
// program's writes survive, and the answer says what stayed, if anything.
//
// A full disk while a temporary file is written or synced (an op's, the
// journal's) is undone the same way and answers DISK_FULL naming the file:
// nothing written, the call safe to run again. Any other error while
// applying (a permission, a full disk elsewhere) leaves the journal in
// place: the vault is then half-way, and the next Recover (the next call)
// finishes the plan.
//
// The listing a running Vault keeps for its searches follows what the
// plan changed (listingCache.applied), with no walk.
func (v *Vault) Apply(l *Lock, p plan.Plan) error {
	err := v.apply(l, p)
	if len(p) > 0 {
		v.notes.applied(v, p, err == nil)
	}
	return err
}

// apply is Apply, the listing left aside.
func (v *Vault) apply(l *Lock, p plan.Plan) error {
	if err := v.holds(l); err != nil {
		return err
	}
	if !l.recovered {
		if err := v.Recover(l); err != nil {
			return err
		}
	}
	// An apply that fails may leave its journal: the next Apply under
	// this hold lists the folder again.
	l.recovered = false
	if err := p.Validate(); err != nil {
		return fault.Internalf("the module returned an invalid plan: %v", err)
	}
	if len(p) == 0 {
		return nil
	}
	for _, op := range p {
		if err := v.undoSafe(op.Path, false); err != nil {
			return err
		}
	}
	disk := checkDisk{v, map[string]fs.FileMode{}}
	if err := hostlogic.Check(p, disk); err != nil {
		return err
	}
	if k, ok := v.oneFile(p, disk); ok {
		return v.applyOne(l, p, k, disk)
	}
	j, err := v.writeJournal(p)
	if err != nil {
		return err
	}
	return v.run(j, 0, 0, true)
}

// oneFile reports whether p changes one file at most, in a folder that
// exists: one write or one delete, and checks of other files. k is the
// index of that op (-1 for a plan of checks alone). A write that must make
// its folder is journalled: a crash between the folder and the file
// would leave the folder, neither before nor after. disk is the check's
// (which has seen that folder, usually).
func (v *Vault) oneFile(p plan.Plan, disk checkDisk) (k int, ok bool) {
	k = -1
	for i, op := range p {
		switch op.Op {
		case plan.Check:
		case plan.Write, plan.Delete:
			if k >= 0 {
				return 0, false
			}
			k = i
		default:
			return 0, false
		}
	}
	for i, op := range p {
		if k >= 0 && i != k && op.Path == p[k].Path {
			return 0, false
		}
	}
	if k >= 0 && p[k].Op == plan.Write {
		n, err := disk.Stat(path.Dir(p[k].Path))
		return k, err == nil && n.Kind == folder && !n.Link
	}
	return k, true
}

// applyOne applies p, which changes the one file p[k] (oneFile), without
// a journal: a rename (or a removal) is atomic, so a crash leaves the
// file as before or as after, and there is nothing to roll forward
// (RATIONALE.md, "Why does a one-file plan need no journal?"). A write's
// temporary file is written and synced, the checks re-checked, then the
// target, renamed into place and its folder synced; a delete re-checks
// the checks and its target, removes it and syncs the folder. The
// temporary file is named in a mark in the journal folder while it exists
// (markTemp), so that the next call removes it if a crash leaves it.
//
// A write's temporary file gets the permission bits of the file it
// replaces as the check saw them (disk), where it saw them. A re-check
// that fails changes nothing and answers CONFLICT as Apply does.
func (v *Vault) applyOne(l *Lock, p plan.Plan, k int, disk checkDisk) error {
	// An error names the op it came from: a check's, or the target's below.
	checks := func() error {
		for i, op := range p {
			if i != k {
				if _, err := v.land(op); err != nil {
					return opError(p, i, err)
				}
			}
		}
		return nil
	}
	var err error
	switch {
	case k < 0:
		err = checks()
	case p[k].Op == plan.Delete:
		if err = checks(); err == nil {
			_, err = v.land(p[k])
		}
	default:
		err = v.writeOne(l, p[k], disk.seen[p[k].Path].Perm(), checks)
	}
	return opError(p, k, err)
}

// opError is what applyOne answers for err, an error of op i of p (nil
// stays nil): a mismatch's CONFLICT, a temporary file's full disk
// DISK_FULL (nothing was written), a fault as it is, any other error an
// INTERNAL naming the op.
func opError(p plan.Plan, i int, err error) error {
	if m, ok := err.(*mismatch); ok {
		return m.err
	}
	if f, ok := err.(*noSpace); ok {
		return hostlogic.DiskFull(f.path)
	}
	if _, ok := fault.As(err); ok || err == nil || i < 0 {
		return err
	}
	return fault.Internalf("applying op %d (%s %s): %v", i, p[i].Op, hostlogic.Target(p[i]), err)
}

// writeOne lands the write op of a one-file plan, into a folder that
// exists, running before once its temporary file is synced, right before
// the target's re-check. Its temporary file gets perm (0: the bits of
// the file it replaces, 0644 for a new one).
func (v *Vault) writeOne(l *Lock, op plan.Op, perm fs.FileMode, before func() error) error {
	tmp := join(path.Dir(op.Path), randomName())
	done, err := v.markTemp(l, tmp)
	if err != nil {
		return full(op.Path, err)
	}
	step("write %s: temp marked", op.Path)
	_, _, err = v.replaceAs(tmp, op.Path, []byte(*op.Text), "write "+op.Path, perm, op.Expect, before)
	if rerr := done(); err == nil && rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
		err = rerr
	}
	step("write %s: mark removed", op.Path)
	return err
}

// markTemp records, before the temporary file tmp is made, that it may
// exist, and returns what forgets it once tmp is gone. On Linux the mark
// is the vault's kept mark file (keepMark), which the next recovery reads
// (dropMark); elsewhere, or where that file cannot be kept, a file in
// the journal folder named as tmp (a temporary name, which
// hostlogic.Sweep removes) that holds tmp's path, whose file Recover
// removes (dropMarked); the kept mark stays open for the rest of the
// hold l (Lock.mark). No mark is synced: a process that dies leaves it
// in the page cache; a machine that loses power may lose it, and at worst
// leaves a hidden temporary file beside the target (a dot-name, which
// neither Kessho's listings nor Obsidian show).
func (v *Vault) markTemp(l *Lock, tmp string) (done func() error, err error) {
	if fd, ok := v.keepMark(l, tmp); ok {
		return func() error { return unmark(fd) }, nil
	}
	mark := path.Join(journalDir, path.Base(tmp))
	done = func() error { return v.root.Remove(mark) }
	if f, ok, err := v.createBeneath(mark, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644); ok {
		if err != nil {
			return nil, err
		}
		_, err = f.Write([]byte(tmp))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return done, err
	}
	if err := v.root.Mkdir(journalDir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	return done, v.root.WriteFile(mark, []byte(tmp), 0o644)
}

// dropMarked removes the temporary file that the mark of that name in
// the journal folder names (markTemp), if it names one: a path to a file
// of the mark's own name, in a folder plans may write. Other temporary
// files of the journal folder (a journal's, written under a temporary
// name) hold a journal, which names no such file.
func (v *Vault) dropMarked(name string) {
	b, err := v.root.ReadFile(path.Join(journalDir, name))
	if err != nil {
		return
	}
	if tmp := string(b); path.Base(tmp) == name && markable(tmp) {
		v.root.Remove(tmp)
	}
}

// markable reports whether a mark may name tmp: a temporary name, in a
// folder plans may write.
func markable(tmp string) bool {
	dir, base := path.Dir(tmp), path.Base(tmp)
	return strings.HasPrefix(base, tempPrefix) && path.Join(dir, base) == tmp && (dir == "." || plan.CheckPath(dir) == nil)
}

// holds refuses a lock that is not v's or not held.
func (v *Vault) holds(l *Lock) error {
	if l == nil || l.v != v || l.f == nil {
		return fault.Internalf("changing the vault %s without holding its lock", v.dir)
	}
	return nil
}

// Kinds of node: hostlogic's.
const (
	absent = hostlogic.Absent
	file   = hostlogic.File
	folder = hostlogic.Folder
	other  = hostlogic.Other // a special file, or a symbolic link Kessho cannot follow
)

type node struct {
	kind hostlogic.Kind
	link bool // a symbolic link (kind is what it leads to)
}

// checkDisk is the vault as hostlogic.Check asks about it: what is at a
// path (links followed inside the vault, as AnswerContext does), and a file's
// hash.
//
// seen keeps what one openat2 with no link on the way found (lstatBeneath)
// during one apply: a file with its permission bits, a folder, and so
// every folder above either, which that openat2 went through as real
// folders. Check asks about each folder above a write's target, the
// deepest first: one look answers them all.
type checkDisk struct {
	v    *Vault
	seen map[string]fs.FileMode
}

func (d checkDisk) Stat(x string) (hostlogic.Node, error) {
	mode, ok := d.seen[x]
	if !ok {
		mode, ok = d.v.lstatBeneath(x)
	}
	if !ok {
		n, err := d.v.statRoot(x)
		return hostlogic.Node{Kind: n.kind, Link: n.link}, err
	}
	d.seen[x] = mode
	for up := path.Dir(x); up != "."; up = path.Dir(up) {
		d.seen[up] = fs.ModeDir
	}
	return hostlogic.Node{Kind: nodeOf(mode).kind}, nil
}

// Hash reads x with one openat2 where it can (readBeneath), else, and
// for every error, through os.Root.
func (d checkDisk) Hash(x string) (string, error) {
	if r, ok := (&answerer{v: d.v}).readBeneath(x, -1); ok && r.err == nil && !r.missing {
		return "sha256:" + r.sum, nil
	}
	b, err := d.v.root.ReadFile(x)
	if err != nil {
		return "", readErr(x, err)
	}
	return plan.Hash(b), nil
}

// stat classifies what is at x now.
func (v *Vault) stat(x string) (node, error) {
	if mode, ok := v.lstatBeneath(x); ok {
		return nodeOf(mode), nil
	}
	return v.statRoot(x)
}

// nodeOf is what lstatBeneath's mode, a folder's or a regular file's,
// says is there.
func nodeOf(mode fs.FileMode) node {
	if mode.IsDir() {
		return node{kind: folder}
	}
	return node{kind: file}
}

// statRoot is stat through os.Root alone.
func (v *Vault) statRoot(x string) (node, error) {
	info, err := v.root.Lstat(x)
	if absentErr(err) {
		return node{kind: absent}, nil
	}
	if escapes(err) {
		return node{kind: other}, nil
	}
	if err != nil {
		return node{}, fault.Internalf("checking %s: %v", x, err)
	}
	link := info.Mode()&fs.ModeSymlink != 0
	if link {
		if info, err = v.root.Stat(x); err != nil {
			return node{kind: other, link: true}, nil
		}
	}
	switch {
	case info.IsDir():
		return node{kind: folder, link: link}, nil
	case info.Mode().IsRegular():
		return node{kind: file, link: link}, nil
	}
	return node{kind: other, link: link}, nil
}

// run applies j's ops from index from on, recording each done after the
// first size bytes of the progress file, then removes the journal.
//
// Every op is landed by land, which re-reads its target right before it
// changes the disk. In a live call (live true), a target that no longer
// holds the op's before-state (another program wrote it since the
// precondition check) stops the plan: the ops already landed are undone
// and the call answers CONFLICT. In a recovery (live false), an op whose
// target holds its after-state is recorded done, one whose target holds
// its before-state is landed, and any other (or a re-check that fails)
// becomes a recovery conflict (see conflictCopy): nothing the user wrote
// is overwritten or deleted.
func (v *Vault) run(j *journal, from int, size int64, live bool) error {
	done, err := v.openDone(j.ID, size)
	if err != nil {
		return err
	}
	defer done.Close()
	var ls []landed
	for k := from; k < len(j.Plan); k++ {
		op := j.Plan[k]
		if !live {
			at, err := v.holdsState(op, j.States[k])
			if err != nil {
				return v.applyErr(j, k, err)
			}
			switch {
			case at == hostlogic.AtAfter || op.Op == plan.Check:
				// Landed already, or a check: it writes nothing, so it can
				// overwrite nothing, and the live call passed it.
				if err := record(done, k); err != nil {
					return v.applyErr(j, k, err)
				}
				continue
			case at == hostlogic.AtNeither:
				return v.conflictCopy(j, k)
			}
		}
		l, err := v.land(op)
		if m, ok := err.(*mismatch); ok {
			if live {
				return v.abandon(j, ls, l.made, m.err)
			}
			v.removeEmpty(l.made)
			return v.conflictCopy(j, k)
		}
		if full, ok := err.(*noSpace); ok && live {
			return v.abandon(j, ls, l.made, hostlogic.DiskFull(full.path))
		}
		if err != nil {
			return v.applyErr(j, k, err)
		}
		ls = append(ls, l)
		if err := record(done, k); err != nil {
			return v.applyErr(j, k, err)
		}
	}
	return v.removeJournal(j.ID)
}

// record appends op k to the progress file and syncs it.
func record(done *os.File, k int) error {
	if _, err := fmt.Fprintf(done, "%d\n", k); err != nil {
		return err
	}
	if err := fsync(done); err != nil {
		return err
	}
	step("op %d: recorded done", k)
	return nil
}

// applyErr is what an apply answers when op k of j failed with err and
// its journal stays: a fault as it is; a full disk's DISK_FULL (the next
// call finishes the plan); any other error an INTERNAL saying so.
func (v *Vault) applyErr(j *journal, k int, err error) error {
	if _, ok := fault.As(err); ok {
		return err
	}
	if diskFull(err) {
		return hostlogic.DiskFullHalfway(hostlogic.Target(j.Plan[k]))
	}
	return fault.Internalf("applying op %d (%s) of plan %s: %v; the vault is half-way and the next call finishes the plan", k, j.Plan[k].Op, j.ID, err)
}

// holdsState tells where op's target stands against st (hostlogic.Where).
func (v *Vault) holdsState(op plan.Op, st hostlogic.OpState) (hostlogic.At, error) {
	state, err := v.look(op)
	if err != nil {
		return hostlogic.AtNeither, err
	}
	return hostlogic.Where(op, st, state), nil
}

// look reads the paths hostlogic.Looks(op) names, for Where and UndoOf.
func (v *Vault) look(op plan.Op) (func(x string) string, error) {
	states := map[string]string{}
	for _, l := range hostlogic.Looks(op) {
		s, err := v.stateAt(l)
		if err != nil {
			return nil, err
		}
		states[l.Path] = s
	}
	return func(x string) string { return states[x] }, nil
}

// stateAt returns what is at l.Path as hostlogic.Where reads it:
// plan.Absent, "folder", "other", and for a file its "sha256:<hex>" when
// l.Hash, else "file".
func (v *Vault) stateAt(l hostlogic.Look) (string, error) {
	if l.Hash {
		b, _, n, err := v.readAt(l.Path)
		if err == nil && n.kind == file {
			return plan.Hash(b), nil
		}
		return kindState(n.kind), err
	}
	n, err := v.stat(l.Path)
	return kindState(n.kind), err
}

func kindState(k hostlogic.Kind) string {
	return [...]string{plan.Absent, "file", hostlogic.StateFolder, "other"}[k]
}

// readAt returns what is at x, and for a file its bytes and permission
// bits.
func (v *Vault) readAt(x string) ([]byte, fs.FileMode, node, error) {
	n, err := v.stat(x)
	if err != nil || n.kind != file {
		return nil, 0, n, err
	}
	f, err := v.root.Open(x)
	if absentErr(err) {
		return nil, 0, node{kind: absent}, nil
	}
	if err != nil {
		return nil, 0, n, readErr(x, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, 0, n, readErr(x, err)
	}
	if !info.Mode().IsRegular() {
		return nil, 0, node{kind: other}, nil
	}
	b, err := readSized(f, info.Size())
	if err != nil {
		return nil, 0, n, readErr(x, err)
	}
	return b, info.Mode().Perm(), n, nil
}

// readSized reads r to its end, as io.ReadAll does, into a buffer made
// for size bytes (a file's size as fstat gave it): one read for the
// bytes and one for the end, where io.ReadAll grows its buffer from 512
// bytes a read at a time. A file that grew since is read to its end
// all the same.
func readSized(r io.Reader, size int64) ([]byte, error) {
	if size < 0 || size > 1<<30 {
		size = 0
	}
	b := make([]byte, 0, size+1)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// landed is what undoing an op that landed needs.
type landed struct {
	op    plan.Op
	prior []byte      // the bytes a write replaced or a delete removed, read at the re-check
	had   bool        // a write replaced a file (rather than made one)
	perm  fs.FileMode // prior's permission bits
	made  []string    // folders made for the op, in the order made
}

// mismatch is land's refusal: the op's target no longer holds its
// before-state. err is the CONFLICT a live call answers.
type mismatch struct{ err *fault.Error }

func (m *mismatch) Error() string { return m.err.Error() }

// land applies one op, re-reading its target immediately before the
// change (after the slow parts: the temporary file of a write is written
// and synced first) and comparing it with the op's before-state: the
// bytes hash to op.Expect, or nothing is there for "absent" (write,
// delete, check); the source exists and the target does not (move).
// When it does not hold, land
// changes nothing but the folders it made (in the result) and returns a
// *mismatch.
func (v *Vault) land(op plan.Op) (landed, error) {
	l := landed{op: op}
	if err := v.undoSafe(op.Path, false); err != nil { // a link planted since, or before a recovery
		return l, err
	}
	var err error
	switch op.Op {
	case plan.Check:
		step("check %s: re-checking", op.Path)
		err = v.expect(&l, op.Path, op.Expect)
	case plan.Write:
		if l.made, err = v.mkdirsMade(path.Dir(op.Path)); err != nil {
			return l, err
		}
		l.prior, l.perm, err = v.replace(op.Path, []byte(*op.Text), "write "+op.Path, 0, op.Expect)
		l.had = op.Expect != plan.Absent
	case plan.Delete:
		err = v.landDelete(&l)
	case plan.Move:
		if l.made, err = v.mkdirsMade(path.Dir(op.To)); err != nil {
			return l, err
		}
		err = v.landMove(op)
	}
	return l, err
}

// expect re-reads x and compares it with want (a hash, or plan.Absent),
// keeping in l the bytes it holds; a *mismatch when it does not hold.
func (v *Vault) expect(l *landed, x, want string) error {
	b, perm, n, err := v.readAt(x)
	if err != nil {
		return err
	}
	if want == plan.Absent {
		if n.kind != absent {
			return &mismatch{hostlogic.Exists(x)}
		}
		return nil
	}
	if n.kind != file || plan.Hash(b) != want {
		return &mismatch{hostlogic.Changed(x)}
	}
	l.prior, l.had, l.perm = b, true, perm
	return nil
}

// landDelete lands l's delete op: its re-check, the removal, its folder
// synced.
func (v *Vault) landDelete(l *landed) error {
	op := l.op
	step("delete %s: re-checking", op.Path)
	if err := v.expect(l, op.Path, op.Expect); err != nil {
		return err
	}
	if err := v.root.Remove(op.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	step("delete %s: removed", op.Path)
	if err := v.syncDir(path.Dir(op.Path)); err != nil {
		return err
	}
	step("delete %s: folder synced", op.Path)
	return nil
}

// landMove lands a move op once the target's folders are made: its
// re-check (the source is there, the target is not), the rename, both
// folders synced.
func (v *Vault) landMove(op plan.Op) error {
	step("move %s: re-checking", op.From)
	from, err := v.stat(op.From)
	if err != nil {
		return err
	}
	if from.kind != file && from.kind != folder {
		return &mismatch{hostlogic.Changed(op.From)}
	}
	to, err := v.stat(op.To)
	if err != nil {
		return err
	}
	if to.kind != absent {
		return &mismatch{hostlogic.Exists(op.To)}
	}
	if err := v.root.Rename(op.From, op.To); err != nil {
		return err
	}
	step("move %s: renamed", op.From)
	if err := v.syncDir(path.Dir(op.From)); err != nil {
		return err
	}
	step("move %s: source folder synced", op.From)
	if path.Dir(op.From) != path.Dir(op.To) {
		if err := v.syncDir(path.Dir(op.To)); err != nil {
			return err
		}
		step("move %s: target folder synced", op.From)
	}
	return nil
}

// abandon undoes ls, the ops of a live call that landed before the op that
// failed (as failed says: its re-check no longer held, or the disk was
// full), removes the folders made for that op, removes the journal and
// returns the refusal that ends the call. The undos are hostlogic's
// (UndoPlan), last first: each happens only when its target still holds
// what the op left; otherwise the target is left as it is (someone
// edited Kessho's fresh file: theirs is kept), and so is every file the
// plan made, which the edited file may name. The refusal then says what
// stayed (Undoing.Stop). An error while undoing leaves the journal: the
// next call rolls the plan forward, and the edited file becomes a
// recovery conflict.
//
// The progress goes first: a crash in the middle of the undos must not
// leave a progress that lists as done the ops already undone, or recovery
// would resume after them and leave the plan half-made. Without it,
// recovery looks at every op from the first (those undone hold their
// before-state and land again; the others hold their after-state).
func (v *Vault) abandon(j *journal, ls []landed, made []string, failed *fault.Error) error {
	halfway := func(what string, err error) error {
		if diskFull(err) {
			p, _ := failed.Details["path"].(string)
			return hostlogic.DiskFullHalfway(p)
		}
		return fault.Internalf("%s of plan %s after %v: %v; the next call finishes the plan", what, j.ID, failed, err)
	}
	if err := v.root.Remove(path.Join(journalDir, j.ID+".done")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return halfway("forgetting the progress", err)
	}
	if err := v.syncDir(journalDir); err != nil {
		return halfway("syncing "+journalDir, err)
	}
	step("abandon %s: progress removed", j.ID)
	v.removeEmpty(made)
	ops := make(plan.Plan, len(ls))
	for i, l := range ls {
		ops[i] = l.op
	}
	u, err := v.undoPlan(ops, nil, nil)
	for i := len(ls) - 1; i >= 0 && err == nil; i-- {
		var raced bool
		if raced, err = v.undo(ls[i], u.Undos[i]); err != nil {
			return halfway(fmt.Sprintf("undoing op %d (%s)", i, ls[i].op.Op), err)
		}
		if raced {
			// Its file changed at the last instant, and is kept: the files
			// the ops left to undo made are kept too.
			u, err = v.undoPlan(ops[:i], append(u.Edited, u.Undos[i].Path), u.Kept)
		}
		v.removeEmpty(ls[i].made)
	}
	if err != nil {
		return halfway("looking at what to undo", err)
	}
	if err := v.removeJournal(j.ID); err != nil {
		return err
	}
	return u.Stop(failed)
}

// undoPlan reads what hostlogic.UndoPlan needs of ops and asks it.
func (v *Vault) undoPlan(ops plan.Plan, edited, kept []string) (hostlogic.Undoing, error) {
	states := map[string]string{}
	for _, l := range hostlogic.UndoLooks(ops) {
		s, err := v.stateAt(l)
		if err != nil {
			return hostlogic.Undoing{}, err
		}
		states[l.Path] = s
	}
	return hostlogic.UndoPlan(ops, func(x string) string { return states[x] }, edited, kept), nil
}

// undo reverts one landed op as u (its hostlogic.Undo) says. raced
// reports a restore whose file changed between the look and the last
// instant: it is left as it is.
func (v *Vault) undo(l landed, u hostlogic.Undo) (raced bool, err error) {
	op := l.op
	switch u.Do {
	case "restore":
		_, _, err := v.replace(u.Path, l.prior, fmt.Sprintf("undo %s %s", op.Op, u.Path), l.perm, u.Expect)
		if _, ok := err.(*mismatch); ok {
			return true, nil
		}
		return false, err
	case "remove":
		if err := v.root.Remove(u.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return false, err
		}
		step("undo write %s: removed", u.Path)
		return false, v.syncDir(path.Dir(u.Path))
	case "move":
		if err := v.root.Rename(u.From, u.Path); err != nil {
			return false, err
		}
		step("undo move %s: renamed", u.Path)
		if err := v.syncDir(path.Dir(u.From)); err != nil {
			return false, err
		}
		if path.Dir(u.Path) != path.Dir(u.From) {
			return false, v.syncDir(path.Dir(u.Path))
		}
	}
	return false, nil
}

// removeEmpty removes the folders in made, last first, each only if
// empty: what an abandoned op made and left nothing in.
func (v *Vault) removeEmpty(made []string) {
	for i := len(made) - 1; i >= 0; i-- {
		if v.root.Remove(made[i]) == nil {
			v.syncDir(path.Dir(made[i]))
		}
	}
}

// openFolder opens the folder dir of the vault for a write's own use (its
// rename's descriptor, its fsync): one openat2 beneath the vault's handle
// on Linux (openDirBeneath), else, and wherever that cannot decide (a
// link on the path), through os.Root as before.
func (v *Vault) openFolder(dir string) (*os.File, error) {
	if f, ok := v.openDirBeneath(dir); ok && f != nil {
		return f, nil
	}
	return v.root.Open(dir)
}

// writeFile replaces the file at p with data atomically (see replace),
// making its missing parent folders first. what names the steps for the
// crash test.
func (v *Vault) writeFile(p string, data []byte, what string) error {
	if err := v.mkdirs(path.Dir(p)); err != nil {
		return err
	}
	_, _, err := v.replace(p, data, what, 0, "")
	return err
}

// replace replaces the file at p, whose folder exists, with data: a
// temporary file beside it, written and fsynced, then (when want is not
// "") the re-check of p against want ("absent" or "sha256:<hex>"), then
// the rename over p (swapInto) and the folder fsynced. The file gets
// perm, or when perm is 0 the permission bits of the file it replaces
// (0644 for a new one). It returns the bytes and permission bits p held
// at the re-check. When p does not hold want, the error is a *mismatch,
// the temporary file is removed and p is untouched.
func (v *Vault) replace(p string, data []byte, what string, perm fs.FileMode, want string) ([]byte, fs.FileMode, error) {
	return v.replaceAs(join(path.Dir(p), randomName()), p, data, what, perm, want, nil)
}

// replaceAs is replace with the temporary file tmp (in p's folder), and
// before, when not nil, run once tmp is synced, right before the re-check
// of p: an error from it stops the write there, tmp removed.
func (v *Vault) replaceAs(tmp, p string, data []byte, what string, perm fs.FileMode, want string, before func() error) ([]byte, fs.FileMode, error) {
	dir := path.Dir(p)
	if err := v.createTemp(tmp, p, data, what, perm); err != nil {
		return nil, 0, err
	}
	ok := false
	defer func() {
		if !ok {
			v.root.Remove(tmp)
		}
	}()
	var err error
	if before != nil {
		if err := before(); err != nil {
			return nil, 0, err
		}
	}
	var prior []byte
	var priorPerm fs.FileMode
	var d *os.File // dir, open, when swapInto returns it
	if want == "" {
		err = v.root.Rename(tmp, p)
	} else {
		step("%s: re-checking", what)
		var seen *os.File
		var leased bool
		prior, priorPerm, seen, leased, err = v.recheck(p, want)
		if err != nil {
			return nil, 0, err
		}
		step("%s: re-checked", what)
		d, err = v.swapInto(tmp, p, want, seen, leased)
		if seen != nil {
			seen.Close()
		}
	}
	if err != nil {
		return nil, 0, err
	}
	ok = true
	step("%s: renamed", what)
	if err := v.syncFolder(d, dir); err != nil {
		return nil, 0, err
	}
	step("%s: folder synced", what)
	return prior, priorPerm, nil
}

// syncFolder fsyncs the folder dir, open as d (closed after), or when d
// is nil opened again by syncDir.
func (v *Vault) syncFolder(d *os.File, dir string) error {
	if d == nil {
		return v.syncDir(dir)
	}
	err := fsync(d)
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// createTemp writes data to the new temporary file tmp (in p's folder),
// synced and closed, with perm, or when perm is 0 the permission bits of
// p (0644 when p is no file). A failure removes tmp.
func (v *Vault) createTemp(tmp, p string, data []byte, what string, perm fs.FileMode) error {
	if perm == 0 {
		perm = 0o644
		if mode, ok := v.lstatBeneath(p); ok {
			if mode.IsRegular() {
				perm = mode.Perm()
			}
		} else if info, err := v.root.Stat(p); err == nil && info.Mode().IsRegular() {
			perm = info.Mode().Perm()
		}
	}
	f, beneath, err := v.createBeneath(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if !beneath {
		f, err = v.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	}
	if err != nil {
		return full(p, err)
	}
	step("%s: temp created", what)
	ok := false
	defer func() {
		if !ok {
			f.Close()
			v.root.Remove(tmp)
		}
	}()
	if err := writeTemp(f, data, p); err != nil {
		return full(p, err)
	}
	step("%s: temp written", what)
	if err := syncTemp(f, p); err != nil {
		return full(p, err)
	}
	step("%s: temp synced", what)
	if err := f.Close(); err != nil {
		return full(p, err)
	}
	ok = true
	return nil
}

// noSpace is a temporary file's write (its creation, its bytes, its
// fsync) that found the disk full (diskFull): nothing of it is left, and
// its target path is as it was. A live apply undoes what landed before
// and answers DISK_FULL (hostlogic.DiskFull).
type noSpace struct {
	path string // the file the temporary one was to become
	err  error
}

func (e *noSpace) Error() string { return e.err.Error() }
func (e *noSpace) Unwrap() error { return e.err }

// full is err, from the temporary file that was to become p, as a
// *noSpace when it says the disk is full.
func full(p string, err error) error {
	if diskFull(err) {
		return &noSpace{p, err}
	}
	return err
}

// diskHook, when set (by tests only), is asked before each write and
// fsync of a temporary file, with "write" or "sync" and the path the file
// is to become: an error it returns is that write's or fsync's (a full
// disk, injected).
var diskHook func(what, p string) error

// writeTemp writes data to f, the temporary file that is to become p.
func writeTemp(f *os.File, data []byte, p string) error {
	if diskHook != nil {
		if err := diskHook("write", p); err != nil {
			return err
		}
	}
	_, err := f.Write(data)
	return err
}

// syncTemp fsyncs f, the temporary file that is to become p.
func syncTemp(f *os.File, p string) error {
	if diskHook != nil {
		if err := diskHook("sync", p); err != nil {
			return err
		}
	}
	return fsync(f)
}

// recheck compares the file at p with want ("absent" or "sha256:<hex>")
// and, for a hash, returns its bytes, its permission bits and the file,
// open (the caller closes it), and whether Kessho holds a read lease on
// it (see lease). A difference is a *mismatch; so is a file another
// program holds open for writing, whose bytes are not yet what it means
// to save (an in-place save between its truncation and its write).
func (v *Vault) recheck(p, want string) ([]byte, fs.FileMode, *os.File, bool, error) {
	if want == plan.Absent {
		n, err := v.stat(p)
		if err != nil {
			return nil, 0, nil, false, err
		}
		if n.kind != absent {
			return nil, 0, nil, false, &mismatch{hostlogic.Exists(p)}
		}
		return nil, 0, nil, false, nil
	}
	f, ok := v.openBeneathRead(p)
	var err error
	if !ok {
		f, err = v.root.Open(p)
	}
	if absentErr(err) || escapes(err) {
		return nil, 0, nil, false, &mismatch{hostlogic.Changed(p)}
	}
	if err != nil {
		return nil, 0, nil, false, readErr(p, err)
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		f.Close()
		return nil, 0, nil, false, &mismatch{hostlogic.Changed(p)}
	}
	var b []byte
	if err == nil {
		b, err = readSized(f, info.Size())
	}
	if err != nil {
		f.Close()
		return nil, 0, nil, false, readErr(p, err)
	}
	if plan.Hash(b) != want {
		f.Close()
		return nil, 0, nil, false, &mismatch{hostlogic.Changed(p)}
	}
	leased, writer := lease(f)
	if writer {
		f.Close()
		return nil, 0, nil, false, &mismatch{hostlogic.Changed(p)}
	}
	return b, info.Mode().Perm(), f, leased, nil
}

// mkdirs makes folder p and its missing parents, fsyncing each new one
// into its parent.
func (v *Vault) mkdirs(p string) error {
	_, err := v.mkdirsMade(p)
	return err
}

// mkdirsMade is mkdirs, and returns the folders it made, parents first.
func (v *Vault) mkdirsMade(p string) ([]string, error) {
	var made []string
	if p == "." {
		return nil, nil
	}
	cur := "."
	for seg := range strings.SplitSeq(p, "/") {
		cur = join(cur, seg)
		err := v.root.Mkdir(cur, 0o755)
		if errors.Is(err, fs.ErrExist) {
			info, serr := v.root.Stat(cur)
			if serr != nil {
				return made, serr
			}
			if !info.IsDir() {
				return made, fmt.Errorf("mkdir %s: a file is in the way", cur)
			}
			continue
		}
		if err != nil {
			return made, err
		}
		made = append(made, cur)
		step("mkdir %s", cur)
		if err := v.syncDir(path.Dir(cur)); err != nil {
			return made, err
		}
		step("mkdir %s: parent synced", cur)
	}
	return made, nil
}
