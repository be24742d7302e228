package tools

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/vault"
)

// What a full archive replaced, kept so that mem_rollback_archive can put
// it back (restore_context), and what a rollback removed last, so that a
// retried rollback never removes a second archive. Both live in
// plan.UndoDir, one folder a project or domain (by slug, so that
// mem_historize moving the project keeps them):
//
//	.kessho/undo/<slug>/<archive stem>.json   an undoRecord, one an archive
//	.kessho/undo/<slug>/rollback.json         a rollbackRecord, the last rollback
//
// They are Kessho's files, never notes, written and removed by the same
// plans as the notes they describe (all or nothing, under the journal),
// and read back as any file is, through needs.

// undoKeep is how long an archive's undo record is kept: each full archive
// of a project removes the records of its archives older than this (their
// names begin with the archive's date).
const undoKeep = 30 * 24 * time.Hour

// rollbackGuard is how long after a rollback of a project another one,
// that does not name the archive it would remove, is refused
// (ROLLBACK_REPEATED): a client that timed out and retried.
const rollbackGuard = 15 * time.Minute

// undoRecord is what a full archive wrote over, and what it wrote: the
// context's text before the archive and the hash of the text it left, the
// atoms it created, and the zone indexes it added them to (their text
// before, the hash after). A rollback puts back only what still holds
// what the archive wrote.
type undoRecord struct {
	Version int        `json:"version"`
	Archive string     `json:"archive"` // the archive's file name, in archives/
	Context undoText   `json:"context"` // the project's context.md, wherever it is
	Atoms   []undoFile `json:"atoms"`   // created by the archive
	Indexes []undoText `json:"indexes"` // replaced by the archive
}

// undoText is a file an archive replaced: its text before, and the hash
// of the text the archive wrote (Path is empty for the context).
type undoText struct {
	Path   string `json:"path,omitempty"`
	Before string `json:"before"`
	After  string `json:"after"`
}

// undoFile is a file an archive created, and the hash of what it wrote.
type undoFile struct {
	Path  string `json:"path"`
	After string `json:"after"`
}

// rollbackRecord is the last rollback of a project: the archive it
// removed (vault path) and when (RFC 3339, the call's time).
type rollbackRecord struct {
	Archive string `json:"archive"`
	At      string `json:"at"`
}

// undoDir is the folder of slug's undo records.
func undoDir(slug string) string { return plan.UndoDir + "/" + slug }

// undoPath is the undo record of the archive stem of slug.
func undoPath(slug, stem string) string { return undoDir(slug) + "/" + stem + ".json" }

// rollbackPath is slug's rollback record.
func rollbackPath(slug string) string { return undoDir(slug) + "/rollback.json" }

// encodeRecord is a record's text: its JSON, indented, "<", ">" and "&"
// as they are (a person may read it), and a newline.
func encodeRecord(r any) string {
	var b strings.Builder
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	e.SetIndent("", "  ")
	_ = e.Encode(r) // plain structs of strings: never fails
	return b.String()
}

// undoOps are the ops of a full archive's plan that keep its undo record
// (rec, at undoPath(slug, stem)) and remove slug's records of archives
// dated more than undoKeep before now. listing is the undo folder's
// names (nil when it is missing, as it is before a project's first full
// archive); the files it lists that the ops replace or remove are read
// (one files need, only when there are some).
func undoOps(env *Env, slug, stem string, rec undoRecord, listing []string) (plan.Plan, error) {
	target := stem + ".json"
	cutoff := env.Now.Add(-undoKeep).Format("2006-01-02")
	var read []string
	for _, name := range listing {
		old := strings.HasSuffix(name, ".json") && len(name) > 10 && dateOnly(name[:10]) && name[:10] < cutoff
		if name == target || old {
			read = append(read, undoDir(slug)+"/"+name)
		}
	}
	if err := env.View.Ask(vault.Need{Files: read}); err != nil {
		return nil, err
	}
	var p plan.Plan
	expect := plan.Absent
	for _, path := range read {
		f, err := env.View.Read(path)
		switch {
		case err != nil:
			return nil, err
		case !f.Exists:
		case path == undoPath(slug, stem):
			expect = f.Expect // a stale record of a name used again
		default:
			p = append(p, plan.Op{Op: plan.Delete, Path: path, Expect: f.Expect})
		}
	}
	return append(p, plan.WriteOp(undoPath(slug, stem), expect, encodeRecord(rec))), nil
}
