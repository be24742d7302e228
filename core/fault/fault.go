// Package fault holds Kessho's errors as values: a stable code, a message
// in each supported language, and machine-readable details.
//
// Tools return a *Error for every refusal; core.Handle turns it into
// {"ok":false,"error":{"code":…,"message":…,"details":{…}}} in the caller's
// language.
package fault

import (
	"errors"
	"fmt"
)

// Codes shared by every tool (SPEC section 7), and the tools' own.
const (
	InvalidArgument    = "INVALID_ARGUMENT"
	InvalidSlug        = "INVALID_SLUG"
	UnknownSlug        = "UNKNOWN_SLUG"
	ProjectArchived    = "PROJECT_ARCHIVED"
	FrontmatterInvalid = "FRONTMATTER_INVALID"
	Conflict           = "CONFLICT"
	RecoveryConflict   = "RECOVERY_CONFLICT"
	VaultLocked        = "VAULT_LOCKED"
	LimitExceeded      = "LIMIT_EXCEEDED"
	Internal           = "INTERNAL"
	SummaryTooLong     = "SUMMARY_TOO_LONG"
	NoContext          = "NO_CONTEXT"
	SlugConflict       = "SLUG_CONFLICT"
	FileNotUTF8        = "FILE_NOT_UTF8"
)

// Error is a refusal: Code is stable, messages exist in English and French.
type Error struct {
	Code    string
	En, Fr  string
	Details map[string]any
}

// New returns an error with code, its English and French messages and
// optional details (nil for none).
func New(code string, details map[string]any, en, fr string) *Error {
	if details == nil {
		details = map[string]any{}
	}
	return &Error{Code: code, En: en, Fr: fr, Details: details}
}

// Error returns "CODE: english message".
func (e *Error) Error() string { return e.Code + ": " + e.En }

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

// Code returns err's code, or "" when err is not an *Error.
func Code(err error) string {
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
