package tools

import (
	"encoding/json"
	"errors"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/kessho/kessho/core/atom"
	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/history"
	"github.com/kessho/kessho/core/markdown"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/core/wikilink"
)

// rollbackSpec is mem_rollback_archive in the catalogue.
var rollbackSpec = tool[rollbackResult](catalogText("rollback.yaml"), "mem_rollback_archive", "rollback slug", writes|destroys|idempotent, readsContext(fault.NothingToRollBack, fault.HistoryMismatch, fault.ArchiveMismatch, fault.RollbackRepeated, fault.Declined), []catalog.Param{
	slugParam,
	{Name: "archive", Type: catalog.String, MinLength: intp(1), MaxLength: intp(1000)},
	{Name: "restore_context", Type: catalog.Boolean, Default: false},
})

// rollbackArgs is rollback's arguments.
type rollbackArgs struct {
	Slug           string  `json:"slug"`
	Archive        *string `json:"archive"`
	RestoreContext bool    `json:"restore_context"`
}

// rollbackResult is mem_rollback_archive's result.
type rollbackResult struct {
	Slug        string   `json:"slug"`
	Kind        string   `json:"kind"`
	Archived    bool     `json:"archived"`
	Archive     string   `json:"archive"`
	HistoryLine string   `json:"history_line"`
	AtomsKept   []string `json:"atoms_kept"`
	ContextKept bool     `json:"context_kept"`
	// Removed are the notes deleted (the archive, and with
	// restore_context the atoms it created); Restored the notes put back
	// as they were before the archive (context.md, zone indexes).
	Removed  []string `json:"removed"`
	Restored []string `json:"restored"`
	Common
	// ask is the question beside the plan (Confirmation).
	ask string
}

// Confirmation is what a host asks the user before the rollback writes
// (tools.Confirmer): what it deletes and puts back, in one sentence.
func (r rollbackResult) Confirmation() string { return r.ask }

// rollback is mem_rollback_archive: it deletes the archive of the newest
// history entry and removes exactly that line. Works on every kind.
//
// It deletes only an archive it can show is the newest, so that a broken
// or hand-edited history.md never makes it delete an older one:
//
//   - The newest archive file is, among the files directly in the
//     project's archives/, the one whose name dates it latest
//     (`<YYYY-MM-DD>-<HH>h<MM>-….md`: that minute; a worklog
//     `<YYYY>-W<WW>-worklog.md`: Sunday 23:59 of that week; any other name
//     dates nothing and is never the newest). Archives made in the same
//     minute tie: each of them is "the newest".
//   - The first history entry (a list item whose link points into
//     archives/) is read by its link target only. Its file must be one of
//     the newest (any of the tied ones is fine: within one minute names
//     cannot tell which came last, and history.md's order decides);
//     otherwise HISTORY_MISMATCH, nothing written. An entry whose file is
//     not in archives/ any more is NOTHING_TO_ROLL_BACK, as before.
//   - `archive` (optional) names the file the caller expects to remove:
//     its base name, its stem, or its vault path as mem_archive returned it
//     (the path may name the project's folder before or after
//     mem_historize moved it). When it is not the newest archive, or not
//     the one the first entry names, ARCHIVE_MISMATCH names both and
//     nothing is written: a retried rollback never deletes a second
//     archive.
//   - Without `archive`, a rollback of a project rolled back less than
//     15 minutes before (its rollback record, rollbackPath) is
//     ROLLBACK_REPEATED, naming the archive removed then and the one that
//     would go now: the default is safe for the client that timed out and
//     sent the same call again (checkRepeated).
//
// With restore_context, the rollback undoes the whole archive from its
// undo record (undoRecord): context.md and the zone indexes are put back
// as they were when they still hold what the archive wrote (CONFLICT
// otherwise, nothing written), and the atoms it created go when they are
// still byte for byte what it wrote (an atom changed since stays, and a
// warning lists it), and the archive's undo record goes with them.
// Without it, the undo record stays (pruned with the others), and the
// warning says where the replaced context is. Every rollback writes the
// project's rollback record.
func rollback(env *Env, a rollbackArgs) (any, plan.Plan, error) {
	p, expected, err := rollbackTarget(env, a)
	if err != nil {
		return nil, nil, err
	}
	if err := env.View.Ask(vault.Need{Files: []string{p.History(), rollbackPath(p.Slug)}, Dirs: []string{p.Dir + "/archives"}}); err != nil {
		return nil, nil, err
	}
	hist, e, archivePath, err := newestEntry(env, p)
	if err != nil {
		return nil, nil, err
	}
	if err := checkNewest(env, p, e, archivePath, expected); err != nil {
		return nil, nil, err
	}
	last, err := checkRepeated(env, p, archivePath, expected)
	if err != nil {
		return nil, nil, err
	}
	record := undoPath(p.Slug, strings.TrimSuffix(path.Base(archivePath), ".md"))
	if err := env.View.Ask(vault.Need{Files: []string{archivePath, record}}); err != nil {
		return nil, nil, err
	}
	arch, err := env.View.Read(archivePath)
	if err != nil {
		return nil, nil, err
	}
	if !arch.Exists {
		return nil, nil, nothingToRollBack(p, rollbackText().Msg.Gone, archivePath)
	}
	undo, err := env.View.Read(record)
	if err != nil {
		return nil, nil, err
	}
	res := rollbackResult{Slug: p.Slug, Kind: p.Type(), Archived: p.Archived(), Archive: archivePath, HistoryLine: e.Line, AtomsKept: derivedAtoms(env, arch),
		ContextKept: true, Removed: []string{archivePath}, Restored: []string{}, Common: common()}
	ops := plan.Plan{
		plan.WriteOp(p.History(), hist.Expect, history.Remove(hist.Text, e)),
		{Op: plan.Delete, Path: archivePath, Expect: arch.Expect},
	}
	if a.RestoreContext {
		restore, err := restoreOps(env, p, undo, &res)
		if err != nil {
			return nil, nil, err
		}
		ops = append(ops, restore...)
		ops = append(ops, plan.Op{Op: plan.Delete, Path: record, Expect: undo.Expect})
	}
	ops = append(ops, plan.WriteOp(rollbackPath(p.Slug), last.Expect, encodeRecord(rollbackRecord{Archive: archivePath, At: env.Now.Format(time.RFC3339)})))
	kept := ""
	if undo.Exists {
		kept = record
	}
	rollbackWarnings(env, &res, kept)
	return res, ops, nil
}

