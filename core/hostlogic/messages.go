package hostlogic

import (
	"embed"
	"encoding/json"
	"strings"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/i18n"
)

// The refusals a host makes itself (not a tool): their words, in English
// and French, are in messages.yaml, written once there for both hosts. The
// Go host builds them natively; the plugin receives them from the wasm
// module, already built (see Handle), and renders them with Render.

//go:embed messages.yaml
var messagesFile embed.FS

// say is messages.yaml, parsed on first use.
var say = i18n.Load[struct {
	Changed, Exists, FileInTheWay, LinkMoved, FolderNotFile, FileNotFolder fault.Msg
	BadNeed, TooMuchText, TooManyRounds                                    fault.Msg
	FinishedElsewhere, RecoveryConflict, RecoveryConflictNote, BadJournal  fault.Msg
	NotOurs, Stopped, StoppedKept, StoppedChanged, StoppedDiskFull         fault.Msg
	DiskFull, DiskFullHalfway                                              fault.Msg
}](messagesFile, "messages.yaml", 0)

// at is the details of a refusal naming the path p.
func at(p string) map[string]any { return map[string]any{"path": p} }

// Conflict is the refusal when the vault does not hold what a plan or a
// read relies on: CONFLICT naming p.
func Conflict(p, en, fr string) *fault.Error {
	return fault.New(fault.Conflict, at(p), en, fr)
}

// NotOurs is the CONFLICT of a place of Kessho's own under .kessho (a
// folder when folder, else a regular file) that is a symbolic link or
// something else: nothing is read or written through it, and the person
// is told what to remove.
func NotOurs(p string, folder bool) *fault.Error {
	m := say().NotOurs
	what := map[string][2]string{"en": {"regular file", "folder"}, "fr": {"un fichier ordinaire", "un dossier"}}
	k := 0
	if folder {
		k = 1
	}
	return fault.New(fault.Conflict, at(p), m.In("en", p, what["en"][k], p), m.In("fr", p, what["fr"][k], p))
}

// Changed is the CONFLICT of a failed precondition.
func Changed(p string) *fault.Error { return say().Changed.Err(fault.Conflict, at(p), p) }

// Exists is the CONFLICT of an "absent" precondition that fails.
func Exists(p string) *fault.Error { return say().Exists.Err(fault.Conflict, at(p), p) }

// FileInTheWay is the CONFLICT of a file where a plan needs a folder.
func FileInTheWay(p string) *fault.Error { return say().FileInTheWay.Err(fault.Conflict, at(p), p) }

// LinkMoved refuses a move whose source is a symbolic link: renaming the
// link would leave the files where it points, and the plan's later writes
// under the new name would go through the link into them.
func LinkMoved(p string) *fault.Error { return say().LinkMoved.Err(fault.InvalidArgument, at(p), p) }

// FolderNotFile is the CONFLICT of a need for a file where the vault holds
// a folder.
func FolderNotFile(p string) *fault.Error { return say().FolderNotFile.Err(fault.Conflict, at(p), p) }

// FileNotFolder is the CONFLICT of a need for a folder where the vault
// holds a file.
func FileNotFolder(p string) *fault.Error { return say().FileNotFolder.Err(fault.Conflict, at(p), p) }

// BadNeed is the refusal of a need naming a path Kessho never reads (why
// says which rule it breaks).
func BadNeed(p string, why error) *fault.Error {
	return say().BadNeed.Err(fault.Internal, at(p), why)
}

// TooMuchText is LIMIT_EXCEEDED when reading p would take the call's
// file text over max bytes.
func TooMuchText(p string, max int64) *fault.Error {
	return say().TooMuchText.Err(fault.LimitExceeded, map[string]any{"path": p, "max_bytes": max}, p, max)
}

// TooManyRounds is LIMIT_EXCEEDED when tool still asks for more of the
// vault after rounds rounds.
func TooManyRounds(tool string, rounds int) *fault.Error {
	return say().TooManyRounds.Err(fault.LimitExceeded, map[string]any{"rounds": rounds}, tool, rounds)
}

// FinishedElsewhere is the CONFLICT of a live apply whose op found path
// changed while another Kessho finished the same plan, after which p (a
// path the plan touches) changed again.
func FinishedElsewhere(path, p string) *fault.Error {
	return say().FinishedElsewhere.Err(fault.Conflict, at(p), path, p)
}

// RecoveryConflict is the refusal of every call while a recovery conflict
// is unresolved: p was changed after journal's change began, and Kessho's
// version of p is in cp (write true: the op wrote p), or a note saying
// what the op was to do (a delete or a move). For a write it says what
// to copy before the copy is deleted, the lines Kessho's version has and
// p lacks: deleting the copy makes p's version win, and a line dropped so
// may be what another file of the change relies on (a history line
// naming the archive the change made).
func RecoveryConflict(p, cp, journal string, write bool) *fault.Error {
	d := map[string]any{"path": p, "copy": cp, "journal": journal}
	if write {
		return say().RecoveryConflict.Err(fault.RecoveryConflict, d, p, cp, p, cp)
	}
	return say().RecoveryConflictNote.Err(fault.RecoveryConflict, d, p, cp, cp)
}

// DiskFull is the refusal of a call whose write of p found the disk full
// (no space left, or the user's quota used up) and undid everything: a
// code a person can act on, and a call safe to run again.
func DiskFull(p string) *fault.Error { return say().DiskFull.Err(fault.DiskFull, at(p), p) }

// DiskFullHalfway is DISK_FULL when the change could not be undone (or
// was a recovery's): its journal stays, and the next call finishes it.
func DiskFullHalfway(p string) *fault.Error {
	return say().DiskFullHalfway.Err(fault.DiskFull, at(p), p)
}

// StoppedPartway is the refusal of a live apply that stopped at p (code:
// CONFLICT, or DISK_FULL) and undid what it wrote except edited (files
// changed since Kessho wrote them, kept as they are) and kept (files the
// plan made, kept because an edited file may name them; see UndoPlan).
func StoppedPartway(code fault.Code, p string, edited, kept []string) *fault.Error {
	why := say().StoppedChanged
	if code == fault.DiskFull {
		why = say().StoppedDiskFull
	}
	d := map[string]any{"path": p, "edited": nonNil(edited), "kept": nonNil(kept)}
	msg := func(lang string) string {
		if len(kept) == 0 {
			return say().Stopped.In(lang, p, why.In(lang), strings.Join(edited, ", "))
		}
		return say().StoppedKept.In(lang, p, why.In(lang), strings.Join(edited, ", "), strings.Join(kept, ", "))
	}
	return fault.New(code, d, msg("en"), msg("fr"))
}

// BadJournal is the INTERNAL refusal of a journal that cannot be read or
// does not hold a valid plan (why completes "the journal … <why>"): the
// vault may be half-way, and only a person can tell how to finish it.
func BadJournal(name, why string) *fault.Error {
	return say().BadJournal.Err(fault.Internal, at(name), name, why)
}

// Render is e as a host prints it, in lang:
// {"ok":false,"error":{"code":…,"message":…,"details":{…}}}, the same
// bytes as the core's own refusals (encoding/json: HTML-safe escaping,
// details sorted by key).
func Render(e *fault.Error, lang string) []byte {
	type body struct {
		Code    fault.Code     `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details"`
	}
	out, _ := json.Marshal(struct {
		OK    bool `json:"ok"`
		Error body `json:"error"`
	}{false, body{e.Code, e.Message(lang), e.Details}})
	return out
}
