package hygiene

import (
	"strings"
	"testing"
)

// fields is the body of a well-formed block.
const fields = "**Objective:** ship the check\n" +
	"**Completed:** parser\n" +
	"**Decisions:** follow the reference\n" +
	"**Open threads:** none\n" +
	"**Next action:** write tests\n\n"

// block returns a well-formed block dated date.
func block(date string) string { return "## " + date + " — session " + date + "\n" + fields }

const logHead = "---\ntype: session-log\n---\n# Session log\n\nNewest first. Keep five.\n\n"

var okLog = logHead + block("2026-11-29")

const okPrio = "# Active priorities\n\n" +
	"## Operating Mode: build\n\n" +
	"## Tier 1\n- ship kessho\n- [ ] write docs\n\n" +
	"## Tier 2\n- triage issues\n\n" +
	"Last reviewed: 2026-11-01\n"

// want builds an expected line from its fields, in SPEC order.
func want(pass bool, entries, errs int, newest bool, modes, live, ph int, reviewed, archived bool) string {
	return Report{entries, retentionLimit, errs, newest, modes, live, ph, reviewed, archived, pass}.Line()
}

const passLine = "CONTEXT_HYGIENE PASS session_entries=1 retention_limit=5 block_errors=0 newest_first=yes operating_modes=1 live_priorities=3 placeholders=0 last_reviewed=yes embedded_archive=no"

func TestLineLiteral(t *testing.T) {
	if got := Check(okLog, okPrio).Line(); got != passLine {
		t.Fatalf("Check(okLog, okPrio).Line() =\n%s\nwant\n%s", got, passLine)
	}
	fail := "CONTEXT_HYGIENE FAIL session_entries=0 retention_limit=5 block_errors=0 newest_first=yes operating_modes=0 live_priorities=0 placeholders=0 last_reviewed=no embedded_archive=no"
	if got := Check("", "").Line(); got != fail {
		t.Fatalf("Check(\"\", \"\").Line() =\n%s\nwant\n%s", got, fail)
	}
}

func TestUnreadableLine(t *testing.T) {
	got := UnreadableLine("open SESSION_LOG.md: no such file\r\n\nsecond")
	if w := "CONTEXT_HYGIENE FAIL unreadable_input=open SESSION_LOG.md: no such file second"; got != w {
		t.Fatalf("UnreadableLine = %q; want %q", got, w)
	}
}

// TestSessionRules checks each SESSION_LOG rule of SPEC section 10 on its
// own, against okPrio (3 live priorities).
func TestSessionRules(t *testing.T) {
	for _, c := range sessionCases {
		if got := Check(c.log, okPrio).Line(); got != c.want {
			t.Errorf("%s: Check(%q).Line() =\n%s\nwant\n%s", c.name, c.log, got, c.want)
		}
	}
}

var ok1 = want(true, 1, 0, true, 1, 3, 0, true, false)

