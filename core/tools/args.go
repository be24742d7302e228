package tools

import (
	"time"

	"github.com/kessho/kessho/core/fault"
)

// The helpers of arguments and results several tools use: refusing one
// argument, the slug argument, a date alone, and the pointers of optional
// values.

// argument is INVALID_ARGUMENT naming param, its message m formatted with
// args.
func argument(param string, m fault.Msg, args ...any) error {
	return fault.Argument(param, m.In("en", args...), m.In("fr", args...))
}

// slugArg is the slug argument of the tools withArchives runs.
type slugArg struct {
	Slug string `json:"slug"`
}

func (s *slugArg) slug() string { return s.Slug }

// slugged is a pointer to a tool's arguments that hold a slug.
type slugged[A any] interface {
	*A
	slug() string
}

// optional is s, or nil for "".
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// deref is *s, or "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// dateOnly reports whether s is a date alone (`2026-11-27`), the form of
// last-session in memory-kit vaults: a file that holds it so keeps it
// (SPEC section 1, the file's own form wins; docs/CONVENTIONS.md).
func dateOnly(s string) bool {
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

// intp and floatp are pointers to n and f (a parameter's bounds).
func intp(n int) *int           { return &n }
func floatp(f float64) *float64 { return &f }
