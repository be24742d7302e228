// Package fault holds Kessho's errors as values: a stable code, a message
// in each supported language, and machine-readable details.
//
// Tools return a *Error for every refusal; core.Core.Handle turns it into
// {"ok":false,"error":{"code":…,"message":…,"details":{…}}} in the caller's
// language.
package fault

import (
	"errors"
	"fmt"
)

// Code is an error's stable code, written in capitals in the answer's
// "code". Every code Kessho gives is one of the constants below; the
// catalogue's tools declare theirs (catalog.Tool.Errors), and a test ties
// what each tool raises to what it declares and to the cases raising it.
type Code string

// Codes shared by every tool (SPEC section 7).
const (
	InvalidArgument    Code = "INVALID_ARGUMENT"
	InvalidSlug        Code = "INVALID_SLUG"
	UnknownSlug        Code = "UNKNOWN_SLUG"
	ProjectArchived    Code = "PROJECT_ARCHIVED"
	FrontmatterInvalid Code = "FRONTMATTER_INVALID"
	Conflict           Code = "CONFLICT"
	RecoveryConflict   Code = "RECOVERY_CONFLICT"
	VaultLocked        Code = "VAULT_LOCKED"
	LimitExceeded      Code = "LIMIT_EXCEEDED"
	DiskFull           Code = "DISK_FULL" // a host's write found no space left (or the quota used up)
	Internal           Code = "INTERNAL"
)

// Codes some tools share: raised by the reads and checks they have in
// common (resolving a slug, reading context.md, reading a file as text).
const (
	NoContext      Code = "NO_CONTEXT"
	SlugConflict   Code = "SLUG_CONFLICT"
	FileNotUTF8    Code = "FILE_NOT_UTF8"
	SummaryTooLong Code = "SUMMARY_TOO_LONG"
)

// The tools' own codes.
const (
	ContextEmpty       Code = "CONTEXT_EMPTY"        // mem_archive
	DecisionsLost      Code = "DECISIONS_LOST"       // mem_archive
	DerivedRequired    Code = "DERIVED_REQUIRED"     // mem_archive
	AtomExists         Code = "ATOM_EXISTS"          // mem_archive
	ArcheoInvalid      Code = "ARCHEO_INVALID"       // mem_archive
	NothingToRollBack  Code = "NOTHING_TO_ROLL_BACK" // mem_rollback_archive
	HistoryMismatch    Code = "HISTORY_MISMATCH"     // mem_rollback_archive
	ArchiveMismatch    Code = "ARCHIVE_MISMATCH"     // mem_rollback_archive
	RollbackRepeated   Code = "ROLLBACK_REPEATED"    // mem_rollback_archive
	UnknownArchive     Code = "UNKNOWN_ARCHIVE"      // mem_read_archive
	NotAProject        Code = "NOT_A_PROJECT"        // mem_historize
	SlugExists         Code = "SLUG_EXISTS"          // mem_init_project
	NoRepoRoot         Code = "NO_REPO_ROOT"         // mem_archive_rewrite_paths
	ContextHygieneRace Code = "CONTEXT_HYGIENE_RACE" // mem_context_hygiene (its conflict code)
	// Declined is a host's: the user, asked to confirm a plan that cannot
	// be undone (wire.Answer.Confirm), declined or cancelled; nothing was
	// written (mem_rollback_archive, mem_archive_rewrite_paths).
	Declined Code = "DECLINED"
)

// Error is a refusal: Code is stable, messages exist in English and French.
type Error struct {
	Code    Code
	En, Fr  string
	Details map[string]any
}

// New returns an error with code, its English and French messages and
// optional details (nil for none).
func New(code Code, details map[string]any, en, fr string) *Error {
	if details == nil {
		details = map[string]any{}
	}
	return &Error{Code: code, En: en, Fr: fr, Details: details}
}

// Error returns "CODE: english message".
func (e *Error) Error() string { return string(e.Code) + ": " + e.En }

// Message returns the message in lang ("en" or "fr"; anything else is English).
func (e *Error) Message(lang string) string {
	if lang == "fr" && e.Fr != "" {
		return e.Fr
	}
	return e.En
}

// As returns err as an *Error when it is one (or wraps one).
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// CodeOf returns err's code, or "" when err is not an *Error.
func CodeOf(err error) Code {
	if e, ok := As(err); ok {
		return e.Code
	}
	return ""
}

// Internalf wraps an unexpected failure as INTERNAL.
func Internalf(format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	return New(Internal, nil, "internal error: "+msg, "erreur interne : "+msg)
}

// Argument returns INVALID_ARGUMENT naming param.
func Argument(param, en, fr string) *Error {
	return New(InvalidArgument, map[string]any{"parameter": param},
		fmt.Sprintf("parameter %q: %s", param, en),
		fmt.Sprintf("paramètre « %s » : %s", param, fr))
}

// Msg is a message in English and French: a fmt format each, taking the
// same arguments. Tools keep theirs in one table per tool.
type Msg struct{ En, Fr string }

// In returns the message in lang ("fr", or English otherwise), formatted
// with args.
func (m Msg) In(lang string, args ...any) string {
	f := m.En
	if lang == "fr" {
		f = m.Fr
	}
	if len(args) == 0 {
		return f
	}
	return fmt.Sprintf(f, args...)
}

// Err returns an error with code and details whose messages are m
// formatted with args.
func (m Msg) Err(code Code, details map[string]any, args ...any) *Error {
	return New(code, details, m.In("en", args...), m.In("fr", args...))
}
