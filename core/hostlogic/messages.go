package hostlogic

import (
	"embed"
	"encoding/json"

	"kessho/core/fault"
	"kessho/core/i18n"
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
	FinishedElsewhere, RecoveryConflict, BadJournal, NotOurs               fault.Msg
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
// version (or a note) is in cp.
func RecoveryConflict(p, cp, journal string) *fault.Error {
	return say().RecoveryConflict.Err(fault.RecoveryConflict, map[string]any{"path": p, "copy": cp, "journal": journal}, p, cp, p, cp)
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