var sessionCases = []struct {
	name, log, want string
}{
	{"one block", okLog, ok1},
	{"no block", logHead, want(false, 0, 0, true, 1, 3, 0, true, false)},
	{"empty file", "", want(false, 0, 0, true, 1, 3, 0, true, false)},
	{"five blocks", logHead + block("2026-11-29") + block("2026-11-28") + block("2026-11-27") + block("2026-11-26") + block("2026-11-25"),
		want(true, 5, 0, true, 1, 3, 0, true, false)},
	{"six blocks", logHead + block("2026-11-29") + block("2026-11-28") + block("2026-11-27") + block("2026-11-26") + block("2026-11-25") + block("2026-11-24"),
		want(false, 6, 0, true, 1, 3, 0, true, false)},

	// Fences.
	{"header in backtick fence", okLog + "```\n## 2026-11-28 — hidden\n```\n", ok1},
	{"header in tilde fence", okLog + "~~~\n## 2026-11-28 — hidden\n~~~\n", ok1},
	{"indented fence opens", okLog + "      ```\n## 2026-11-28 — hidden\n```\n", ok1},
	{"tab-indented fence opens", okLog + "\t~~~ text\n## 2026-11-28 — hidden\n~~~\n", ok1},
	{"closing needs as many", okLog + "````\n```\n## 2026-11-28 — hidden\n````\n", ok1},
	{"closing may be longer", okLog + "```\n`````\n## 2026-11-28 — shown\n" + fields, want(true, 2, 0, true, 1, 3, 0, true, false)},
	{"closing needs same char", okLog + "```\n~~~\n## 2026-11-28 — hidden\n```\n", ok1},
	{"closing allows only blanks after", okLog + "```\n``` x\n## 2026-11-28 — hidden\n```\n", ok1},
	{"closing may be indented with trailing blanks", okLog + "```\n \t```\t \n## 2026-11-28 — shown\n" + fields, want(true, 2, 0, true, 1, 3, 0, true, false)},
	{"unclosed fence runs to the end", okLog + "```\n## 2026-11-28 — hidden\n## 2026-02-30 — hidden too\n", ok1},
	{"markers in an unclosed fence still count", okLog + "```\n## 2026-11-28 — hidden\n" + fields, want(false, 1, 1, true, 1, 3, 0, true, false)},
	{"two backticks do not open", okLog + "``\n## 2026-11-28 — shown\n" + fields, want(true, 2, 0, true, 1, 3, 0, true, false)},
	{"fence inside a block: markers still count", logHead + "## 2026-11-29 — fenced\n```\n" + fields + "```\n", ok1},

	// Line endings.
	{"CRLF", strings.ReplaceAll(okLog, "\n", "\r\n"), ok1},
	{"CR only", strings.ReplaceAll(okLog, "\n", "\r"), ok1},
	{"CR only, two blocks", strings.ReplaceAll(logHead+block("2026-11-29")+block("2026-11-28"), "\n", "\r"), want(true, 2, 0, true, 1, 3, 0, true, false)},
	{"CR only, fence", strings.ReplaceAll(okLog+"```\n## 2026-11-28 — hidden\n```\n", "\n", "\r"), ok1},
	{"no final line ending", strings.TrimSuffix(okLog, "\n\n"), ok1},

	// Header shape.
	{"hyphen dash", logHead + "## 2026-11-29 - session\n" + fields, ok1},
	{"tabs around", logHead + "##\t2026-11-29\t—\tsession\n" + fields, ok1},
	{"empty title (blanks) is a malformed block", logHead + "## 2026-11-29 —   \n" + fields, want(false, 1, 1, true, 1, 3, 0, true, false)},
	{"two blanks after the dash: empty title", logHead + "## 2026-11-29 —  \n" + fields, want(false, 1, 1, true, 1, 3, 0, true, false)},
	{"one blank after the dash: no header", logHead + "## 2026-11-29 — \n" + fields, want(false, 0, 0, true, 1, 3, 0, true, false)},
	{"nothing after the dash: no header", logHead + "## 2026-11-29 —\n" + fields, want(false, 0, 0, true, 1, 3, 0, true, false)},
	{"no blank after the dash: no header", logHead + "## 2026-11-29 —x\n" + fields, want(false, 0, 0, true, 1, 3, 0, true, false)},
	{"NBSP title is empty", logHead + "## 2026-11-29 — \u00a0\n" + fields, want(false, 1, 1, true, 1, 3, 0, true, false)},
	{"H3 is no header", logHead + "### 2026-11-29 — session\n" + fields, want(false, 0, 0, true, 1, 3, 0, true, false)},
	{"leading blank is no header", logHead + " ## 2026-11-29 — session\n" + fields, want(false, 0, 0, true, 1, 3, 0, true, false)},
	{"valid date without dash stays in the block", okLog + "## 2026-11-28 notes\nmore text\n", ok1},
	{"valid date without dash cuts a field body", logHead + "## 2026-11-29 — s\n" + strings.Replace(fields, "**Next action:** write tests\n", "**Next action:**\n## 2026-11-28 notes\nwrite tests\n", 1),
		want(false, 1, 1, true, 1, 3, 0, true, false)},

	// Dates.
	{"invalid date is a malformed header", okLog + "## 2026-02-30 — x\n", want(false, 1, 1, true, 1, 3, 0, true, false)},
	{"invalid date without title is malformed too", okLog + "## 2026-13-01\n", want(false, 1, 1, true, 1, 3, 0, true, false)},
	{"invalid date before a dash (boundary)", okLog + "## 2026-04-31-x\n", want(false, 1, 1, true, 1, 3, 0, true, false)},
	{"invalid date glued to a word: nothing", okLog + "## 2026-02-30x\n", ok1},
	{"year 0099 is invalid", okLog + "## 0099-01-01 — x\n", want(false, 1, 1, true, 1, 3, 0, true, false)},
	{"year 0100 is valid", logHead + block("2026-11-29") + block("0100-03-01"), want(true, 2, 0, true, 1, 3, 0, true, false)},
	{"leap day 2024", logHead + block("2024-02-29"), ok1},
	{"2100-02-29 invalid", okLog + "## 2100-02-29 — x\n", want(false, 1, 1, true, 1, 3, 0, true, false)},
	{"2000-02-29 valid", logHead + block("2000-02-29"), ok1},
	{"day 00 invalid", okLog + "## 2026-11-00 — x\n", want(false, 1, 1, true, 1, 3, 0, true, false)},
	{"invalid date in a fence is ignored", okLog + "```\n## 2026-02-30 — x\n```\n", ok1},

	// Order.
	{"oldest first", logHead + block("2026-11-28") + block("2026-11-29"), want(false, 2, 0, false, 1, 3, 0, true, false)},
	{"same day twice", logHead + block("2026-11-29") + block("2026-11-29"), want(true, 2, 0, true, 1, 3, 0, true, false)},

	// Fields.
	{"labels case-insensitive", logHead + "## 2026-11-29 — s\n" + strings.ToUpper(fields), ok1},
	{"body on the lines below", logHead + "## 2026-11-29 — s\n**Objective:**\n- a\n**Completed:**\n\n  b\n**Decisions:** c\n**Open threads:** d\n**Next action:**\ne\n", ok1},
	{"missing field", logHead + "## 2026-11-29 — s\n" + strings.Replace(fields, "**Decisions:** follow the reference\n", "", 1), want(false, 1, 1, true, 1, 3, 0, true, false)},
	{"empty field", logHead + "## 2026-11-29 — s\n" + strings.Replace(fields, "**Decisions:** follow the reference\n", "**Decisions:**   \n", 1), want(false, 1, 1, true, 1, 3, 0, true, false)},
	{"NBSP-only field is empty", logHead + "## 2026-11-29 — s\n" + strings.Replace(fields, "**Decisions:** follow the reference\n", "**Decisions:** \u00a0\n\u3000\n", 1), want(false, 1, 1, true, 1, 3, 0, true, false)},
	{"duplicate field", okLog + "**Objective:** again\n", want(false, 1, 1, true, 1, 3, 0, true, false)},
	{"duplicate field in a fence", okLog + "```\n**objective:** again\n```\n", want(false, 1, 1, true, 1, 3, 0, true, false)},
	{"body cut at ## + blank", logHead + "## 2026-11-29 — s\n" + strings.Replace(fields, "**Next action:** write tests\n", "**Next action:**\n## Notes\nwrite tests\n", 1), want(false, 1, 1, true, 1, 3, 0, true, false)},
	{"##x does not cut", logHead + "## 2026-11-29 — s\n" + strings.Replace(fields, "**Next action:** write tests\n", "**Next action:**\n##x\n", 1), ok1},
	{"### does not cut", logHead + "## 2026-11-29 — s\n" + strings.Replace(fields, "**Next action:** write tests\n", "**Next action:**\n### step\n", 1), ok1},
	{"body ends at the next marker", logHead + "## 2026-11-29 — s\n**Objective:**\n**Completed:** a\nb\n**Decisions:** c\n**Open threads:** d\n**Next action:** e\n", want(false, 1, 1, true, 1, 3, 0, true, false)},
	{"marker must start the line", logHead + "## 2026-11-29 — s\n " + fields, want(false, 1, 1, true, 1, 3, 0, true, false)},
	{"colon inside the bold", logHead + "## 2026-11-29 — s\n" + strings.Replace(fields, "**Objective:**", "**Objective**:", 1), want(false, 1, 1, true, 1, 3, 0, true, false)},
	{"inline text without blank", logHead + "## 2026-11-29 — s\n" + strings.Replace(fields, "**Objective:** ship", "**Objective:**ship", 1), ok1},
	{"several errors count per block", logHead + "## 2026-11-29 —  \n**Objective:** x\n" + "## 2026-11-28 — s\n" + fields + "## 2026-02-31 — bad\n",
		want(false, 2, 2, true, 1, 3, 0, true, false)},
}

