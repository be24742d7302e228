package vaultfs

import (
	"errors"
	"fmt"
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
// Then Apply writes the journal (see the package documentation), applies
// the ops in order, recording each one done, and removes the journal:
//
//   - write: a temporary file beside the target (".kessho-tmp-<random>"),
//     written and fsynced, renamed over the target, folder fsynced; missing
//     parent folders are made first, each fsynced into its parent. An
//     overwritten file keeps its permission bits.
//   - delete: remove, fsync the folder.
//   - move: make the target's parent folders, rename (a file or a whole
//     folder), fsync both folders.
//   - mkdir: make the folder and its parents.
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
	return v.run(j, 0, 0)
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
			if x == op.To {
				x = op.From
				continue
			}
			if rest, ok := strings.CutPrefix(x, op.To+"/"); ok {
				x = op.From + "/" + rest
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
	if info.Mode()&fs.ModeSymlink != 0 {
		if info, err = v.root.Stat(x); err != nil {
			return node{kind: other}, nil
		}
	}
	switch {
	case info.IsDir():
		return node{kind: folder}, nil
	case info.Mode().IsRegular():
		return node{kind: file}, nil
	}
	return node{kind: other}, nil
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
				return conflict(x,
					x+" already exists, where Kessho expected nothing; nothing was written, run the call again",
					x+" existe déjà, là où Kessho n'attendait rien ; rien n'a été écrit, relancez l'appel")
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
				return conflict(d,
					d+" is a file where Kessho needs a folder; nothing was written, move the file away and run the call again",
					d+" est un fichier là où Kessho a besoin d'un dossier ; rien n'a été écrit, déplacez le fichier et relancez l'appel")
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
			if n, err = s.at(op.From, k); err == nil && n.kind != file && n.kind != folder {
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
					err = conflict(op.Path,
						op.Path+" is a file where Kessho needs a folder; nothing was written, move the file away and run the call again",
						op.Path+" est un fichier là où Kessho a besoin d'un dossier ; rien n'a été écrit, déplacez le fichier et relancez l'appel")
				}
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// run applies j's ops from index from on, skipping those whose target
// already holds the new state, recording each done after the first size
// bytes of the progress file, then removes the journal.
func (v *Vault) run(j *journal, from int, size int64) error {
	done, err := v.openDone(j.ID, size)
	if err != nil {
		return err
	}
	defer done.Close()
	for k := from; k < len(j.Plan); k++ {
		op := j.Plan[k]
		finished, err := v.holdsNew(op)
		if err != nil {
			return v.applyErr(j, k, err)
		}
		if !finished {
			if err := v.do(op); err != nil {
				return v.applyErr(j, k, err)
			}
		}
		if _, err := fmt.Fprintf(done, "%d\n", k); err != nil {
			return v.applyErr(j, k, err)
		}
		if err := done.Sync(); err != nil {
			return v.applyErr(j, k, err)
		}
		step("op %d: recorded done", k)
	}
	return v.removeJournal(j.ID)
}

func (v *Vault) applyErr(j *journal, k int, err error) error {
	if _, ok := fault.As(err); ok {
		return err
	}
	return fault.Internalf("applying op %d (%s) of plan %s: %v; the vault is half-way and the next call finishes the plan", k, j.Plan[k].Op, j.ID, err)
}

// holdsNew reports whether op's target already holds the state op makes.
func (v *Vault) holdsNew(op plan.Op) (bool, error) {
	switch op.Op {
	case plan.Write:
		n, err := v.stat(op.Path)
		if err != nil || n.kind != file {
			return false, err
		}
		b, err := v.root.ReadFile(op.Path)
		if err != nil {
			return false, readErr(op.Path, err)
		}
		return string(b) == *op.Text, nil
	case plan.Delete:
		n, err := v.stat(op.Path)
		return err == nil && n.kind == absent, err
	case plan.Move:
		from, err := v.stat(op.From)
		if err != nil {
			return false, err
		}
		to, err := v.stat(op.To)
		return err == nil && from.kind == absent && to.kind != absent, err
	case plan.Mkdir:
		n, err := v.stat(op.Path)
		return err == nil && n.kind == folder, err
	case plan.Check:
		return true, nil // nothing to make
	}
	return false, fmt.Errorf("unknown op %q", op.Op)
}

// do applies one op.
func (v *Vault) do(op plan.Op) error {
	switch op.Op {
	case plan.Check: // verified with every precondition; writes nothing
	case plan.Write:
		return v.writeFile(op.Path, []byte(*op.Text), "write "+op.Path)
	case plan.Delete:
		if err := v.root.Remove(op.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		step("delete %s: removed", op.Path)
		if err := v.syncDir(path.Dir(op.Path)); err != nil {
			return err
		}
		step("delete %s: folder synced", op.Path)
	case plan.Move:
		if err := v.mkdirs(path.Dir(op.To)); err != nil {
			return err
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
	case plan.Mkdir:
		return v.mkdirs(op.Path)
	}
	return nil
}

// writeFile replaces the file at p with data atomically: a temporary file
// beside it, fsynced, renamed over p, the folder fsynced. what names the
// steps for the crash test.
func (v *Vault) writeFile(p string, data []byte, what string) error {
	dir := path.Dir(p)
	if err := v.mkdirs(dir); err != nil {
		return err
	}
	perm := fs.FileMode(0o644)
	if info, err := v.root.Stat(p); err == nil && info.Mode().IsRegular() {
		perm = info.Mode().Perm()
	}
	tmp := join(dir, randomName())
	f, err := v.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
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
		return err
	}
	step("%s: temp written", what)
	if err := f.Sync(); err != nil {
		return err
	}
	step("%s: temp synced", what)
	if err := f.Close(); err != nil {
		return err
	}
	if err := v.root.Rename(tmp, p); err != nil {
		return err
	}
	ok = true
	step("%s: renamed", what)
	if err := v.syncDir(dir); err != nil {
		return err
	}
	step("%s: folder synced", what)
	return nil
}

// mkdirs makes folder p and its missing parents, fsyncing each new one
// into its parent.
func (v *Vault) mkdirs(p string) error {
	if p == "." {
		return nil
	}
	cur := "."
	for seg := range strings.SplitSeq(p, "/") {
		cur = join(cur, seg)
		err := v.root.Mkdir(cur, 0o755)
		if errors.Is(err, fs.ErrExist) {
			info, serr := v.root.Stat(cur)
			if serr != nil {
				return serr
			}
			if !info.IsDir() {
				return fmt.Errorf("mkdir %s: a file is in the way", cur)
			}
			continue
		}
		if err != nil {
			return err
		}
		step("mkdir %s", cur)
		if err := v.syncDir(path.Dir(cur)); err != nil {
			return err
		}
		step("mkdir %s: parent synced", cur)
	}
	return nil
}