// rollbackTarget resolves a's project and the archive a names (archive,
// "" for the newest): INVALID_ARGUMENT for an archive that is no name.
func rollbackTarget(env *Env, a rollbackArgs) (vault.Project, string, error) {
	var expected string
	if a.Archive != nil {
		expected = strings.TrimSpace(*a.Archive)
		if expected == "" || strings.ContainsAny(expected, "\\\r\n") {
			return vault.Project{}, "", argument("archive", rollbackText().Msg.BadArchive)
		}
	}
	p, err := vault.Resolve(env.View, a.Slug)
	if err != nil {
		return vault.Project{}, "", err
	}
	if expected != "" {
		if expected, err = archiveName(p, expected); err != nil {
			return vault.Project{}, "", err
		}
	}
	return p, expected, nil
}

// derivedAtoms are the atoms the archive arch says it derived
// (derived_atoms), none when it does not parse.
func derivedAtoms(env *Env, arch vault.Content) []string {
	if doc, err := env.docs().Parse(arch.Text); !arch.NotUTF8 && err == nil {
		if atoms, ok := doc.Strings("derived_atoms"); ok {
			return atoms
		}
	}
	return []string{}
}

// rollbackWarnings words what a rollback kept: unless it restored the
// context (restoreOps then warned of the files it kept), the atoms the
// archive derived and the context (record: the undo record
// that keeps the text it replaced, "" when there is none).
func rollbackWarnings(env *Env, res *rollbackResult, record string) {
	m := &rollbackText().Msg
	if len(res.AtomsKept) > 0 && res.ContextKept {
		res.Warnings = append(res.Warnings, env.say(m.AtomsKept, strings.Join(res.AtomsKept, ", ")))
	}
	switch {
	case !res.ContextKept: // restored: restoreOps warned of what it kept
		res.SummaryMD = env.say(m.Whole, res.Slug, res.Archive, strings.Join(res.Restored, ", "), len(res.Removed)-1)
		res.ask = env.say(m.AskWhole, res.Archive, res.Slug, strings.Join(res.Restored, ", "), len(res.Removed)-1)
		return
	case record != "":
		res.Warnings = append(res.Warnings, env.say(m.ContextKeptUndo, record))
	default:
		res.Warnings = append(res.Warnings, env.say(m.ContextKept))
	}
	res.SummaryMD = env.say(m.Done, res.Slug, res.Archive)
	res.ask = env.say(m.Ask, res.Archive, res.Slug)
}

