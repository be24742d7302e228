// Package vault knows the vault's layout (SPEC section 1), its slug rules,
// and the View through which tools read it.
//
// The core never touches a disk. A View answers reads from what the host
// put in the request; a read it cannot answer is recorded as a need and
// fails with ErrNeed. core.Handle then answers {"need": …}, the host reads
// those paths and calls again with the request grown, and the tool runs
// again from the start (tools are deterministic, so reruns are free).
package vault

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"kessho/core/fault"
)

// ErrNeed is returned by a View read that the request cannot answer yet.
// Tools return it as any other error; core.Handle turns it into a need.
var ErrNeed = errors.New("vault: need more of the vault")

// ErrNotExist is returned when the host said the path does not exist.
var ErrNotExist = errors.New("vault: no such file or folder")

// File is a file as the host sends it: the SHA-256 of its exact bytes and,
// when they are valid UTF-8, the text. A file that is not UTF-8 comes with
// NotUTF8 set and no text: Kessho never edits it (JSON would mangle it).
type File struct {
	SHA256  string  `json:"sha256"`
	Text    *string `json:"text,omitempty"`
	NotUTF8 bool    `json:"not_utf8,omitempty"`
}

// FileOf returns content as a host sends it: its SHA-256 and, when it is
// valid UTF-8, its text.
func FileOf(content string) File {
	sum := sha256.Sum256([]byte(content))
	f := File{SHA256: hex.EncodeToString(sum[:])}
	if utf8.ValidString(content) {
		f.Text = &content
	} else {
		f.NotUTF8 = true
	}
	return f
}

// Tree asks for a whole folder: every folder under Root (Root included)
// listed in Snapshot.Dirs and, with Content, every file in Snapshot.Files.
type Tree struct {
	Root    string `json:"root"`
	Content bool   `json:"content"`
}

// Match asks for the entries of folder Dir that its patterns select: a
// pattern selects the names it matches (path.Match syntax, on the bare
// name), and a pattern written "!p" selects the names p does not match;
// an entry is listed when any pattern selects it. It lets a tool that needs
// a few names of a large folder (one week's archives among years of them)
// ask for those alone, so the request does not carry the whole listing.
type Match struct {
	Dir      string   `json:"dir"`
	Patterns []string `json:"patterns"`
}

// Key is the match's key in Snapshot.Matches: the folder and the patterns,
// each on its own line.
func (m Match) Key() string { return m.Dir + "\n" + strings.Join(m.Patterns, "\n") }

// Selects reports whether the match lists the entry name (without its
// trailing "/"). A malformed pattern selects nothing.
func (m Match) Selects(name string) bool {
	for _, p := range m.Patterns {
		neg := strings.HasPrefix(p, "!")
		ok, err := path.Match(strings.TrimPrefix(p, "!"), name)
		if err == nil && ok != neg {
			return true
		}
	}
	return false
}

// Need is what a tool asked for and the request did not hold.
type Need struct {
	Files   []string `json:"files,omitempty"`
	Dirs    []string `json:"dirs,omitempty"`
	Trees   []Tree   `json:"trees,omitempty"`
	Matches []Match  `json:"matches,omitempty"`
}

// Empty reports whether nothing is needed.
func (n Need) Empty() bool { return len(n.Files)+len(n.Dirs)+len(n.Trees)+len(n.Matches) == 0 }

// Snapshot is the part of the vault the host has sent so far.
//
// Files maps vault-relative paths to their content. Missing lists paths
// (files or folders) that do not exist. Dirs maps a folder to its entries,
// sorted, sub-folders written with a trailing "/"; dot-entries are never
// listed. Matches maps Match.Key() to the entries the match selects, in the
// form of Dirs (a missing folder goes into Missing).
type Snapshot struct {
	Files   map[string]File     `json:"files,omitempty"`
	Missing []string            `json:"missing,omitempty"`
	Dirs    map[string][]string `json:"dirs,omitempty"`
	Matches map[string][]string `json:"matches,omitempty"`
}

// View reads a Snapshot and records what it lacks.
type View struct {
	snap    Snapshot
	missing map[string]bool
	need    Need
	seen    map[string]bool // needs already recorded, by kind+path
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

// Prefetch records every file and folder of the lists that the request
// does not answer yet, and returns ErrNeed when there is any. Tools call it
// first with everything they will certainly read, so that one round trip
// brings it all.
func (v *View) Prefetch(files, dirs []string) error {
	lacking := false
	for _, f := range files {
		if !v.knownFile(f) {
			v.wantFile(f)
			lacking = true
		}
	}
	for _, d := range dirs {
		if _, ok := v.snap.Dirs[d]; !ok && !v.missingAt(d) {
			v.wantDir(d)
			lacking = true
		}
	}
	if lacking {
		return ErrNeed
	}
	return nil
}

// Read returns the file at p: ErrNotExist when the host said it does not
// exist, ErrNeed when the request does not answer yet, and FILE_NOT_UTF8
// when it is not text.
func (v *View) Read(p string) (text, sha string, err error) {
	f, ok := v.snap.Files[p]
	if !ok {
		if v.missingAt(p) {
			return "", "", ErrNotExist
		}
		v.wantFile(p)
		return "", "", ErrNeed
	}
	if f.NotUTF8 || f.Text == nil {
		return "", "", fault.New(fault.FileNotUTF8, map[string]any{"path": p},
			"file "+p+" is not valid UTF-8 text; Kessho only edits UTF-8 notes, fix or convert it first",
			"le fichier "+p+" n'est pas du texte UTF-8 valide ; Kessho n'édite que des notes UTF-8, corrigez-le ou convertissez-le d'abord")
	}
	return *f.Text, "sha256:" + f.SHA256, nil
}

// Exists reports whether a file or folder exists at p, as far as the
// request tells; it records a need for p's parent listing otherwise.
func (v *View) Exists(p string) (bool, error) {
	if _, ok := v.snap.Files[p]; ok {
		return true, nil
	}
	if _, ok := v.snap.Dirs[p]; ok {
		return true, nil
	}
	if v.missingAt(p) {
		return false, nil
	}
	dir, name := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "."
	}
	entries, err := v.List(dir)
	if errors.Is(err, ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return slices.Contains(entries, name) || slices.Contains(entries, name+"/"), nil
}

// List returns the sorted entries of folder p ("." is the vault's root),
// sub-folders with a trailing "/".
func (v *View) List(p string) ([]string, error) {
	if e, ok := v.snap.Dirs[p]; ok {
		return e, nil
	}
	if v.missingAt(p) {
		return nil, ErrNotExist
	}
	v.wantDir(p)
	return nil, ErrNeed
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
	if e, ok := v.snap.Dirs[m.Dir]; ok {
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
	if v.missingAt(root) {
		return nil, nil
	}
	var files []string
	complete := true
	var walk func(dir string)
	walk = func(dir string) {
		entries, ok := v.snap.Dirs[dir]
		if !ok {
			complete = false
			return
		}
		for _, e := range entries {
			if sub, isDir := strings.CutSuffix(e, "/"); isDir {
				walk(Join(dir, sub))
			} else {
				files = append(files, Join(dir, e))
			}
		}
	}
	walk(root)
	if !complete {
		v.wantTree(Tree{Root: root})
		return nil, ErrNeed
	}
	sort.Strings(files)
	return files, nil
}

// SHA256 returns the hex SHA-256 the host gave for p ("" when unknown):
// the precondition for a file sent without text (not UTF-8).
func (v *View) SHA256(p string) string { return v.snap.Files[p].SHA256 }
