package search

import (
	"strconv"
	"strings"

	"github.com/kessho/kessho/core/wire"
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

// Carry is the index as it travels beside a request and its answer: see
// wire.Carry.
type Carry = wire.Carry

// DefaultBatch is the note text one round of a build asks for when the
// host names no bound: 4 MiB, so that a request stays far below the wasm
// engine's 64 MiB (its JSON escapes add a little; the stored index of a
// 50,000-note vault, sent once, is about 25 MB) and the instance's memory
// holds one batch of text at a time beside the index, whatever the
// vault's size. A 10,000-note vault (15 MB) is read in four batches.
const DefaultBatch = 4 << 20

// KeepBound is the most changes (Index.Unhanded: a note put or removed, a
// changed note counting twice) a core told to keep its index
// (Carry.Keep) holds without handing them back: 64, some ten archives of
// three notes each. Past it the delta, or the whole index, is handed back
// as without Keep, so the call that crosses it pays what the ones before
// it did not (a delta of 32 notes encodes in a fraction of a millisecond),
// and a host that loses the core reads at most some 32 notes again.
const KeepBound = 64

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
