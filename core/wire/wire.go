// Package wire holds every message that crosses between Kessho's core and
// a host, as Go types: the request a host sends (Request, with the part of
// the vault read so far, Snapshot, and the search index's Carry), the
// answer the core gives (Answer: a Need, or an outcome with its plan and
// conflict code, or a refusal's ErrorBody), and their one codec
// (CompactArgs and EncodeCompacted, DecodeRequest, EncodeAnswer and
// DecodeSuccess).
//
// It is a leaf: it imports the standard library and core/plan, itself a
// leaf (the plan's ops and their checks, which the core and every host
// share), and nothing of the tools. A host's packages (the disk's
// host/vaultfs, the decisions of core/hostlogic) depend on it, not on the
// core, so that the disk never links the tools.
//
// core.Core.Handle documents the protocol; the older names (core.Request,
// core.Answer, core.ErrorBody, vault.Snapshot, vault.Need, search.Carry…)
// are aliases of these.
package wire

import (
	"encoding/json"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/kessho/kessho/core/plan"
)

// Request is what a host sends to the core (core.Core.Handle).
type Request struct {
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args,omitempty"`
	Now  string          `json:"now"`
	TZ   string          `json:"tz,omitempty"`
	Lang string          `json:"lang,omitempty"`
	Snapshot
	// Search is the search index a host keeps, with the notes' versions
	// (mem_search only; see Carry).
	Search *Carry `json:"search,omitempty"`
}

// Answer is what the core returns, and what hosts decode: the protocol's
// one definition. Exactly one of Need, (OK true with Result, Plan and
// Conflict) or (OK false with Error) is set.
type Answer struct {
	Need *Need `json:"need,omitempty"`
	OK   *bool `json:"ok,omitempty"`
	// Result is the tool's result as JSON, encoded once by the core
	// (hosts decode it as the tool's result type, or pass it on).
	Result json.RawMessage `json:"result,omitempty"`
	Error  *ErrorBody      `json:"error,omitempty"`
	Plan   plan.Plan       `json:"plan,omitempty"`
	// Conflict is the code for a plan whose precondition fails when the
	// host applies it (the tool's catalog.Tool.ConflictCode); "" means
	// CONFLICT. Set only beside a plan.
	Conflict string `json:"conflict,omitempty"`
	// Confirm is the question a host may put to the user before it
	// applies the plan, in the call's language: one sentence saying what
	// will be deleted or rewritten, beside the plan of a tool whose
	// writes cannot be undone (mem_rollback_archive,
	// mem_archive_rewrite_paths with confirm). A host that asks and is
	// not told yes writes nothing (DECLINED); one that cannot ask
	// applies the plan as it would without it. Set only beside a plan.
	Confirm string `json:"confirm,omitempty"`
	// Search is the updated search index for the host to store (beside a
	// mem_search success whose index changed, or a need for the next batch
	// of notes to index; see Carry).
	Search *Carry `json:"search,omitempty"`
}

// ErrorBody is the JSON form of a refusal.
type ErrorBody struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details"`
}

// File is a file as the host sends it: the SHA-256 of its exact bytes and,
// when they are valid UTF-8, the text. A file that is not UTF-8 comes with
// NotUTF8 set and no text: Kessho never edits it (JSON would mangle it).
type File struct {
	SHA256  string  `json:"sha256"`
	Text    *string `json:"text,omitempty"`
	NotUTF8 bool    `json:"not_utf8,omitempty"`
}

// Head is the start of a file as a host sends it for a heads need: Text,
// its first MaxHeadBytes bytes (all of it when it is no longer), cut back
// to the end of the last whole UTF-8 character when the cut falls inside
// one, read without reading more of the file; NotUTF8 instead when those
// bytes are not valid UTF-8; and Size, the whole file's size in bytes.
type Head struct {
	Text    *string `json:"text,omitempty"`
	NotUTF8 bool    `json:"not_utf8,omitempty"`
	Size    int64   `json:"size"`
}

// MaxHeadBytes is the most of a file a Head holds: 4 MiB, the bound of
// the search index on a note (search.MaxNoteBytes is this).
const MaxHeadBytes = 4 << 20

