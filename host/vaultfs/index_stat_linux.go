//go:build linux

package vaultfs

import "golang.org/x/sys/unix"

// statNotes records the version of each note names in folder dir, with
// one fstatat a note relative to the folder opened once (a Root.Stat
// walks the path from the vault's root each time: 10,000 notes cost
// hundreds of milliseconds that way). A link is followed, and reported
// (links); a note that is not a regular file is left out.
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
		var st unix.Stat_t
		if unix.Fstatat(fd, n, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
			continue
		}
		if st.Mode&unix.S_IFMT == unix.S_IFLNK {
			links = true
			if unix.Fstatat(fd, n, &st, 0) != nil {
				continue
			}
		}
		if st.Mode&unix.S_IFMT != unix.S_IFREG {
			continue
		}
		sec, nsec := st.Mtim.Unix()
		into = append(into, noteVersion{prefix + n, versionOf(st.Size, sec*1e9+nsec)})
	}
	return into, links
}
