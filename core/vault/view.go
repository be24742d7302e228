// Package vault knows the vault's layout (SPEC section 1), its slug rules,
// and the View through which tools read it.
//
// The core never touches a disk. A View answers reads from what the host
// put in the request; a read it cannot answer is recorded as a need and
// fails with ErrNeed. core.Core.Handle then answers {"need": …}, the host reads
// those paths and calls again with the request grown, and the tool runs
// again from the start (tools are deterministic, so reruns are free).
package vault

import (
	"errors"
	"path"
	"sort"
	"strings"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/wire"
)

// ErrNeed is returned by a View read that the request cannot answer yet.
// Tools return it as any other error; core.Core.Handle turns it into a need.
var ErrNeed = errors.New("vault: need more of the vault")

// ErrNotExist is returned when the host said the path does not exist.
var ErrNotExist = errors.New("vault: no such file or folder")

// The messages a View reads from and records, defined in core/wire.
type (
	// File is a file as the host sends it (wire.File).
	File = wire.File
	// Head is the start of a file as a host sends it (wire.Head).
	Head = wire.Head
	// Snapshot is the part of the vault the host has sent so far
	// (wire.Snapshot).
	Snapshot = wire.Snapshot
	// Tree asks for a whole folder (wire.Tree).
	Tree = wire.Tree
	// Match asks for the entries of a folder that patterns select
	// (wire.Match).
	Match = wire.Match
	// Need is what a tool asked for and the request did not hold
	// (wire.Need).
	Need = wire.Need
)

// MaxHeadBytes is the most of a file a Head holds (wire.MaxHeadBytes).
const MaxHeadBytes = wire.MaxHeadBytes

// AskSearch records the need of the notes' versions ("notes"), of them
// and the host's stored search index ("index"), or of that index alone
// ("stored"), and returns ErrNeed.
func (v *View) AskSearch(what string) error {
	v.need.Search = what
	return ErrNeed
}

// View reads a Snapshot and records what it lacks.
type View struct {
	snap    Snapshot
	missing map[string]bool
	need    Need
	seen    map[string]bool // needs already recorded, by kind+path
	shown   map[string][]string
}

// NewView returns a View over snap.
func NewView(snap Snapshot) *View {
	m := make(map[string]bool, len(snap.Missing))
	for _, p := range snap.Missing {
		m[p] = true
	}
	return &View{snap: snap, missing: m, seen: map[string]bool{}}
}

// Need returns what the tool asked for and did not get, in the order asked.
func (v *View) Need() Need { return v.need }

func (v *View) wantFile(p string) {
	if !v.seen["f"+p] {
		v.seen["f"+p] = true
		v.need.Files = append(v.need.Files, p)
	}
}

func (v *View) wantHead(p string) {
	if !v.seen["h"+p] {
		v.seen["h"+p] = true
		v.need.Heads = append(v.need.Heads, p)
	}
}

// knownHead reports whether the path is answered (a head, or missing).
func (v *View) knownHead(p string) bool {
	_, ok := v.snap.Heads[p]
	return ok || v.missingAt(p)
}

// ReadHead returns the head of the file at p (Head): a Content whose
// Text is the head, and the whole file's size. Its only error is
// ErrNeed, when the request does not answer yet; a missing file is a
// Content that does not exist. A head has no Expect: no plan may rely
// on a file Kessho read part of.
func (v *View) ReadHead(p string) (Content, int64, error) {
	h, ok := v.snap.Heads[p]
	if !ok {
		if v.missingAt(p) {
			return Content{Path: p, Expect: absent}, 0, nil
		}
		v.wantHead(p)
		return Content{}, 0, ErrNeed
	}
	c := Content{Path: p, Exists: true}
	if h.NotUTF8 || h.Text == nil {
		c.NotUTF8 = true
	} else {
		c.Text = *h.Text
	}
	return c, h.Size, nil
}

func (v *View) wantDir(p string) {
	if !v.seen["d"+p] {
		v.seen["d"+p] = true
		v.need.Dirs = append(v.need.Dirs, p)
	}
}

