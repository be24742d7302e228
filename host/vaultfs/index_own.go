package vaultfs

import (
	"encoding/binary"
	"encoding/hex"
	"path"
	"strings"

	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/search"
	"github.com/kessho/kessho/core/vault"
)

// NoteChanges returns, for the listing SearchNotes gave last, the one it
// gave before and every note's version that changed between them through
// the Vault's own writes ("" for a note gone); ok is false when a walk
// came between (an outside change, or no listing kept).
func (v *Vault) NoteChanges() (since string, changes map[string]string, ok bool) {
	c := &v.notes
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.since, c.changes, c.known
}

// handOut records that a search is given the kept listing: what changed
// since the one given before is what NoteChanges answers now.
func (c *listingCache) handOut() {
	c.since, c.changes, c.known = c.given, c.pending, c.given != ""
	c.given, c.pending = c.listing, nil
}

// applied keeps the listing through the Vault's own plan p, applied
// (ok) or not: when every event the watches queued since is of a path p
// names or of a temporary file beside one (watcher.only), the notes p
// names are stat'ed and the listing changed by them alone; anything
// else (an event of another file, a folder made or moved, a note that is
// now a link, a plan that failed half-way) drops the listing, and the
// next search walks.
func (c *listingCache) applied(v *Vault, p plan.Plan, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.valid {
		return
	}
	named, dirs := map[string]bool{}, map[string]bool{}
	for _, op := range p {
		for _, q := range []string{op.Path, op.From, op.To} {
			if q != "" {
				named[q], dirs[path.Dir(q)] = true, true
			}
		}
	}
	mine := func(dir, name string) bool {
		return named[vault.Join(dir, name)] || dirs[dir] && strings.HasPrefix(name, tempPrefix)
	}
	if !ok || !c.w.only(mine) {
		c.valid, c.known, c.given, c.pending = false, false, "", nil
		return
	}
	sum, good := parseSum(c.listing)
	for q := range named {
		good = good && c.patch(v, q, &sum)
	}
	if !good {
		c.valid, c.known, c.given, c.pending = false, false, "", nil
		return
	}
	c.listing = sum.String()
}

// patch brings the kept version of the note at q (when q is one) up to
// date with the file there, and sum with it; false when q is neither a
// regular file nor absent.
func (c *listingCache) patch(v *Vault, q string, sum *listingSum) bool {
	if !search.IsNote(q) {
		return true
	}
	now := ""
	switch info, err := v.root.Lstat(q); {
	case absentErr(err):
	case err != nil || !info.Mode().IsRegular():
		return false
	default:
		now = version(info)
	}
	old, had := c.notes[q]
	if old == now {
		return true // unchanged, or neither listed nor there
	}
	if had {
		sum.add(nil, q, old, ^uint64(0))
		delete(c.notes, q)
	}
	if now != "" {
		sum.add(nil, q, now, 1)
		c.notes[q] = now
	}
	if c.pending == nil {
		c.pending = map[string]string{}
	}
	c.pending[q] = now
	return true
}

// parseSum reads a listing's digest (listingSum.String).
func parseSum(listing string) (listingSum, bool) {
	var s listingSum
	b, err := hex.DecodeString(listing)
	if err != nil || len(b) != 32 {
		return s, false
	}
	for i := range s {
		s[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return s, true
}
