package call

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/kessho/kessho/core/fault"
)

// deadline is a call's one deadline (see Run).
type deadline struct {
	at      time.Time
	bounded bool
	// limit is the call's own timeout, which the overrun message names;
	// 0 when ctx's own deadline, earlier, is the one that counts: its
	// length is the caller's.
	limit time.Duration
}

// newDeadline bounds ctx by timeout (none when negative), from now.
func newDeadline(ctx context.Context, timeout time.Duration) (context.Context, deadline, context.CancelFunc) {
	start := time.Now()
	cancel := context.CancelFunc(func() {})
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, timeout)
	}
	d := deadline{limit: timeout}
	d.at, d.bounded = ctx.Deadline()
	if d.bounded && (timeout <= 0 || d.at.Before(start.Add(timeout))) {
		d.limit = 0
	}
	return ctx, d, cancel
}

// late reports whether the deadline has passed, by the clock (a timer may
// not have fired yet), or err says it has.
func (d deadline) late(err error) bool {
	return d.bounded && !time.Now().Before(d.at) || errors.Is(err, context.DeadlineExceeded)
}

// overrun is the LIMIT_EXCEEDED of a call of tool past its deadline.
func (d deadline) overrun(tool string) error {
	if d.limit <= 0 {
		return fault.New(fault.LimitExceeded, map[string]any{"tool": tool},
			fmt.Sprintf("%s did not finish before the call's deadline; ask for less of the vault, or give the call more time", tool),
			fmt.Sprintf("%s n'a pas fini avant l'échéance de l'appel ; demandez moins du coffre, ou donnez plus de temps à l'appel", tool))
	}
	return fault.New(fault.LimitExceeded, map[string]any{"tool": tool, "timeout_ms": d.limit.Milliseconds()},
		fmt.Sprintf("%s did not finish within the call's deadline of %s; ask for less of the vault, or give the call more time (kessho --timeout)", tool, d.limit),
		fmt.Sprintf("%s n'a pas fini dans le délai de l'appel (%s) ; demandez moins du coffre, ou donnez plus de temps à l'appel (kessho --timeout)", tool, d.limit))
}