func (v *View) wantTree(t Tree) {
	key := "t" + t.Root
	if t.Content {
		key = "T" + t.Root
	}
	if !v.seen[key] {
		v.seen[key] = true
		v.need.Trees = append(v.need.Trees, t)
	}
}

// Holds reports whether the request answers the file at p (its text, or
// that it is missing), or its head when head is set, without asking for
// it: a search index's build indexes the batch the host sent, whatever
// bound the host set for it.
func (v *View) Holds(p string, head bool) bool {
	if head {
		return v.knownHead(p)
	}
	return v.knownFile(p)
}

// known reports whether the path is answered (present or missing) as a file.
func (v *View) knownFile(p string) bool {
	_, ok := v.snap.Files[p]
	return ok || v.missingAt(p)
}

// missingAt reports whether p or one of its parents was said not to exist.
func (v *View) missingAt(p string) bool {
	for q := p; q != "." && q != ""; q = path.Dir(q) {
		if v.missing[q] {
			return true
		}
	}
	return false
}

// Ask records, in one call, every file, folder, tree and match of n that
// the request does not answer yet, and returns ErrNeed when there is any.
// Tools call it first with everything they will certainly read, so that
// one round trip brings it all; the reads that follow then succeed.
func (v *View) Ask(n Need) error {
	lacking := false
	for _, f := range n.Files {
		if !v.knownFile(f) {
			v.wantFile(f)
			lacking = true
		}
	}
	for _, f := range n.Heads {
		if !v.knownHead(f) {
			v.wantHead(f)
			lacking = true
		}
	}
	for _, d := range n.Dirs {
		if _, ok := v.dir(d); !ok && !v.missingAt(d) {
			v.wantDir(d)
			lacking = true
		}
	}
	for _, t := range n.Trees {
		if _, err := v.tree(t); err != nil {
			lacking = true
		}
	}
	for _, m := range n.Matches {
		if _, err := v.Match(m); errors.Is(err, ErrNeed) {
			lacking = true
		}
	}
	if lacking {
		return ErrNeed
	}
	return nil
}

// absent is the precondition of a file that does not exist; it is
// plan.Absent (the plan package names it for plans).
const absent = "absent"

// expect returns the precondition a plan puts on a file whose host-given
// SHA-256 is hex: "sha256:<hex>". It is the one spelling of a hash in the
// core's API; the snapshot's bare hex stays on the wire only.
func expect(hex string) string { return "sha256:" + hex }

// Content is what a read found at a path: whether a file is there, whether
// it is text, the text, and the precondition a plan that writes, deletes
// or checks the file must carry (Expect: "sha256:<hex>" of its bytes, or
// "absent").
type Content struct {
	Path    string
	Exists  bool
	NotUTF8 bool   // the file exists but is not UTF-8: no Text
	Text    string // the file's text when it exists and is UTF-8
	Expect  string
}

// Textual returns the text, or FILE_NOT_UTF8 for a file that is not UTF-8
// (a missing file gives "": callers check Exists first).
func (c Content) Textual() (string, error) {
	if c.NotUTF8 {
		return "", notUTF8(c.Path)
	}
	return c.Text, nil
}

// notUTF8 is FILE_NOT_UTF8 for the file at p.
func notUTF8(p string) error {
	return fault.New(fault.FileNotUTF8, map[string]any{"path": p},
		"file "+p+" is not valid UTF-8 text; Kessho only edits UTF-8 notes, fix or convert it first",
		"le fichier "+p+" n'est pas du texte UTF-8 valide ; Kessho n'édite que des notes UTF-8, corrigez-le ou convertissez-le d'abord")
}