// checkRepeated reads p's rollback record and refuses, ROLLBACK_REPEATED,
// a rollback that names no archive (expected "") when the last one was
// less than rollbackGuard before now (or as far after: a clock set back
// is no reason to remove a second archive); next is the archive this one
// would remove. It returns the record as read, which the rollback
// replaces. A record that does not parse guards nothing.
func checkRepeated(env *Env, p vault.Project, next, expected string) (vault.Content, error) {
	f, err := env.View.Read(rollbackPath(p.Slug)) // a missing record's Expect is plan.Absent
	if err != nil || !f.Exists || f.NotUTF8 || expected != "" {
		return f, err
	}
	var last rollbackRecord
	if json.Unmarshal([]byte(f.Text), &last) != nil {
		return f, nil
	}
	at, err := time.Parse(time.RFC3339, last.At)
	if err != nil || env.Now.Sub(at).Abs() >= rollbackGuard {
		return f, nil
	}
	name := path.Base(next)
	return f, fault.New(fault.RollbackRepeated,
		map[string]any{"slug": p.Slug, "removed": last.Archive, "removed_at": last.At, "next": next},
		rollbackText().Msg.Repeated.In("en", p.Slug, last.At, last.Archive, next, name),
		rollbackText().Msg.Repeated.In("fr", p.Slug, last.At, last.Archive, next, name))
}

// restoreOps are the ops that undo what the archive of undo (its undo
// record, read) did besides its own note and history line: context.md
// and the zone indexes written back as they were, where they still hold
// what the archive wrote, and the atoms it created removed, where they
// still are what it wrote. A missing or unreadable record is
// INVALID_ARGUMENT (nothing to restore from: archives made before Kessho
// kept records, or pruned after undoKeep); a context changed since is
// CONFLICT. res records what is removed, restored and kept.
func restoreOps(env *Env, p vault.Project, undo vault.Content, res *rollbackResult) (plan.Plan, error) {
	m := &rollbackText().Msg
	var rec undoRecord
	if !undo.Exists || undo.NotUTF8 || json.Unmarshal([]byte(undo.Text), &rec) != nil || rec.Version != 1 {
		return nil, argument("restore_context", m.NoUndo, res.Archive)
	}
	files := []string{p.Context()}
	for _, at := range rec.Atoms {
		files = append(files, at.Path)
	}
	for _, ix := range rec.Indexes {
		files = append(files, ix.Path)
	}
	if err := env.View.Ask(vault.Need{Files: files}); err != nil {
		return nil, err
	}
	ctx, err := env.View.Read(p.Context())
	if err != nil {
		return nil, err
	}
	if !ctx.Exists || ctx.Expect != rec.Context.After {
		return nil, m.ContextChanged.Err(fault.Conflict, map[string]any{"path": p.Context()}, p.Context(), res.Archive)
	}
	ops := plan.Plan{plan.WriteOp(p.Context(), ctx.Expect, rec.Context.Before)}
	res.Restored, res.ContextKept = append(res.Restored, p.Context()), false
	var changed []string
	for _, at := range rec.Atoms {
		f, err := env.View.Read(at.Path)
		switch {
		case err != nil:
			return nil, err
		case f.Exists && f.Expect == at.After:
			ops = append(ops, plan.Op{Op: plan.Delete, Path: at.Path, Expect: f.Expect})
			res.Removed = append(res.Removed, at.Path)
			res.AtomsKept = slices.DeleteFunc(res.AtomsKept, func(l string) bool { return strings.EqualFold(atom.Name(l), wikilink.Stem(at.Path)) })
		case f.Exists:
			changed = append(changed, at.Path)
		}
	}
	for _, ix := range rec.Indexes {
		f, err := env.View.Read(ix.Path)
		switch {
		case err != nil:
			return nil, err
		case f.Exists && f.Expect == ix.After:
			ops = append(ops, plan.WriteOp(ix.Path, f.Expect, ix.Before))
			res.Restored = append(res.Restored, ix.Path)
		case f.Exists:
			changed = append(changed, ix.Path)
		}
	}
	if len(changed) > 0 {
		res.Warnings = append(res.Warnings, env.say(m.Changed, strings.Join(changed, ", ")))
	}
	return ops, nil
}

// rollbackText is rollback.yaml: mem_rollback_archive's catalogue texts and messages, parsed on first use.
var rollbackText = loadText[struct {
	BadArchive, Nothing, NoHistory, NoEntry, OutOfArchives, Gone fault.Msg
	NoNamed, Disagree, SameMinute, NotNewest, NoneNewest, Or     fault.Msg
	AtomsKept, ContextKept, ContextKeptUndo, Done, Whole         fault.Msg
	Repeated, NoUndo, ContextChanged, Changed                    fault.Msg
	Ask, AskWhole                                                fault.Msg
}]("rollback.yaml")

