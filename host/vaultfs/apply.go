package vaultfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"kessho/core/fault"
	"kessho/core/plan"
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
// Then Apply writes the journal (see the package documentation) and
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
//   - mkdir: re-check (nothing or a folder there), make the folder and
//     its parents.
//   - check: re-check.
//
// When a re-check fails, Apply stops there, undoes the ops that landed
// (last first, each only where its target still holds what the op left),
// removes the journal and returns CONFLICT naming the path: the other
// program's write survives and the vault is as before.
//
// An error while applying (a full disk, a permission) leaves the journal
// in place: the vault is then half-way, and the next Recover (the next
// call) finishes the plan.
func (v *Vault) Apply(l *Lock, p plan.Plan) error {
	if err := v.holds(l); err != nil {
		return err
	}
	if err := v.Recover(l); err != nil {
		return err
	}
	if err := p.Validate(); err != nil {
		return fault.Internalf("the module returned an invalid plan: %v", err)
	}
	if len(p) == 0 {
		return nil
	}
	if err := v.check(p); err != nil {
		return err
	}
	j, err := v.writeJournal(p)
	if err != nil {
		return err
	}
	return v.run(j, 0, 0, true)
}

// holds refuses a lock that is not v's or not held.
func (v *Vault) holds(l *Lock) error {
	if l == nil || l.v != v || l.f == nil {
		return fault.Internalf("changing the vault %s without holding its lock", v.dir)
	}
	return nil
}

// Kinds of node in the precondition check.
const (
	absent = iota
	file
	folder
	other // a special file, or a symbolic link Kessho cannot follow
)

type node struct {
	kind int
	link bool   // on disk, a symbolic link (kind is what it leads to)
	hash string // "sha256:<hex>" for a file the plan writes
	disk string // for a file on disk: its path now (before moves), to hash it
}

// sim answers "what will be at this path after the first k ops", by
// walking the ops backwards and falling back to the disk. Plans are short;
// each question is O(len(plan)).
type sim struct {
	v    *Vault
	p    plan.Plan
	disk map[string]node
}

// at returns what will be at x once ops [0,k) have run.
func (s *sim) at(x string, k int) (node, error) {
	for i := k - 1; i >= 0; i-- {
		op := s.p[i]
		switch op.Op {
		case plan.Write:
			if x == op.Path {
				return node{kind: file, hash: plan.HashString(*op.Text)}, nil
			}
			if under(op.Path, x) {
				return node{kind: folder}, nil
			}
			if under(x, op.Path) {
				return node{kind: absent}, nil
			}
		case plan.Delete:
			if x == op.Path || under(x, op.Path) {
				return node{kind: absent}, nil
			}
		case plan.Mkdir:
			if x == op.Path || under(op.Path, x) {
				return node{kind: folder}, nil
			}
		case plan.Move:
			if y, ok := beforeMove(op, x); ok {
				x = y
				continue
			}
			if x == op.From || under(x, op.From) {
				return node{kind: absent}, nil
			}
			if under(op.To, x) {
				return node{kind: folder}, nil
			}
		}
	}
	return s.onDisk(x)
}

// beforeMove returns where x was before move op ran, and true, when op
// moved it (x is op's target or under it).
func beforeMove(op plan.Op, x string) (string, bool) {
	if x == op.To {
		return op.From, true
	}
	if rest, ok := strings.CutPrefix(x, op.To+"/"); ok {
		return op.From + "/" + rest, true
	}
	return x, false
}

// link reports whether x will be a symbolic link once ops [0,k) have
// run: a link on disk that no earlier op replaced (a write or mkdir under
// it goes through it and leaves it a link).
func (s *sim) link(x string, k int) (bool, error) {
	for i := k - 1; i >= 0; i-- {
		op := s.p[i]
		switch op.Op {
		case plan.Write, plan.Delete:
			if x == op.Path || under(x, op.Path) {
				return false, nil
			}
		case plan.Move:
			if y, ok := beforeMove(op, x); ok {
				x = y
				continue
			}
			if x == op.From || under(x, op.From) {
				return false, nil
			}
		}
	}
	n, err := s.onDisk(x)
	return n.link, err
}