// Read returns what is at p. Its only error is ErrNeed, when the request
// does not answer yet: a missing file and one that is not UTF-8 are
// answers, said by Content.
func (v *View) Read(p string) (Content, error) {
	f, ok := v.snap.Files[p]
	if !ok {
		if v.missingAt(p) {
			return Content{Path: p, Expect: absent}, nil
		}
		v.wantFile(p)
		return Content{}, ErrNeed
	}
	c := Content{Path: p, Exists: true, Expect: expect(f.SHA256)}
	if f.NotUTF8 || f.Text == nil {
		c.NotUTF8 = true
	} else {
		c.Text = *f.Text
	}
	return c, nil
}

// List returns the sorted entries of folder p ("." is the vault's root),
// sub-folders with a trailing "/".
func (v *View) List(p string) ([]string, error) {
	if e, ok := v.dir(p); ok {
		return e, nil
	}
	if v.missingAt(p) {
		return nil, ErrNotExist
	}
	v.wantDir(p)
	return nil, ErrNeed
}

// dir is folder p's entries as the request gives them: its listing in
// Dirs, or its raw one in RawDirs as Shown shows it.
func (v *View) dir(p string) ([]string, bool) {
	if e, ok := v.snap.Dirs[p]; ok {
		return e, true
	}
	raw, ok := v.snap.RawDirs[p]
	if !ok {
		return nil, false
	}
	return v.show("d"+p, raw, nil), true
}

// show is a raw listing as wire.Shown shows it with patterns, made once a
// view (by key: "d" and a folder, or "m" and a match's key).
func (v *View) show(key string, raw, patterns []string) []string {
	if e, ok := v.shown[key]; ok {
		return e
	}
	if v.shown == nil {
		v.shown = map[string][]string{}
	}
	e := wire.Shown(raw, patterns)
	v.shown[key] = e
	return e
}

// Join joins a folder ("." for the vault's root) and a name.
func Join(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}

// Match returns the entries of m.Dir that m selects (see Match), sorted,
// sub-folders with a trailing "/"; ErrNotExist when the folder is missing.
// A full listing of the folder in the request answers it too.
func (v *View) Match(m Match) ([]string, error) {
	if e, ok := v.snap.Matches[m.Key()]; ok {
		return e, nil
	}
	if raw, ok := v.snap.RawMatches[m.Key()]; ok {
		return v.show("m"+m.Key(), raw, m.Patterns), nil
	}
	if e, ok := v.dir(m.Dir); ok {
		var out []string
		for _, name := range e {
			if m.Selects(strings.TrimSuffix(name, "/")) {
				out = append(out, name)
			}
		}
		return out, nil
	}
	if v.missingAt(m.Dir) {
		return nil, ErrNotExist
	}
	if !v.seen["m"+m.Key()] {
		v.seen["m"+m.Key()] = true
		v.need.Matches = append(v.need.Matches, m)
	}
	return nil, ErrNeed
}

// Walk returns every file path under root, sorted, reading only folder
// listings (a tree need without content). A missing root gives no files.
func (v *View) Walk(root string) ([]string, error) {
	return v.tree(Tree{Root: root})
}

// tree walks t's listings; it records t as a need when one is lacking.
func (v *View) tree(t Tree) ([]string, error) {
	if v.missingAt(t.Root) {
		return nil, nil
	}
	var files []string
	complete := true
	var walk func(dir string)
	walk = func(dir string) {
		entries, ok := v.dir(dir)
		if !ok {
			complete = false
			return
		}
		for _, e := range entries {
			if sub, isDir := strings.CutSuffix(e, "/"); isDir {
				walk(Join(dir, sub))
			} else {
				f := Join(dir, e)
				complete = complete && (!t.Content || v.knownFile(f))
				files = append(files, f)
			}
		}
	}
	walk(t.Root)
	if !complete {
		v.wantTree(t)
		return nil, ErrNeed
	}
	sort.Strings(files)
	return files, nil
}

// ReadText is Read for a file the tool edits as text: a file that exists
// but is not UTF-8 is refused with FILE_NOT_UTF8; a missing one is a
// Content that does not exist.
func (v *View) ReadText(p string) (Content, error) {
	c, err := v.Read(p)
	if err == nil && c.NotUTF8 {
		err = notUTF8(p)
	}
	return c, err
}
