package search

import (
	"bytes"
	"strconv"
	"strings"
)

// Tool is the name of the tool that searches: hosts that keep an index
// send it a Carry.
const Tool = "mem_search"

// recallTool is mem_recall, which finds through the index the principles
// and goals that link to a project: hosts that keep an index send it a
// Carry too.
const recallTool = "mem_recall"

// Carries reports whether a host that keeps the index sends a Carry with
// a call of tool (Tool or mem_recall).
func Carries(tool string) bool { return tool == Tool || tool == recallTool }

// Carry is the index as it travels beside a request and its answer
// (core.Request.Search, core.Answer.Search), for a host that keeps it.
//
// With a mem_search or mem_recall request (Carries) the host sends
// Listing, a digest of every note's path and version (its "size:mtime"),
// and ID, the id of the index it stored last. When the running core's
// index is already up to date with that listing, nothing more travels.
// When the ID records that very listing (IDListing: the notes did not
// change since the stored index was built), the core needs "search":
// "stored", and the host sends again with Index alone, the stored bytes
// after the JSON, no versions. Otherwise the core needs "search":
// "notes" (its index descends from the stored one: the same ID) or
// "index", and the host sends again with Full set, Notes (every note's
// path and version, dot-folders left out) and, for "index", Index, the
// stored bytes, after the request's JSON (Join), with that one round
// only: the core keeps them for the call's later rounds. The core then
// reads only the notes whose version changed, and a success whose index
// changed answers Index and ID, which the host stores.
//
// The notes to read are asked for in batches of at most Batch bytes of
// note text (their sizes read from their versions; DefaultBatch when 0;
// a note larger than that is a batch alone). Once the first batch is
// indexed, each need for the next one holds "search": "batch" and comes
// with an ID: with the index built so far after the JSON, as a success
// carries it, after the first batch and then every few once the index is
// large (core/tools.handBack), or alone, naming the index the host stored
// last. The host stores the bytes if any, forgets the files it sent (they
// are indexed), and sends the next request with what the need names
// alone. A call cut short (its deadline, a crash, the instance lost)
// loses at most what was indexed since the last hand-back: the next one
// resumes from the stored index. See docs/HOSTS.md, section 6.
//
// A host that sends no Carry loses nothing but speed: the core reads the
// whole vault and keys notes by their SHA-256.
type Carry struct {
	Listing string            `json:"listing,omitempty"`
	ID      string            `json:"id,omitempty"`
	Full    bool              `json:"full,omitempty"`
	Notes   map[string]string `json:"notes,omitempty"`
	// Batch bounds the note text one round asks for, in bytes (0:
	// DefaultBatch). Tests lower it to build a small vault in batches.
	Batch int64 `json:"batch,omitempty"`
	// Unkept names the place that keeps the host from storing the index
	// (a .kessho/index that is a symbolic link or not a folder): the
	// search still answers, its index rebuilt each time, and says so.
	Unkept string `json:"unkept,omitempty"`
	// Index travels after the JSON, not in it (Join, Split): 5 MB of
	// base64 at 10,000 notes cost more than the whole search.
	Index []byte `json:"-"`
}

// DefaultBatch is the note text one round of a build asks for when the
// host names no bound: 4 MiB, so that a request stays far below the wasm
// engine's 64 MiB (its JSON escapes add a little; the stored index of a
// 50,000-note vault, sent once, is about 25 MB) and the instance's memory
// holds one batch of text at a time beside the index, whatever the
// vault's size. A 10,000-note vault (15 MB) is read in four batches.
const DefaultBatch = 4 << 20

// Sep ends the JSON of a request or an answer when index bytes follow it:
// a NUL, which no JSON text holds (a string escapes it, and nothing else
// may carry it).
const Sep = 0

// Join returns text followed, when index is not empty, by Sep and index:
// a request or an answer with its index beside it.
func Join(text, index []byte) []byte {
	if len(index) == 0 {
		return text
	}
	return append(append(append(make([]byte, 0, len(text)+1+len(index)), text...), Sep), index...)
}

// Prepend returns what Join(text, index) returns, made in index's own
// buffer when its spare capacity holds text and Sep (Index.EncodeRoom):
// index's bytes are moved after them, and index must not be read again.
// An index handed back to the host is then one allocation of its size in
// the core, not two.
func Prepend(text, index []byte) []byte {
	n := len(text) + 1
	if len(index) == 0 || cap(index)-len(index) < n {
		return Join(text, index)
	}
	out := index[:n+len(index)]
	copy(out[n:], index) // copy moves overlapping bytes as memmove does
	copy(out, text)
	out[n-1] = Sep
	return out
}

// Split cuts what Join made: the JSON text, and the bytes after Sep (nil
// when there is none).
func Split(b []byte) (text, index []byte) {
	if i := bytes.IndexByte(b, Sep); i >= 0 {
		return b[:i], b[i+1:]
	}
	return b, nil
}

// MaxIndexBytes is the largest index a host reads: the wasm engine's
// request bound (64 MiB), past which an index could never be sent to the
// module anyway. A 50,000-note vault's index is about 25 MB.
const MaxIndexBytes = 64 << 20

// IndexBound is the most bytes a valid index of notes (every note's path
// and version, "size:mtime", as Carry.Notes) can take, at most
// MaxIndexBytes: 64 KiB, then 512 bytes, 16 per byte of its path and 16
// per byte of its text (at most MaxNoteBytes of it) a note. An index
// keeps, per word of a note, a posting of a few bytes and at most one
// entry of the term dictionary (the term, its length, two counts), and a
// few strings per note (its path, title, kind, zone, slug, date and key):
// a real vault's index is a third of its text. A host refuses to read a
// stored index larger than that (a file grown by accident, another
// program's, a stale one of a vault since emptied): the core rebuilds it,
// where reading it whole cost memory and time for nothing, and from 64
// MiB on made every search fail. The one index this bound may refuse
// that was valid is one of notes whose frontmatter repeats a YAML anchor
// in its aliases (each alias a phrase of the anchor's words): it is
// rebuilt, slower, never wrong.
func IndexBound(notes map[string]string) int64 {
	n := int64(64 << 10)
	for p, v := range notes {
		n += 512 + 16*int64(len(p)) + 16*min(VersionSize(v), MaxNoteBytes)
		if n >= MaxIndexBytes {
			return MaxIndexBytes
		}
	}
	return n
}

// VersionSize is the size a note's version names ("size:mtime"); 0 when
// it names none (a "sha256:<hex>" key, a version without a colon).
func VersionSize(version string) int64 {
	size, _, ok := strings.Cut(version, ":")
	if !ok {
		return 0
	}
	n, _ := strconv.ParseInt(size, 10, 64)
	return max(n, 0)
}
