package hygiene

import (
	"strconv"
	"strings"
)

// Report is the reference checker's verdict and counts.
type Report struct {
	SessionEntries  int  // counted session headers
	RetentionLimit  int  // always RetentionLimit
	BlockErrors     int  // malformed headers + malformed blocks
	NewestFirst     bool // each block's date ≤ the one before it
	OperatingModes  int
	LivePriorities  int
	Placeholders    int
	LastReviewed    bool
	EmbeddedArchive bool
	Pass            bool
}

// Check returns the reference checker's verdict on the texts of
// SESSION_LOG.md and ACTIVE_PRIORITIES.md.
//
//	r := hygiene.Check(log, priorities)
//	fmt.Println(r.Line()) // CONTEXT_HYGIENE PASS session_entries=3 …
func Check(sessionLog, priorities string) Report {
	return report(scanSession(sessionLog), scanPriorities(priorities))
}

func report(sc *sessionScan, ps *prioScan) Report {
	r := Report{
		SessionEntries:  len(sc.blocks),
		RetentionLimit:  retentionLimit,
		BlockErrors:     len(sc.badHeaders),
		NewestFirst:     sc.outOfOrder < 0,
		OperatingModes:  len(ps.modes),
		LivePriorities:  len(ps.rows),
		Placeholders:    ps.placeholders(),
		LastReviewed:    ps.reviewed,
		EmbeddedArchive: len(ps.archiveLines) > 0,
	}
	for _, b := range sc.blocks {
		if b.Malformed {
			r.BlockErrors++
		}
	}
	r.Pass = r.SessionEntries >= 1 && r.SessionEntries <= retentionLimit && r.BlockErrors == 0 && r.NewestFirst &&
		r.OperatingModes == 1 && r.LivePriorities >= 1 && r.LivePriorities <= 5 && r.Placeholders == 0 &&
		r.LastReviewed && !r.EmbeddedArchive
	return r
}

// Line returns the checker's output line, without a line ending:
//
//	CONTEXT_HYGIENE PASS session_entries=1 retention_limit=5 block_errors=0 newest_first=yes operating_modes=1 live_priorities=2 placeholders=0 last_reviewed=yes embedded_archive=no
//
// PASS becomes FAIL when r.Pass is false; the fields are always there, in
// this order, separated by single spaces.
func (r Report) Line() string {
	var b strings.Builder
	b.WriteString("CONTEXT_HYGIENE ")
	if r.Pass {
		b.WriteString("PASS")
	} else {
		b.WriteString("FAIL")
	}
	num := func(k string, v int) { b.WriteString(" " + k + "=" + strconv.Itoa(v)) }
	yes := func(k string, v bool) {
		if v {
			b.WriteString(" " + k + "=yes")
		} else {
			b.WriteString(" " + k + "=no")
		}
	}
	num("session_entries", r.SessionEntries)
	num("retention_limit", r.RetentionLimit)
	num("block_errors", r.BlockErrors)
	yes("newest_first", r.NewestFirst)
	num("operating_modes", r.OperatingModes)
	num("live_priorities", r.LivePriorities)
	num("placeholders", r.Placeholders)
	yes("last_reviewed", r.LastReviewed)
	yes("embedded_archive", r.EmbeddedArchive)
	return b.String()
}

// UnreadableLine returns the line the checker writes (to standard error)
// when a file cannot be read: `CONTEXT_HYGIENE FAIL unreadable_input=<reason>`,
// each run of CR/LF in reason replaced by one space. No line ending.
func UnreadableLine(reason string) string {
	var b strings.Builder
	b.WriteString("CONTEXT_HYGIENE FAIL unreadable_input=")
	for i := 0; i < len(reason); {
		if reason[i] == '\r' || reason[i] == '\n' {
			for i < len(reason) && (reason[i] == '\r' || reason[i] == '\n') {
				i++
			}
			b.WriteByte(' ')
			continue
		}
		b.WriteByte(reason[i])
		i++
	}
	return b.String()
}