// TestPrioritiesRules checks each ACTIVE_PRIORITIES rule of SPEC section 10
// on its own, against okLog.
func TestPrioritiesRules(t *testing.T) {
	for _, c := range prioCases {
		if got := Check(okLog, c.prio).Line(); got != c.want {
			t.Errorf("%s: Check(okLog, %q).Line() =\n%s\nwant\n%s", c.name, c.prio, got, c.want)
		}
	}
}

const (
	mode  = "## Operating Mode: build\n"
	stamp = "Last reviewed: 2026-11-01\n"
)

func tierDoc(rows string) string { return mode + "## Tier 1\n" + rows + "\n" + stamp }

var prioCases = []struct {
	name, prio, want string
}{
	{"baseline", okPrio, passLine},

	// Operating modes.
	{"no mode", strings.Replace(okPrio, mode, "", 1), want(false, 1, 0, true, 0, 3, 0, true, false)},
	{"two modes", mode + okPrio, want(false, 1, 0, true, 2, 3, 0, true, false)},
	{"one-character mode does not count", strings.Replace(okPrio, mode, "## Operating Mode: A\n", 1), want(false, 1, 0, true, 0, 3, 0, true, false)},
	{"two-character mode counts", strings.Replace(okPrio, mode, "## Operating Mode: AB\n", 1), passLine},
	{"one character then a blank counts", strings.Replace(okPrio, mode, "## Operating Mode: A \n", 1), passLine},
	{"mode case-insensitive, no blank", strings.Replace(okPrio, mode, "##\toperating mode:focus\n", 1), passLine},
	{"mode heading needs a blank after ##", strings.Replace(okPrio, mode, "##Operating Mode: build\n", 1), want(false, 1, 0, true, 0, 3, 0, true, false)},
	{"mode in a fence", strings.Replace(okPrio, mode, "```\n"+mode+"```\n", 1), want(false, 1, 0, true, 0, 3, 0, true, false)},
	{"mode of one emoji counts (two UTF-16 units)", strings.Replace(okPrio, mode, "## Operating Mode: 🚀\n", 1), passLine},

	// Tier sections and live priorities.
	{"checkboxes", tierDoc("- [ ] a task\n- [x] done task\n- [X] other\n"), want(true, 1, 0, true, 1, 3, 0, true, false)},
	{"star bullets and indented sub-bullets", tierDoc("* top\n  - sub\n\t* tab sub\n"), want(true, 1, 0, true, 1, 3, 0, true, false)},
	{"table rows do not count", tierDoc("| a | b |\n|---|---|\n| c | d |\n- one\n"), want(true, 1, 0, true, 1, 1, 0, true, false)},
	{"plus and numbered items do not count", tierDoc("+ plus\n1. one\n- one\n"), want(true, 1, 0, true, 1, 1, 0, true, false)},
	{"one-character text does not count", tierDoc("- a\n- ab\n"), want(true, 1, 0, true, 1, 1, 0, true, false)},
	{"checkbox with one character counts as text", tierDoc("- [ ] x\n"), want(true, 1, 0, true, 1, 1, 0, true, false)},
	{"bare checkbox counts", tierDoc("- [ ]\n"), want(true, 1, 0, true, 1, 1, 0, true, false)},
	{"two blanks then one character counts", tierDoc("-  x\n"), want(true, 1, 0, true, 1, 1, 0, true, false)},
	{"text ending in NBSP does not count", tierDoc("- ab\u00a0\n- ok\n"), want(true, 1, 0, true, 1, 1, 0, true, false)},
	{"no blank after the dash", tierDoc("-ab\n- ok\n"), want(true, 1, 0, true, 1, 1, 0, true, false)},
	{"tiers 1 2 3 count, 4 does not", mode + "## Tier 1\n- a1\n## Tier 2\n- b2\n## tier 3 — later\n- c3\n## Tier 4\n- d4\n" + stamp, want(true, 1, 0, true, 1, 3, 0, true, false)},
	{"Tier 1a is no tier", mode + "## Tier 1a\n- a1\n## Tier 1\n- b2\n" + stamp, want(true, 1, 0, true, 1, 1, 0, true, false)},
	{"### Tier 1 is no tier", mode + "### Tier 1\n- a1\n## Tier 1\n- b2\n" + stamp, want(true, 1, 0, true, 1, 1, 0, true, false)},
	{"section ends at the next ## heading", mode + "## Tier 1\n- a1\n## Notes\n- n1\n" + stamp, want(true, 1, 0, true, 1, 1, 0, true, false)},
	{"### does not end a section", mode + "## Tier 1\n- a1\n### Detail\n- a2\n" + stamp, want(true, 1, 0, true, 1, 2, 0, true, false)},
	{"bullets in a fence do not count", tierDoc("- a1\n```\n- a2\n```\n"), want(true, 1, 0, true, 1, 1, 0, true, false)},
	{"no priority", tierDoc(""), want(false, 1, 0, true, 1, 0, 0, true, false)},
	{"six priorities", tierDoc("- p1\n- p2\n- p3\n- p4\n- p5\n- p6\n"), want(false, 1, 0, true, 1, 6, 0, true, false)},

	// Placeholders.
	{"[Your …]", tierDoc("- [Your top priority]\n"), want(false, 1, 0, true, 1, 1, 1, true, false)},
	{"[Optional …]", tierDoc("- [Optional] a second one\n"), want(false, 1, 0, true, 1, 1, 1, true, false)},
	{"[list", tierDoc("- [List the fronts\n"), want(false, 1, 0, true, 1, 1, 1, true, false)},
	{"[describe", tierDoc("- [describe it]\n"), want(false, 1, 0, true, 1, 1, 1, true, false)},
	{"[add", tierDoc("- [ ] [add more]\n"), want(false, 1, 0, true, 1, 1, 1, true, false)},
	{"[your…] anywhere", tierDoc("- ship [your product] now\n"), want(false, 1, 0, true, 1, 1, 1, true, false)},
	{"[yourself] anywhere", tierDoc("- be [yourself]\n"), want(false, 1, 0, true, 1, 1, 1, true, false)},
	{"[adding is no placeholder", tierDoc("- [adding] tests\n"), want(true, 1, 0, true, 1, 1, 0, true, false)},
	{"[your without ] later is no placeholder", tierDoc("- see [yours\n"), want(true, 1, 0, true, 1, 1, 0, true, false)},
	{"placeholder in a sub-bullet", tierDoc("- real one\n  - [Your detail]\n"), want(false, 1, 0, true, 1, 2, 1, true, false)},

	// Last reviewed.
	{"**Last reviewed:**", strings.Replace(okPrio, stamp, "**Last reviewed:** 2026-11-01\n", 1), passLine},
	{"**Last reviewed**:", strings.Replace(okPrio, stamp, "**Last reviewed**: 2026-11-01\n", 1), passLine},
	{"Last reviewed:** (no opening bold)", strings.Replace(okPrio, stamp, "Last reviewed:** 2026-11-01\n", 1), passLine},
	{"lowercase, no blank", strings.Replace(okPrio, stamp, "last reviewed:2026-11-01 by me\n", 1), passLine},
	{"invalid date", strings.Replace(okPrio, stamp, "Last reviewed: 2026-02-30\n", 1), want(false, 1, 0, true, 1, 3, 0, false, false)},
	{"date glued to a word", strings.Replace(okPrio, stamp, "Last reviewed: 2026-11-01x\n", 1), want(false, 1, 0, true, 1, 3, 0, false, false)},
	{"first stamp wins", strings.Replace(okPrio, stamp, "Last reviewed: 2026-02-30\nLast reviewed: 2026-11-01\n", 1), want(false, 1, 0, true, 1, 3, 0, false, false)},
	{"not at line start", strings.Replace(okPrio, stamp, "  Last reviewed: 2026-11-01\n", 1), want(false, 1, 0, true, 1, 3, 0, false, false)},
	{"no colon", strings.Replace(okPrio, stamp, "Last reviewed 2026-11-01\n", 1), want(false, 1, 0, true, 1, 3, 0, false, false)},
	{"in a fence", strings.Replace(okPrio, stamp, "```\n"+stamp+"```\n", 1), want(false, 1, 0, true, 1, 3, 0, false, false)},
	{"no stamp", strings.Replace(okPrio, stamp, "", 1), want(false, 1, 0, true, 1, 3, 0, false, false)},

	// Embedded archive.
	{"## Archived", okPrio + "\n## Archived\n- old\n", want(false, 1, 0, true, 1, 3, 0, true, true)},
	{"## archived items", okPrio + "\n##\tarchived items\n", want(false, 1, 0, true, 1, 3, 0, true, true)},
	{"## Archives is not", okPrio + "\n## Archives\n", passLine},
	{"in a fence is not", okPrio + "\n~~~\n## Archived\n~~~\n", passLine},

	// Line endings.
	{"CRLF", strings.ReplaceAll(okPrio, "\n", "\r\n"), passLine},
	{"CR only", strings.ReplaceAll(okPrio, "\n", "\r"), passLine},
}

