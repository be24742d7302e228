package hostlogic

import (
	"encoding/json"
	"fmt"

	"kessho/core/fault"
)

// The refusals a host makes itself (not a tool): their words, in English
// and French, written once here for both hosts. The Go host builds them
// natively; the plugin receives them from the wasm module, already built
// (see Handle), and renders them with Render.

// Conflict is the refusal when the vault does not hold what a plan or a
// read relies on: CONFLICT naming p.
func Conflict(p, en, fr string) *fault.Error {
	return fault.New(fault.Conflict, map[string]any{"path": p}, en, fr)
}

// Changed is the CONFLICT of a failed precondition.
func Changed(p string) *fault.Error {
	return Conflict(p,
		p+" changed since Kessho read it (another program or person wrote it); nothing was written, run the call again",
		p+" a changé depuis que Kessho l'a lu (un autre programme ou une autre personne l'a écrit) ; rien n'a été écrit, relancez l'appel")
}

// Exists is the CONFLICT of an "absent" precondition that fails.
func Exists(p string) *fault.Error {
	return Conflict(p,
		p+" already exists, where Kessho expected nothing; nothing was written, run the call again",
		p+" existe déjà, là où Kessho n'attendait rien ; rien n'a été écrit, relancez l'appel")
}

// FileInTheWay is the CONFLICT of a file where a plan needs a folder.
func FileInTheWay(p string) *fault.Error {
	return Conflict(p,
		p+" is a file where Kessho needs a folder; nothing was written, move the file away and run the call again",
		p+" est un fichier là où Kessho a besoin d'un dossier ; rien n'a été écrit, déplacez le fichier et relancez l'appel")
}

// LinkMoved refuses a move whose source is a symbolic link: renaming the
// link would leave the files where it points, and the plan's later writes
// under the new name would go through the link into them.
func LinkMoved(p string) *fault.Error {
	return fault.New(fault.InvalidArgument, map[string]any{"path": p},
		p+" is a symbolic link; Kessho moves only real files and folders, never a link: replace the link with what it points to, then run the call again",
		p+" est un lien symbolique ; Kessho ne déplace que de vrais fichiers et dossiers, jamais un lien : remplacez le lien par ce vers quoi il pointe, puis relancez l'appel")
}

// FolderNotFile is the CONFLICT of a need for a file where the vault holds
// a folder.
func FolderNotFile(p string) *fault.Error {
	return Conflict(p,
		p+" is a folder where Kessho expects a file; rename or move the folder, then run the call again",
		p+" est un dossier là où Kessho attend un fichier ; renommez ou déplacez le dossier, puis relancez l'appel")
}

// FileNotFolder is the CONFLICT of a need for a folder where the vault
// holds a file.
func FileNotFolder(p string) *fault.Error {
	return Conflict(p,
		p+" is a file where Kessho expects a folder; rename or move the file, then run the call again",
		p+" est un fichier là où Kessho attend un dossier ; renommez ou déplacez le fichier, puis relancez l'appel")
}

// BadNeed is the refusal of a need naming a path Kessho never reads (why
// says which rule it breaks).
func BadNeed(p string, why error) *fault.Error {
	return fault.New(fault.Internal, map[string]any{"path": p},
		fmt.Sprintf("internal error: the module asked to read a path Kessho never reads: %v", why),
		fmt.Sprintf("erreur interne : le module a demandé un chemin que Kessho ne lit jamais : %v", why))
}

// TooMuchText is LIMIT_EXCEEDED when reading p would take the call's
// file text over max bytes.
func TooMuchText(p string, max int64) *fault.Error {
	return fault.New(fault.LimitExceeded, map[string]any{"path": p, "max_bytes": max},
		fmt.Sprintf("reading %s would take the call over its bound of %d bytes of file text; ask for less of the vault or raise the host's bound", p, max),
		fmt.Sprintf("lire %s dépasserait la limite de %d octets de texte de l'appel ; demandez moins du coffre ou relevez la limite de l'hôte", p, max))
}

// TooManyRounds is LIMIT_EXCEEDED when tool still asks for more of the
// vault after rounds rounds.
func TooManyRounds(tool string, rounds int) *fault.Error {
	return fault.New(fault.LimitExceeded, map[string]any{"rounds": rounds},
		fmt.Sprintf("%s still needed more of the vault after %d rounds", tool, rounds),
		fmt.Sprintf("%s demandait encore des fichiers après %d tours", tool, rounds))
}

// FinishedElsewhere is the CONFLICT of a live apply whose op found path
// changed while another Kessho finished the same plan, after which p (a
// path the plan touches) changed again.
func FinishedElsewhere(path, p string) *fault.Error {
	return Conflict(p,
		path+" changed while Kessho was applying its plan, and another Kessho finished the plan meanwhile; "+p+" has changed since: look at it, then run the call again if it is still needed",
		path+" a changé pendant que Kessho appliquait son plan, et un autre Kessho a terminé le plan entre-temps ; "+p+" a changé depuis : regardez-le, puis relancez l'appel s'il le faut encore")
}

// RecoveryConflict is the refusal of every call while a recovery conflict
// is unresolved: p was changed after journal's change began, and Kessho's
// version (or a note) is in cp.
func RecoveryConflict(p, cp, journal string) *fault.Error {
	return fault.New(fault.RecoveryConflict, map[string]any{"path": p, "copy": cp, "journal": journal},
		"an interrupted change could not be finished: "+p+" was changed after it began; your version is kept and Kessho's is in "+cp+"; copy what you need from it into "+p+", then delete "+cp+" and run the call again",
		"une modification interrompue n'a pas pu être terminée : "+p+" a été modifié depuis son début ; votre version est gardée et celle de Kessho est dans "+cp+" ; reportez-en ce qu'il vous faut dans "+p+", puis supprimez "+cp+" et relancez l'appel")
}

// BadJournal is the INTERNAL refusal of a journal that cannot be read or
// does not hold a valid plan (why completes "the journal … <why>"): the
// vault may be half-way, and only a person can tell how to finish it.
func BadJournal(name, why string) *fault.Error {
	return fault.New(fault.Internal, map[string]any{"path": name},
		fmt.Sprintf("internal error: the journal %s of an interrupted change %s; the vault may be half-way: look at the journal, finish or undo the change by hand, then delete the journal", name, why),
		fmt.Sprintf("erreur interne : le journal %s d'une modification interrompue %s ; le coffre est peut-être à mi-chemin : lisez le journal, terminez ou défaites la modification à la main, puis supprimez le journal", name, why))
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
