package tools

import (
	"errors"
	"path"
	"slices"
	"strings"

	"kessho/core/catalog"
	"kessho/core/fault"
	"kessho/core/frontmatter"
	"kessho/core/history"
	"kessho/core/markdown"
	"kessho/core/plan"
	"kessho/core/vault"
)

// rollbackSpec is mem_rollback_archive in the catalogue.
var rollbackSpec = tool[RollbackResult](catalogText("rollback.yaml"), "mem_rollback_archive", "rollback slug", writes|destroys, readsContext(fault.NothingToRollBack, fault.HistoryMismatch, fault.ArchiveMismatch), []catalog.Param{
	slugParam,
	{Name: "archive", Type: catalog.String, MinLength: intp(1), MaxLength: intp(1000)},
})

// rollbackArgs is rollback's arguments.
type rollbackArgs struct {
	Slug    string  `json:"slug"`
	Archive *string `json:"archive"`
}

// RollbackResult is mem_rollback_archive's result.
type RollbackResult struct {
	Slug        string   `json:"slug"`
	Kind        string   `json:"kind"`
	Archived    bool     `json:"archived"`
	Archive     string   `json:"archive"`
	HistoryLine string   `json:"history_line"`
	AtomsKept   []string `json:"atoms_kept"`
	ContextKept bool     `json:"context_kept"`
	Common
}

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
func rollback(env *Env, a rollbackArgs) (any, plan.Plan, error) {
	var expected string
	if a.Archive != nil {
		expected = strings.TrimSpace(*a.Archive)
		if expected == "" || strings.ContainsAny(expected, "\\\r\n") {
			return nil, nil, argument("archive", rollbackText().Msg.BadArchive)
		}
	}
	p, err := vault.Resolve(env.View, a.Slug)
	if err != nil {
		return nil, nil, err
	}
	if expected != "" {
		if expected, err = expectedArchive(p, expected); err != nil {
			return nil, nil, err
		}
	}
	if err := env.View.Ask(vault.Need{Files: []string{p.History()}, Dirs: []string{p.Dir + "/archives"}}); err != nil {
		return nil, nil, err
	}
	hist, e, archivePath, err := newestEntry(env, p)
	if err != nil {
		return nil, nil, err
	}
	if err := checkNewest(env, p, e, archivePath, expected); err != nil {
		return nil, nil, err
	}
	arch, err := env.View.Read(archivePath)
	if err != nil {
		return nil, nil, err
	}
	if !arch.Exists {
		return nil, nil, nothingToRollBack(p, rollbackText().Msg.Gone, archivePath)
	}
	res := RollbackResult{Slug: p.Slug, Kind: p.Type(), Archived: p.Archived(), Archive: archivePath, HistoryLine: e.Line, AtomsKept: []string{},
		ContextKept: true, Common: common()}
	if doc, perr := frontmatter.Parse(arch.Text); !arch.NotUTF8 && perr == nil {
		if atoms, ok := doc.Strings("derived_atoms"); ok {
			res.AtomsKept = atoms
		}
	}
	if len(res.AtomsKept) > 0 {
		res.Warnings = append(res.Warnings, env.Say(rollbackText().Msg.AtomsKept, strings.Join(res.AtomsKept, ", ")))
	}
	res.Warnings = append(res.Warnings, env.Say(rollbackText().Msg.ContextKept))
	res.SummaryMD = env.Say(rollbackText().Msg.Done, p.Slug, archivePath)
	return res, plan.Plan{
		plan.WriteOp(p.History(), hist.Expect, history.Remove(hist.Text, e)),
		{Op: plan.Delete, Path: archivePath, Expect: arch.Expect},
	}, nil
}

// rollbackText is rollback.yaml: mem_rollback_archive's catalogue texts and messages, parsed on first use.
var rollbackText = loadText[struct {
	BadArchive, Outside, Nothing, NoHistory, NoEntry, OutOfArchives, Gone fault.Msg
	NoNamed, Disagree, SameMinute, NotNewest, NoneNewest, Or              fault.Msg
	AtomsKept, ContextKept, Done                                          fault.Msg
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

// expectedArchive reads rollback's `archive` argument as a file name of
// p's archives/: a base name (".md" optional) or a vault path into the
// archives/ of p's folder, wherever mem_historize put it.
func expectedArchive(p vault.Project, s string) (string, error) {
	if dir, base := path.Split(s); dir != "" {
		dir = strings.TrimSuffix(dir, "/")
		ok := false
		for _, k := range []string{vault.KindProject, vault.KindArchived, vault.KindDomain} {
			ok = ok || dir == vault.Dir(k, p.Slug)+"/archives"
		}
		if !ok || base == "" {
			return "", argument("archive", rollbackText().Msg.Outside, p.Slug, s)
		}
		s = base
	}
	if !strings.HasSuffix(s, ".md") {
		s += ".md"
	}
	return s, nil
}

// archivePaths returns the vault paths of names in p's archives/.
func archivePaths(p vault.Project, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = p.Dir + "/archives/" + n
	}
	return out
}

// historyMismatch is HISTORY_MISMATCH: history.md's first entry does not
// name the newest archive file.
func historyMismatch(p vault.Project, line, entryPath string, newest []string) error {
	paths := archivePaths(p, newest)
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
	paths := archivePaths(p, newest)
	msg := &rollbackText().Msg
	is, est := strings.Join(paths, msg.Or.En), strings.Join(paths, msg.Or.Fr)
	if len(paths) == 0 {
		is, est = msg.NoneNewest.En, msg.NoneNewest.Fr
	}
	return fault.New(fault.ArchiveMismatch, map[string]any{"slug": p.Slug, "expected": want, "newest": paths},
		msg.NotNewest.In("en", want, p.Slug, is), msg.NotNewest.In("fr", want, p.Slug, est))
}