// Snapshot is the part of the vault the host has sent so far.
//
// Files maps vault-relative paths to their content. Missing lists paths
// (files or folders) that do not exist. Dirs maps a folder to its entries,
// sorted, sub-folders written with a trailing "/"; dot-entries are never
// listed. Matches maps Match.Key() to the entries the match selects, in the
// form of Dirs (a missing folder goes into Missing).
//
// Heads maps a path a heads need named to its head (Head); a missing file
// goes into Missing.
//
// RawDirs and RawMatches are listings as the host read them, of the keys
// of Dirs and Matches, in any order, dot-entries included: the core shows
// them as Shown does (a match's by its patterns) when a tool reads them.
// A host that answers its needs as steps (the plugin) sends a small
// folder's listing so, and the call then needs no crossing for the core to
// show it (wire.IONeedList's V "raw"); a key in Dirs or Matches wins.
type Snapshot struct {
	Files      map[string]File     `json:"files,omitempty"`
	Heads      map[string]Head     `json:"heads,omitempty"`
	Missing    []string            `json:"missing,omitempty"`
	Dirs       map[string][]string `json:"dirs,omitempty"`
	Matches    map[string][]string `json:"matches,omitempty"`
	RawDirs    map[string][]string `json:"raw_dirs,omitempty"`
	RawMatches map[string][]string `json:"raw_matches,omitempty"`
}

// Shown is a folder's listing as the core sees it: of names (a "/" after
// a folder's), those shown (not a dot-name, and a name plan.CheckPath
// accepts), selected by patterns when they are not nil (Match.Selects,
// on the name without its "/"), in byte order.
func Shown(names, patterns []string) []string {
	m := Match{Patterns: patterns}
	out := []string{}
	for _, n := range names {
		bare := strings.TrimSuffix(n, "/")
		if strings.HasPrefix(bare, ".") || plan.CheckPath(bare) != nil || (patterns != nil && !m.Selects(bare)) {
			continue
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return out
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
//
// Heads asks for the first MaxHeadBytes bytes of notes the core knows
// (from their versions) to be larger than that: the search index reads
// no more of a note (search.MaxNoteBytes), and the request never holds
// the whole of a 200 MB export. A host answers each in Snapshot.Heads.
type Need struct {
	Files   []string `json:"files,omitempty"`
	Heads   []string `json:"heads,omitempty"`
	Dirs    []string `json:"dirs,omitempty"`
	Trees   []Tree   `json:"trees,omitempty"`
	Matches []Match  `json:"matches,omitempty"`
	// Search asks a host that keeps mem_search's index (only one that
	// sent a Carry) for every note's version, "notes", for them and the
	// stored index, "index", or for the stored index alone, "stored".
	Search string `json:"search,omitempty"`
}

// Empty reports whether nothing is needed.
func (n Need) Empty() bool {
	return len(n.Files)+len(n.Heads)+len(n.Dirs)+len(n.Trees)+len(n.Matches) == 0 && n.Search == ""
}

// Clone is the request as a core reads it from its JSON
// (EncodeCompacted then DecodeRequest), for an engine in the host's
// process (core.Core.HandleRequest): a copy of the snapshot's maps (not
// of the notes' texts, which are strings), an empty map or list left out
// as the JSON leaves it out. The host adds the next round's answers to
// its own maps while the core may keep the copy.
func (r Request) Clone() Request {
	r.Files = cloneMap(r.Files)
	r.Heads = cloneMap(r.Heads)
	r.Dirs = cloneMap(r.Dirs)
	r.Matches = cloneMap(r.Matches)
	r.RawDirs = cloneMap(r.RawDirs)
	r.RawMatches = cloneMap(r.RawMatches)
	if len(r.Missing) == 0 {
		r.Missing = nil
	} else {
		r.Missing = slices.Clone(r.Missing)
	}
	if len(r.Args) == 0 {
		r.Args = nil
	}
	return r
}

// cloneMap is a copy of m, nil when m is empty.
func cloneMap[V any](m map[string]V) map[string]V {
	if len(m) == 0 {
		return nil
	}
	return maps.Clone(m)
}
