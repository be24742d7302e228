package vaultfs

import (
	"io/fs"
	"os"
)

// nameLookup is how a match of plain names finds entries by name
// (probeDirents): stat looks a name up in an open folder, exact reports
// whether what it finds is always the entry's own name (a case-sensitive
// folder), and name reads an entry's own name back (false when the
// platform cannot tell, and the folder is then listed). Tests replace it
// to stand for a case-insensitive disk.
type nameLookup struct {
	stat  func(d *os.File, dir, name string) (fs.FileInfo, error)
	exact func(d *os.File) bool
	name  func(d *os.File, dir, name string, info fs.FileInfo) (string, bool, error)
}

// lookups returns the vault's nameLookup: the platform's unless a test
// set one.
func (v *Vault) lookups() *nameLookup {
	if v.lookup != nil {
		return v.lookup
	}
	return &nameLookup{stat: v.lstatAt, exact: exactNames, name: entryName}
}

// probeDirents returns the entries of the open folder d among names,
// found by name rather than by listing d: what a folder of 50,000 entries
// answers in as many lookups as names. On a folder that may ignore case
// (macOS, Windows, a casefold folder on Linux), a name found so may be
// another entry's (Foo finds foo), so each found entry's own name is read
// back, and an entry named otherwise is not among names: the answer is
// the listing's, and a slug typed with another case is never matched
// silently. ok is false where the own name cannot be read back: the
// caller then lists d.
func (v *Vault) probeDirents(d *os.File, dir string, names []string) (out []dirent, ok bool, err error) {
	l := v.lookups()
	exact := l.exact(d)
	for _, name := range names {
		info, err := l.stat(d, dir, name)
		if absentErr(err) {
			continue
		}
		if err != nil {
			return nil, true, err
		}
		if !exact {
			own, known, err := l.name(d, dir, name, info)
			if err != nil || !known {
				return nil, false, err
			}
			if own != name {
				continue
			}
		}
		out = append(out, dirent{name: name, typ: info.Mode().Type(), info: info})
	}
	return out, true, nil
}