// onDisk returns what is at x now, following symbolic links inside the
// vault as Answer does.
func (s *sim) onDisk(x string) (node, error) {
	if n, ok := s.disk[x]; ok {
		return n, nil
	}
	n, err := s.v.stat(x)
	if err != nil {
		return node{}, err
	}
	n.disk = x
	s.disk[x] = n
	return n, nil
}

// stat classifies what is at x now.
func (v *Vault) stat(x string) (node, error) {
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

// hashOf returns n's hash, reading the disk for a file the plan did not
// write.
func (s *sim) hashOf(n node) (string, error) {
	if n.hash != "" {
		return n.hash, nil
	}
	b, err := s.v.root.ReadFile(n.disk)
	if err != nil {
		return "", readErr(n.disk, err)
	}
	return plan.Hash(b), nil
}

// exists is the CONFLICT of an "absent" precondition that fails.
func exists(x string) *fault.Error {
	return conflict(x,
		x+" already exists, where Kessho expected nothing; nothing was written, run the call again",
		x+" existe déjà, là où Kessho n'attendait rien ; rien n'a été écrit, relancez l'appel")
}

// fileInTheWay is the CONFLICT of a file where a plan needs a folder.
func fileInTheWay(x string) *fault.Error {
	return conflict(x,
		x+" is a file where Kessho needs a folder; nothing was written, move the file away and run the call again",
		x+" est un fichier là où Kessho a besoin d'un dossier ; rien n'a été écrit, déplacez le fichier et relancez l'appel")
}

// linkMoved refuses a move whose source is a symbolic link: renaming the
// link would leave the files where it points, and the plan's later writes
// under the new name would go through the link into them.
func linkMoved(x string) *fault.Error {
	return fault.New(fault.InvalidArgument, map[string]any{"path": x},
		x+" is a symbolic link; Kessho moves only real files and folders, never a link: replace the link with what it points to, then run the call again",
		x+" est un lien symbolique ; Kessho ne déplace que de vrais fichiers et dossiers, jamais un lien : remplacez le lien par ce vers quoi il pointe, puis relancez l'appel")
}

// check evaluates every op's precondition, in order, against the state
// the ops before it leave.
func (v *Vault) check(p plan.Plan) error {
	s := &sim{v: v, p: p, disk: map[string]node{}}
	is := func(x string, k int, want string) error {
		n, err := s.at(x, k)
		if err != nil {
			return err
		}
		if want == plan.Absent {
			if n.kind != absent {
				return exists(x)
			}
			return nil
		}
		if n.kind != file {
			return changed(x)
		}
		h, err := s.hashOf(n)
		if err != nil {
			return err
		}
		if h != want {
			return changed(x)
		}
		return nil
	}
	// room checks that x's parents are folders or nothing: an op that
	// makes them cannot go through a file.
	room := func(x string, k int) error {
		for d := path.Dir(x); d != "."; d = path.Dir(d) {
			n, err := s.at(d, k)
			if err != nil {
				return err
			}
			if n.kind == file || n.kind == other {
				return fileInTheWay(d)
			}
		}
		return nil
	}
	for k, op := range p {
		var err error
		switch op.Op {
		case plan.Write:
			if err = room(op.Path, k); err == nil {
				err = is(op.Path, k, op.Expect)
			}
		case plan.Delete, plan.Check:
			err = is(op.Path, k, op.Expect)
		case plan.Move:
			var n node
			var link bool
			if link, err = s.link(op.From, k); err == nil && link {
				err = linkMoved(op.From)
			} else if n, err = s.at(op.From, k); err == nil && n.kind != file && n.kind != folder {
				err = changed(op.From)
			}
			if err == nil {
				err = room(op.To, k)
			}
			if err == nil {
				err = is(op.To, k, plan.Absent)
			}
		case plan.Mkdir:
			if err = room(op.Path, k); err == nil {
				var n node
				if n, err = s.at(op.Path, k); err == nil && n.kind != absent && n.kind != folder {
					err = fileInTheWay(op.Path)
				}
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
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
			case at == atAfter || op.Op == plan.Check:
				// Landed already, or a check: it writes nothing, so it can
				// overwrite nothing, and the live call passed it.
				if err := record(done, k); err != nil {
					return v.applyErr(j, k, err)
				}
				continue
			case at == atNeither:
				return v.conflictCopy(j, k)
			}
		}
		l, err := v.land(op)
		if m, ok := err.(*mismatch); ok {
			if live {
				return v.abandon(j, append(ls, l), m)
			}
			v.removeEmpty(l.made)
			return v.conflictCopy(j, k)
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
	if err := done.Sync(); err != nil {
		return err
	}
	step("op %d: recorded done", k)
	return nil
}

func (v *Vault) applyErr(j *journal, k int, err error) error {
	if _, ok := fault.As(err); ok {
		return err
	}
	return fault.Internalf("applying op %d (%s) of plan %s: %v; the vault is half-way and the next call finishes the plan", k, j.Plan[k].Op, j.ID, err)
}

// Where an op's target stands, against the op's states.
const (
	atNeither = iota
	atBefore
	atAfter
)

// holdsState reports whether op's target holds st.After, else st.Before,
// else neither (journal version 2's states; see stateOf).
func (v *Vault) holdsState(op plan.Op, st opState) (int, error) {
	switch op.Op {
	case plan.Write, plan.Delete, plan.Check:
		h, err := v.hashAt(op.Path)
		if err != nil {
			return atNeither, err
		}
		switch h {
		case st.After:
			return atAfter, nil
		case st.Before:
			return atBefore, nil
		}
	case plan.Move:
		from, err := v.stat(op.From)
		if err != nil {
			return atNeither, err
		}
		to, err := v.stat(op.To)
		if err != nil {
			return atNeither, err
		}
		switch {
		case from.kind == absent && to.kind != absent:
			return atAfter, nil
		case (from.kind == file || from.kind == folder) && to.kind == absent:
			return atBefore, nil
		}
	case plan.Mkdir:
		n, err := v.stat(op.Path)
		if err != nil {
			return atNeither, err
		}
		switch n.kind {
		case folder:
			return atAfter, nil
		case absent:
			return atBefore, nil
		}
	}
	return atNeither, nil
}

// hashAt returns what is at x as a state: plan.Absent, the file's
// "sha256:<hex>", or "" for anything else (a folder, a special file).
func (v *Vault) hashAt(x string) (string, error) {
	b, _, n, err := v.readAt(x)
	switch {
	case err != nil:
		return "", err
	case n.kind == absent:
		return plan.Absent, nil
	case n.kind == file:
		return plan.Hash(b), nil
	}
	return "", nil
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
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, 0, n, readErr(x, err)
	}
	return b, info.Mode().Perm(), n, nil
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
// delete, check); the source exists and the target does not (move);
// nothing or a folder is there (mkdir). When it does not hold, land
// changes nothing but the folders it made (in the result) and returns a
// *mismatch.
func (v *Vault) land(op plan.Op) (landed, error) {
	l := landed{op: op}
	var err error
	// expect re-reads x and compares it with want, keeping the bytes.
	expect := func(x, want string) error {
		b, perm, n, err := v.readAt(x)
		if err != nil {
			return err
		}
		if want == plan.Absent {
			if n.kind != absent {
				return &mismatch{exists(x)}
			}
			return nil
		}
		if n.kind != file || plan.Hash(b) != want {
			return &mismatch{changed(x)}
		}
		l.prior, l.had, l.perm = b, true, perm
		return nil
	}
	switch op.Op {
	case plan.Check:
		step("check %s: re-checking", op.Path)
		err = expect(op.Path, op.Expect)
	case plan.Write:
		if l.made, err = v.mkdirsMade(path.Dir(op.Path)); err != nil {
			return l, err
		}
		l.prior, l.perm, err = v.replace(op.Path, []byte(*op.Text), "write "+op.Path, 0, op.Expect)
		l.had = op.Expect != plan.Absent
	case plan.Delete:
		step("delete %s: re-checking", op.Path)
		if err = expect(op.Path, op.Expect); err != nil {
			return l, err
		}
		if err := v.root.Remove(op.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return l, err
		}
		step("delete %s: removed", op.Path)
		if err := v.syncDir(path.Dir(op.Path)); err != nil {
			return l, err
		}
		step("delete %s: folder synced", op.Path)
	case plan.Move:
		if l.made, err = v.mkdirsMade(path.Dir(op.To)); err != nil {
			return l, err
		}
		step("move %s: re-checking", op.From)
		from, err := v.stat(op.From)
		if err != nil {
			return l, err
		}
		if from.kind != file && from.kind != folder {
			return l, &mismatch{changed(op.From)}
		}
		to, err := v.stat(op.To)
		if err != nil {
			return l, err
		}
		if to.kind != absent {
			return l, &mismatch{exists(op.To)}
		}
		if err := v.root.Rename(op.From, op.To); err != nil {
			return l, err
		}
		step("move %s: renamed", op.From)
		if err := v.syncDir(path.Dir(op.From)); err != nil {
			return l, err
		}
		step("move %s: source folder synced", op.From)
		if path.Dir(op.From) != path.Dir(op.To) {
			if err := v.syncDir(path.Dir(op.To)); err != nil {
				return l, err
			}
			step("move %s: target folder synced", op.From)
		}
	case plan.Mkdir:
		step("mkdir %s: re-checking", op.Path)
		n, err := v.stat(op.Path)
		if err != nil {
			return l, err
		}
		if n.kind != absent && n.kind != folder {
			return l, &mismatch{fileInTheWay(op.Path)}
		}
		l.made, err = v.mkdirsMade(op.Path)
		return l, err
	}
	return l, err
}

// abandon undoes the ops of a live call that landed (the last of ls is
// the op whose re-check failed: only the folders made for it are
// removed), removes the journal and returns m's CONFLICT. Each undo
// happens only when its target still holds what the op left; otherwise
// the target is left as it is (someone edited Kessho's fresh file: theirs
// is kept). An error while undoing leaves the journal: the next call
// rolls the plan forward, and the edited file becomes a recovery
// conflict.
//
// The progress goes first: a crash in the middle of the undos must not
// leave a progress that lists as done the ops already undone, or recovery
// would resume after them and leave the plan half-made. Without it,
// recovery looks at every op from the first (those undone hold their
// before-state and land again; the others hold their after-state).
func (v *Vault) abandon(j *journal, ls []landed, m *mismatch) error {
	if err := v.root.Remove(path.Join(journalDir, j.ID+".done")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fault.Internalf("forgetting the progress of plan %s after %v: %v; the next call finishes the plan", j.ID, m.err, err)
	}
	if err := v.syncDir(journalDir); err != nil {
		return fault.Internalf("syncing %s after %v: %v; the next call finishes the plan", journalDir, m.err, err)
	}
	step("abandon %s: progress removed", j.ID)
	for i := len(ls) - 1; i >= 0; i-- {
		if i < len(ls)-1 {
			if err := v.undo(ls[i]); err != nil {
				return fault.Internalf("undoing op %d (%s) of plan %s after %v: %v; the next call finishes the plan", i, ls[i].op.Op, j.ID, m.err, err)
			}
		}
		v.removeEmpty(ls[i].made)
	}
	if err := v.removeJournal(j.ID); err != nil {
		return err
	}
	return m.err
}

// undo reverts one landed op when its target holds what the op left.
func (v *Vault) undo(l landed) error {
	op := l.op
	switch op.Op {
	case plan.Write:
		h, err := v.hashAt(op.Path)
		if err != nil || h != plan.HashString(*op.Text) {
			return err
		}
		if l.had {
			_, _, err := v.replace(op.Path, l.prior, "undo write "+op.Path, l.perm, h)
			return ignoreMismatch(err)
		}
		if err := v.root.Remove(op.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		step("undo write %s: removed", op.Path)
		return v.syncDir(path.Dir(op.Path))
	case plan.Delete:
		n, err := v.stat(op.Path)
		if err != nil || n.kind != absent {
			return err
		}
		_, _, err = v.replace(op.Path, l.prior, "undo delete "+op.Path, l.perm, plan.Absent)
		return ignoreMismatch(err)
	case plan.Move:
		from, err := v.stat(op.From)
		if err != nil || from.kind != absent {
			return err
		}
		to, err := v.stat(op.To)
		if err != nil || to.kind == absent {
			return err
		}
		if err := v.root.Rename(op.To, op.From); err != nil {
			return err
		}
		step("undo move %s: renamed", op.From)
		if err := v.syncDir(path.Dir(op.To)); err != nil {
			return err
		}
		if path.Dir(op.From) != path.Dir(op.To) {
			return v.syncDir(path.Dir(op.From))
		}
	}
	return nil // mkdir: its folders go with l.made; check: nothing
}

// ignoreMismatch: an undo whose target changed since is left as it is.
func ignoreMismatch(err error) error {
	if _, ok := err.(*mismatch); ok {
		return nil
	}
	return err
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
	dir := path.Dir(p)
	if perm == 0 {
		perm = 0o644
		if info, err := v.root.Stat(p); err == nil && info.Mode().IsRegular() {
			perm = info.Mode().Perm()
		}
	}
	tmp := join(dir, randomName())
	f, err := v.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return nil, 0, err
	}
	step("%s: temp created", what)
	ok := false
	defer func() {
		if !ok {
			f.Close()
			v.root.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return nil, 0, err
	}
	step("%s: temp written", what)
	if err := f.Sync(); err != nil {
		return nil, 0, err
	}
	step("%s: temp synced", what)
	if err := f.Close(); err != nil {
		return nil, 0, err
	}
	var prior []byte
	var priorPerm fs.FileMode
	if want == "" {
		err = v.root.Rename(tmp, p)
	} else {
		step("%s: re-checking", what)
		var seen *os.File
		prior, priorPerm, seen, err = v.recheck(p, want)
		if err != nil {
			return nil, 0, err
		}
		err = v.swapInto(tmp, p, want, seen)
		if seen != nil {
			seen.Close()
		}
	}
	if err != nil {
		return nil, 0, err
	}
	ok = true
	step("%s: renamed", what)
	if err := v.syncDir(dir); err != nil {
		return nil, 0, err
	}
	step("%s: folder synced", what)
	return prior, priorPerm, nil
}

// recheck compares the file at p with want ("absent" or "sha256:<hex>")
// and, for a hash, returns its bytes, its permission bits and the file,
// open (the caller closes it). A difference is a *mismatch.
func (v *Vault) recheck(p, want string) ([]byte, fs.FileMode, *os.File, error) {
	if want == plan.Absent {
		n, err := v.stat(p)
		if err != nil {
			return nil, 0, nil, err
		}
		if n.kind != absent {
			return nil, 0, nil, &mismatch{exists(p)}
		}
		return nil, 0, nil, nil
	}
	f, err := v.root.Open(p)
	if absentErr(err) || escapes(err) {
		return nil, 0, nil, &mismatch{changed(p)}
	}
	if err != nil {
		return nil, 0, nil, readErr(p, err)
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		f.Close()
		return nil, 0, nil, &mismatch{changed(p)}
	}
	var b []byte
	if err == nil {
		b, err = io.ReadAll(f)
	}
	if err != nil {
		f.Close()
		return nil, 0, nil, readErr(p, err)
	}
	if plan.Hash(b) != want {
		f.Close()
		return nil, 0, nil, &mismatch{changed(p)}
	}
	return b, info.Mode().Perm(), f, nil
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