// scanBlocks returns the session blocks of a SESSION_LOG.md text, in file
// order, and the gates a trim stops at wherever the blocks are: headers with
// an invalid date, malformed blocks, and each block dated after the one
// before it. (PlanTrim adds the unknown shapes of the blocks it would move.)
func scanBlocks(sessionLog string) ([]sessionBlock, []Gate) {
	sc := scanSession(sessionLog)
	return sc.blocks, sc.gates()
}

func TestBlocks(t *testing.T) {
	log := "# Log\r\n\r\n## 2026-11-29 — new\r\n" + strings.ReplaceAll(fields, "\n", "\r\n") +
		"## 2026-02-30 — bad\r\n" +
		"## 2026-11-30 —  \r\n**Objective:** x\r\n**Objective:** y\r\n"
	blocks, gates := scanBlocks(log)
	if len(blocks) != 2 {
		t.Fatalf("scanBlocks: %d blocks; want 2", len(blocks))
	}
	b := blocks[0]
	if b.Heading != "## 2026-11-29 — new" || b.Date != "2026-11-29" || b.Title != "new" || b.Line != 3 || b.Malformed {
		t.Errorf("Blocks[0] = %+v", b)
	}
	if log[b.Start:b.End] != "## 2026-11-29 — new\r\n"+strings.ReplaceAll(fields, "\n", "\r\n")+"## 2026-02-30 — bad\r\n" {
		t.Errorf("Blocks[0] bytes = %q", log[b.Start:b.End])
	}
	b = blocks[1]
	if !b.Malformed || b.Line != 11 || b.End != len(log) ||
		b.Reason != "empty title; duplicate **Objective:**; missing **Completed:**; missing **Decisions:**; missing **Open threads:**; missing **Next action:**" {
		t.Errorf("Blocks[1] = %+v", b)
	}
	wantGates := []Gate{
		{FileSessionLog, 10, "malformed session header: 2026-02-30 is not a real date", true},
		{FileSessionLog, 11, "malformed session block: " + b.Reason, true},
		{FileSessionLog, 11, "session blocks out of order: 2026-11-30 comes after 2026-11-29 (newest first)", true},
	}
	if len(gates) != len(wantGates) {
		t.Fatalf("Blocks gates = %+v; want %+v", gates, wantGates)
	}
	for i := range gates {
		if gates[i] != wantGates[i] {
			t.Errorf("gate %d = %+v; want %+v", i, gates[i], wantGates[i])
		}
	}
}

