package tools

import (
	"encoding/json"
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
var rollbackSpec = &catalog.Tool{
	Name:  "mem_rollback_archive",
	Title: catalog.Text{En: "Roll back last archive", Fr: "Annuler la dernière archive"},
	Description: catalog.Text{
		En: "Undoes the last archive of a project or domain: deletes the archive note named by the newest history.md entry and removes exactly that line. context.md is not restored; atoms the archive derived are kept and listed. Refused, nothing written, when that entry does not name the newest file of archives/ (HISTORY_MISMATCH; archives made in the same minute all count as newest) or is not the archive given in `archive` (ARCHIVE_MISMATCH).",
		Fr: "Annule la dernière archive d'un projet ou domaine : supprime la note d'archive de l'entrée la plus récente de history.md et retire exactement cette ligne. context.md n'est pas restauré ; les atomes dérivés sont gardés et listés. Refusé, sans rien écrire, quand cette entrée ne nomme pas le fichier le plus récent de archives/ (HISTORY_MISMATCH ; les archives d'une même minute comptent toutes comme les plus récentes) ou n'est pas l'archive donnée dans `archive` (ARCHIVE_MISMATCH).",
	},
	Params: []catalog.Param{
		slugParam,
		{Name: "archive", Type: catalog.String, MinLength: intp(1), MaxLength: intp(1000),
			Description: catalog.Text{
				En: "The archive you mean to remove: its file name, or the path mem_archive returned. When the newest archive is another (already rolled back, or a later one), nothing is written (ARCHIVE_MISMATCH): pass it when retrying, so a retry never removes a second archive.",
				Fr: "L'archive que vous voulez supprimer : son nom de fichier, ou le chemin renvoyé par mem_archive. Si l'archive la plus récente en est une autre (déjà annulée, ou plus récente), rien n'est écrit (ARCHIVE_MISMATCH) : passez-la en cas de nouvel essai, pour qu'il ne supprime jamais une seconde archive.",
			}},
	},
	Errors: append([]fault.Code{fault.NothingToRollBack, fault.HistoryMismatch, fault.ArchiveMismatch, fault.NoContext, fault.SlugConflict, fault.FileNotUTF8}, catalog.Shared...),
	Writes: true,
	CLI:    catalog.CLI{Command: "rollback", Args: []string{"slug"}},
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
func rollback(env *Env, raw json.RawMessage) (any, plan.Plan, error) {
	var a struct {
		Slug    string  `json:"slug"`
		Archive *string `json:"archive"`
	}
	if err := decode(raw, &a); err != nil {
		return nil, nil, err
	}
	var expected string
	if a.Archive != nil {
		expected = strings.TrimSpace(*a.Archive)
		if expected == "" || strings.ContainsAny(expected, "\\\r\n") {
			return nil, nil, argument("archive", rollbackMsg.badArchive)
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
		return nil, nil, nothingToRollBack(p, rollbackMsg.gone, archivePath)
	}
	res := RollbackResult{Slug: p.Slug, Kind: p.Type(), Archived: p.Archived(), Archive: archivePath, HistoryLine: e.Line, AtomsKept: []string{},
		ContextKept: true, Common: common()}
	if doc, perr := frontmatter.Parse(arch.Text); !arch.NotUTF8 && perr == nil {
		if atoms, ok := doc.Strings("derived_atoms"); ok {
			res.AtomsKept = atoms
		}
	}
	if len(res.AtomsKept) > 0 {
		res.Warnings = append(res.Warnings, env.Say(rollbackMsg.atomsKept, strings.Join(res.AtomsKept, ", ")))
	}
	res.Warnings = append(res.Warnings, env.Say(rollbackMsg.contextKept))
	res.SummaryMD = env.Say(rollbackMsg.done, p.Slug, archivePath)
	return res, plan.Plan{
		plan.WriteOp(p.History(), hist.Expect, history.Remove(hist.Text, e)),
		{Op: plan.Delete, Path: archivePath, Expect: arch.Expect},
	}, nil
}

// rollbackMsg is mem_rollback_archive's messages.
var rollbackMsg = struct {
	badArchive, outside, nothing, noHistory, noEntry, outOfArchives, gone fault.Msg
	noNamed, disagree, sameMinute, notNewest, noneNewest, or              fault.Msg
	atomsKept, contextKept, done                                          fault.Msg
}{
	badArchive: fault.Msg{En: "must name one archive file: its name (as in archives/) or the path mem_archive returned",
		Fr: "doit nommer un fichier d'archive : son nom (comme dans archives/) ou le chemin renvoyé par mem_archive"},
	outside: fault.Msg{En: "names a file outside the archives/ of %s (%s): give the archive's file name",
		Fr: "nomme un fichier hors de archives/ de %s (%s) : donnez le nom du fichier d'archive"},
	nothing:   fault.Msg{En: "nothing to roll back for %s: %s", Fr: "rien à annuler pour %s : %s"},
	noHistory: fault.Msg{En: "it has no history.md", Fr: "il n'a pas de history.md"},
	noEntry:   fault.Msg{En: "history.md holds no entry", Fr: "history.md ne contient aucune entrée"},
	outOfArchives: fault.Msg{En: "the newest entry points outside archives/ (%s)",
		Fr: "l'entrée la plus récente pointe hors de archives/ (%s)"},
	gone: fault.Msg{En: "the newest entry's archive %s is gone; remove its line from history.md by hand if it is stale",
		Fr: "l'archive de l'entrée la plus récente, %s, n'existe plus ; retirez sa ligne de history.md à la main si elle est périmée"},
	noNamed: fault.Msg{
		En: "the newest entry of %s names %s, but no file of its archives/ is named like an archive (<date>-<HH>h<MM>-…); nothing was deleted: delete the archive and its line by hand if it is what you want to undo",
		Fr: "l'entrée la plus récente de %s nomme %s, mais aucun fichier de son archives/ n'est nommé comme une archive (<date>-<HH>h<MM>-…) ; rien n'a été supprimé : supprimez l'archive et sa ligne à la main si c'est ce que vous voulez annuler"},
	disagree: fault.Msg{
		En: "history.md and archives/ of %s disagree: the newest entry names %s but the newest archive is %s; nothing was deleted: put the newest archive's line first in %s (or delete the archive by hand)",
		Fr: "history.md et archives/ de %s divergent : l'entrée la plus récente nomme %s mais l'archive la plus récente est %s ; rien n'a été supprimé : mettez la ligne de l'archive la plus récente en tête de %s (ou supprimez l'archive à la main)"},
	sameMinute: fault.Msg{
		En: "%s is not the archive a rollback of %s would remove: it was made in the same minute as %s, which history.md's newest entry names; nothing was deleted; call again naming %s if that is the one to undo",
		Fr: "%s n'est pas l'archive qu'un retour en arrière supprimerait pour %s : elle date de la même minute que %s, que nomme l'entrée la plus récente de history.md ; rien n'a été supprimé ; rappelez en nommant %s si c'est elle qu'il faut annuler"},
	notNewest: fault.Msg{
		En: "%s is not the archive a rollback of %s would remove: the newest is %s; nothing was deleted (it may be rolled back already); call again naming the newest archive if that is the one to undo",
		Fr: "%s n'est pas l'archive qu'un retour en arrière supprimerait pour %s : la plus récente est %s ; rien n'a été supprimé (elle est peut-être déjà annulée) ; rappelez en nommant l'archive la plus récente si c'est elle qu'il faut annuler"},
	noneNewest:  fault.Msg{En: "none (no file of archives/ is named like an archive)", Fr: "aucune (aucun fichier de archives/ n'est nommé comme une archive)"},
	or:          fault.Msg{En: " or ", Fr: " ou "},
	atomsKept:   fault.Msg{En: "atoms derived by this archive are kept: %s", Fr: "les atomes dérivés de cette archive sont gardés : %s"},
	contextKept: fault.Msg{En: "context.md is not restored", Fr: "context.md n'est pas restauré"},
	done: fault.Msg{En: "Rolled back **%s**: deleted %s and its history line.",
		Fr: "Dernière archive de **%s** annulée : %s et sa ligne d'historique supprimées."},
}

// nothingToRollBack is NOTHING_TO_ROLL_BACK for p, saying why (reason
// formatted with args).
func nothingToRollBack(p vault.Project, reason fault.Msg, args ...any) error {
	return fault.New(fault.NothingToRollBack, map[string]any{"slug": p.Slug, "history": p.History()},
		rollbackMsg.nothing.In("en", p.Slug, reason.In("en", args...)), rollbackMsg.nothing.In("fr", p.Slug, reason.In("fr", args...)))
}

// newestEntry reads p's history.md and its first entry, and the vault
// path of the archive it names, which must be in archives/.
func newestEntry(env *Env, p vault.Project) (vault.Content, markdown.Item, string, error) {
	hist, err := env.View.ReadText(p.History())
	if err != nil {
		return hist, markdown.Item{}, "", err
	}
	if !hist.Exists {
		return hist, markdown.Item{}, "", nothingToRollBack(p, rollbackMsg.noHistory)
	}
	entries := history.Entries(hist.Text)
	if len(entries) == 0 {
		return hist, markdown.Item{}, "", nothingToRollBack(p, rollbackMsg.noEntry)
	}
	e := entries[0]
	archivePath := path.Clean(p.Dir + "/" + history.Target(e.Dest))
	if plan.CheckPath(archivePath) != nil || !strings.HasPrefix(archivePath, p.Dir+"/archives/") {
		return hist, e, "", nothingToRollBack(p, rollbackMsg.outOfArchives, e.Dest)
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
		return nothingToRollBack(p, rollbackMsg.gone, archivePath)
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
			return "", argument("archive", rollbackMsg.outside, p.Slug, s)
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
		return rollbackMsg.noNamed.Err(fault.HistoryMismatch, details, p.History(), entryPath)
	}
	return fault.New(fault.HistoryMismatch, details,
		rollbackMsg.disagree.In("en", p.Slug, entryPath, strings.Join(paths, rollbackMsg.or.En), p.History()),
		rollbackMsg.disagree.In("fr", p.Slug, entryPath, strings.Join(paths, rollbackMsg.or.Fr), p.History()))
}

// archiveMismatch is ARCHIVE_MISMATCH: the archive the caller expects to
// remove is not the one a rollback would remove: not among the newest
// files of archives/ (newest), or, among archives of the same minute, not
// the one history.md's first entry names (entry).
func archiveMismatch(p vault.Project, expected string, newest []string, entry string) error {
	want := p.Dir + "/archives/" + expected
	if entry != "" {
		other := p.Dir + "/archives/" + entry
		return rollbackMsg.sameMinute.Err(fault.ArchiveMismatch, map[string]any{"slug": p.Slug, "expected": want, "newest": []string{other}},
			want, p.Slug, other, other)
	}
	paths := archivePaths(p, newest)
	is, est := strings.Join(paths, rollbackMsg.or.En), strings.Join(paths, rollbackMsg.or.Fr)
	if len(paths) == 0 {
		is, est = rollbackMsg.noneNewest.En, rollbackMsg.noneNewest.Fr
	}
	return fault.New(fault.ArchiveMismatch, map[string]any{"slug": p.Slug, "expected": want, "newest": paths},
		rollbackMsg.notNewest.In("en", want, p.Slug, is), rollbackMsg.notNewest.In("fr", want, p.Slug, est))
}