// nothingToRollBack is NOTHING_TO_ROLL_BACK for p, saying why (reason
// formatted with args).
func nothingToRollBack(p vault.Project, reason fault.Msg, args ...any) error {
	return fault.New(fault.NothingToRollBack, map[string]any{"slug": p.Slug, "history": p.History()},
		rollbackText().Msg.Nothing.In("en", p.Slug, reason.In("en", args...)), rollbackText().Msg.Nothing.In("fr", p.Slug, reason.In("fr", args...)))
}

// newestEntry reads p's history.md and its first entry, and the vault
// path of the archive it names, which must be in archives/.
func newestEntry(env *Env, p vault.Project) (vault.Content, markdown.Item, string, error) {
	hist, err := env.View.ReadText(p.History())
	if err != nil {
		return hist, markdown.Item{}, "", err
	}
	if !hist.Exists {
		return hist, markdown.Item{}, "", nothingToRollBack(p, rollbackText().Msg.NoHistory)
	}
	entries := history.Entries(hist.Text)
	if len(entries) == 0 {
		return hist, markdown.Item{}, "", nothingToRollBack(p, rollbackText().Msg.NoEntry)
	}
	e := entries[0]
	archivePath := path.Clean(p.Dir + "/" + history.Target(e.Dest))
	if plan.CheckPath(archivePath) != nil || !strings.HasPrefix(archivePath, p.Dir+"/archives/") {
		return hist, e, "", nothingToRollBack(p, rollbackText().Msg.OutOfArchives, e.Dest)
	}
	return hist, e, archivePath, nil
}

// checkNewest refuses a rollback of archivePath (entry e's) unless its
// file is in archives/, among the newest, and the one expected (when
// given).
func checkNewest(env *Env, p vault.Project, e markdown.Item, archivePath, expected string) error {
	archDir := p.Dir + "/archives"
	listing, err := env.View.List(archDir)
	if err != nil && !errors.Is(err, vault.ErrNotExist) {
		return err
	}
	name := strings.TrimPrefix(archivePath, archDir+"/")
	if !strings.Contains(name, "/") && !slices.Contains(listing, name) {
		return nothingToRollBack(p, rollbackText().Msg.Gone, archivePath)
	}
	newest := history.Newest(listing)
	switch {
	case expected != "" && !slices.Contains(newest, expected):
		return archiveMismatch(p, expected, newest, "")
	case !slices.Contains(newest, name):
		return historyMismatch(p, e.Line, archivePath, newest)
	case expected != "" && expected != name:
		return archiveMismatch(p, expected, nil, name)
	}
	return nil
}

// historyMismatch is HISTORY_MISMATCH: history.md's first entry does not
// name the newest archive file.
func historyMismatch(p vault.Project, line, entryPath string, newest []string) error {
	paths := history.ArchivePaths(p, newest)
	details := map[string]any{"slug": p.Slug, "history": p.History(), "entry": line, "entry_archive": entryPath, "newest": paths}
	if len(newest) == 0 {
		return rollbackText().Msg.NoNamed.Err(fault.HistoryMismatch, details, p.History(), entryPath)
	}
	return fault.New(fault.HistoryMismatch, details,
		rollbackText().Msg.Disagree.In("en", p.Slug, entryPath, strings.Join(paths, rollbackText().Msg.Or.En), p.History()),
		rollbackText().Msg.Disagree.In("fr", p.Slug, entryPath, strings.Join(paths, rollbackText().Msg.Or.Fr), p.History()))
}

// archiveMismatch is ARCHIVE_MISMATCH: the archive the caller expects to
// remove is not the one a rollback would remove: not among the newest
// files of archives/ (newest), or, among archives of the same minute, not
// the one history.md's first entry names (entry).
func archiveMismatch(p vault.Project, expected string, newest []string, entry string) error {
	want := p.Dir + "/archives/" + expected
	if entry != "" {
		other := p.Dir + "/archives/" + entry
		return rollbackText().Msg.SameMinute.Err(fault.ArchiveMismatch, map[string]any{"slug": p.Slug, "expected": want, "newest": []string{other}},
			want, p.Slug, other, other)
	}
	paths := history.ArchivePaths(p, newest)
	msg := &rollbackText().Msg
	is, est := strings.Join(paths, msg.Or.En), strings.Join(paths, msg.Or.Fr)
	if len(paths) == 0 {
		is, est = msg.NoneNewest.En, msg.NoneNewest.Fr
	}
	return fault.New(fault.ArchiveMismatch, map[string]any{"slug": p.Slug, "expected": want, "newest": paths},
		msg.NotNewest.In("en", want, p.Slug, is), msg.NotNewest.In("fr", want, p.Slug, est))
}