func TestLineNumbersCountCRAndCRLF(t *testing.T) {
	log := "a\rb\r\nc\n## 2026-02-30 — x\n"
	_, gates := scanBlocks(log)
	if len(gates) != 1 || gates[0].Line != 4 {
		t.Fatalf("scanBlocks(%q) gates = %+v; want one at line 4", log, gates)
	}
}

func TestValidDate(t *testing.T) {
	for d, ok := range map[string]bool{
		"2026-11-29": true, "2024-02-29": true, "2023-02-29": false, "2000-02-29": true, "1900-02-29": false,
		"0100-01-01": true, "0099-12-31": false, "0000-01-01": false, "2026-00-10": false, "2026-13-10": false,
		"2026-04-31": false, "2026-04-30": true, "2026-1-01": false, "2026/11/29": false, "9999-12-31": true,
	} {
		if validDate(d) != ok {
			t.Errorf("validDate(%q) = %v; want %v", d, !ok, ok)
		}
	}
}

func TestCharHelpers(t *testing.T) {
	if got := trim("\u00a0\t x y\u3000\ufeff\n"); got != "x y" {
		t.Errorf("trim = %q", got)
	}
	if got := trim("\u0085x\u0085"); got != "\u0085x\u0085" {
		t.Errorf("trim(NEL) = %q; NEL is not JavaScript whitespace", got)
	}
	// WHATWG decoding: a truncated 3-byte sequence is one U+FFFD.
	if r, n := decode("\xe2\x82A", 0); r != 0xFFFD || n != 2 {
		t.Errorf("decode(E2 82 41) = %U, %d; want U+FFFD, 2", r, n)
	}
	if r, n := decode("\xed\xa0\x80", 0); r != 0xFFFD || n != 1 {
		t.Errorf("decode(ED A0 80) = %U, %d; want U+FFFD, 1 (surrogate)", r, n)
	}
	if r, n := decode("😀", 0); r != '😀' || n != 4 {
		t.Errorf("decode(emoji) = %U, %d", r, n)
	}
	if units("😀", 9) != 2 || units("\xe2\x82", 9) != 1 || units("ab", 9) != 2 {
		t.Error("units: wrong UTF-16 length")
	}
}

// TestUnicodeSeparators pins the reference's behaviour: U+2028 ends a line
// for the rules (not for masking).
func TestUnicodeSeparators(t *testing.T) {
	log := okLog + "note\u2028## 2026-11-28 — hidden behind LS\n" + fields
	if got, w := Check(log, okPrio).SessionEntries, 2; got != w {
		t.Errorf("SessionEntries with U+2028 = %d; want %d", got, w)
	}
	// A fence opened after U+2028 does not open (masking splits at CR/LF only).
	log = okLog + "x\u2028```\n## 2026-11-28 — shown\n" + fields
	if got, w := Check(log, okPrio).SessionEntries, 2; got != w {
		t.Errorf("SessionEntries with U+2028 fence = %d; want %d", got, w)
	}
}
