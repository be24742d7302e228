package call

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/kessho/kessho/core/fault"
)

// Clock is what a call's deadline is counted by (Options.Clock): the
// real clock when nil; a test's that it moves on itself, so that a call
// past its deadline is tested without waiting and no other call of the
// test depends on the machine's speed.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine once d has passed, unless
	// stop is called first.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// deadline is a call's one deadline (see Run).
type deadline struct {
	at, start time.Time
	bounded   bool
	now       func() time.Time
	// limit is the call's own timeout, which the overrun message names;
	// 0 when ctx's own deadline, earlier, is the one that counts: its
	// length is the caller's.
	limit time.Duration
}

// newDeadline bounds ctx by timeout (none when negative), from now. With
// a clock, the bound is the clock's alone: ctx ends (cancelled) when the
// clock passes it, and reports no deadline of its own, since the wasm
// engine compares a context's deadline with the real clock.
func newDeadline(ctx context.Context, timeout time.Duration, clock Clock) (context.Context, deadline, context.CancelFunc) {
	if clock != nil {
		d := deadline{limit: timeout, now: clock.Now, start: clock.Now()}
		if timeout <= 0 {
			return ctx, d, func() {}
		}
		d.at, d.bounded = clock.Now().Add(timeout), true
		ctx, cancel := context.WithCancelCause(ctx)
		stop := clock.AfterFunc(timeout, func() { cancel(context.DeadlineExceeded) })
		return ctx, d, func() { stop(); cancel(context.Canceled) }
	}
	start := time.Now()
	cancel := context.CancelFunc(func() {})
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, timeout)
	}
	d := deadline{limit: timeout, now: time.Now, start: start}
	d.at, d.bounded = ctx.Deadline()
	if d.bounded && (timeout <= 0 || d.at.Before(start.Add(timeout))) {
		d.limit = 0
	}
	return ctx, d, cancel
}

// late reports whether the deadline has passed, by the clock (a timer may
// not have fired yet), or err says it has.
func (d deadline) late(err error) bool {
	return d.bounded && !d.now().Before(d.at) || errors.Is(err, context.DeadlineExceeded)
}

// span is the time the call has from its start to its deadline (0: no
// deadline).
func (d deadline) span() time.Duration {
	if !d.bounded {
		return 0
	}
	return max(d.at.Sub(d.start), 0)
}

// overrun is the LIMIT_EXCEEDED of a call of tool past its deadline;
// kept, when the call stored a search index's build, says how far it got
// (details "indexed" and "left"), and that the next call goes on from
// there.
func (d deadline) overrun(tool string, kept *Progress) error {
	details := map[string]any{"tool": tool}
	en, fr := "", ""
	if kept != nil {
		details["indexed"], details["left"] = kept.Indexed, kept.Left
		en = fmt.Sprintf("; its search index is stored with %d of %d notes, and the next call goes on from there", kept.Indexed, kept.Indexed+kept.Left)
		fr = fmt.Sprintf(" ; son index de recherche est enregistré avec %d notes sur %d, et le prochain appel reprend de là", kept.Indexed, kept.Indexed+kept.Left)
	}
	if d.limit <= 0 {
		return fault.New(fault.LimitExceeded, details,
			fmt.Sprintf("%s did not finish before the call's deadline%s; ask for less of the vault, or give the call more time", tool, en),
			fmt.Sprintf("%s n'a pas fini avant l'échéance de l'appel%s ; demandez moins du coffre, ou donnez plus de temps à l'appel", tool, fr))
	}
	details["timeout_ms"] = d.limit.Milliseconds()
	return fault.New(fault.LimitExceeded, details,
		fmt.Sprintf("%s did not finish within the call's deadline of %s%s; ask for less of the vault, or give the call more time (kessho --timeout)", tool, d.limit, en),
		fmt.Sprintf("%s n'a pas fini dans le délai de l'appel (%s)%s ; demandez moins du coffre, ou donnez plus de temps à l'appel (kessho --timeout)", tool, d.limit, fr))
}
