//go:build linux

package vaultfs

import "golang.org/x/sys/unix"

// statNotes records the version of each note names in folder dir, with
// one fstatat a note relative to the folder opened once (a Root.Stat
// walks the path from the vault's root each time: 10,000 notes cost
// hundreds of milliseconds that way; statAt makes an interrupted one
// again). A link is followed, and reported (links); a note that is not a
// regular file is left out.
func (v *Vault) statNotes(dir string, names []string, into []noteVersion) (_ []noteVersion, links bool) {
	f, err := v.root.Open(dir)
	if err != nil {
		return v.statNotesAt(dir, names, into)
	}
	defer f.Close()
	fd := int(f.Fd())
	prefix := ""
	if dir != "." {
		prefix = dir + "/"
	}
	for _, n := range names {
		st, err := statAt(fd, n, unix.AT_SYMLINK_NOFOLLOW)
		if err != nil {
			continue
		}
		if st.Mode&unix.S_IFMT == unix.S_IFLNK {
			links = true
			if st, err = statAt(fd, n, 0); err != nil {
				continue
			}
		}
		if nv, ok := regularNote(prefix+n, &st); ok {
			into = append(into, nv)
		}
	}
	return into, links
}

// regularNote is the version of the note at p that st describes; ok is
// false when it is not a regular file.
func regularNote(p string, st *unix.Stat_t) (_ noteVersion, ok bool) {
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return noteVersion{}, false
	}
	sec, nsec := st.Mtim.Unix()
	return noteVersion{p, versionOf(st.Size, sec*1e9+nsec)}, true
}
