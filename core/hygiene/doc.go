// Package hygiene is the pure logic of mem_context_hygiene: the check of
// memory/SESSION_LOG.md and memory/ACTIVE_PRIORITIES.md, and the plan of
// their nightly trim. Texts in, values out: no file, no clock.
//
//	r := hygiene.Check(sessionLog, priorities)
//	fmt.Println(r.Line()) // CONTEXT_HYGIENE PASS session_entries=3 retention_limit=5 …
//
//	p := hygiene.PlanTrim(sessionLog, priorities, sessionArchive, prioritiesArchive)
//	// p.SessionArchive, p.PrioritiesArchive, p.SessionLog, p.Priorities: the new texts (nil: unchanged)
//	// p.Gates: what needs a human; p.Blocked: nothing may be written
//
// # The check
//
// Check gives the reference checker's verdict and counts (SPEC section 10)
// on every input. During development it was compared with the reference
// implementation run under Node.js on several hundred thousand generated and
// mutated inputs (fences, CR/CRLF/LF, U+2028, invalid UTF-8, NBSP, emoji, …),
// and on every case of the package's tables: no difference. The rules, as
// implemented:
//
//   - Lines end at "\n", "\r\n" or "\r". Fence masking works on those lines
//     (scan): a line starting with optional spaces/tabs and 3+ backticks or
//     3+ tildes opens a fence, at any indentation; the fence closes at a
//     line of optional spaces/tabs, 3+ of the same character (at least as
//     many as the opening run) and only spaces/tabs after; everything from
//     the opening line to the closing one is masked; an unclosed fence runs
//     to the end. Not CommonMark, on purpose.
//   - Session headers, malformed headers and every ACTIVE_PRIORITIES rule
//     read unmasked lines only; field markers read the whole block, fences
//     included.
//   - Dates are real proleptic-Gregorian YYYY-MM-DD; years 0000–0099 are
//     invalid. newest_first compares dates as strings.
//   - Each rule is a line-anchored regular expression in the reference;
//     each is reproduced with its backtracking (see header, priority,
//     operatingMode, reviewStamp), e.g. "- [ ] x" is the live priority
//     "[ ] x", "-  x" (two spaces) is a live priority, "## Operating Mode: A "
//     (one letter, a trailing blank) counts as a mode.
//
// The whole check is linear in the size of its inputs: the text is split
// into lines once, with the mask, and every rule makes one pass over them.
//
// # Choices where SPEC section 10 is not explicit
//
// Each follows what the reference checker does, so that the verdict is the
// same on every input, the promise of section 10:
//
//   - U+2028 and U+2029 also end a line for every rule except fence
//     masking (the reference's rules are JavaScript regular expressions with
//     the m flag). Section 10's sentence lists only "\n", "\r\n" and "\r";
//     splitOnUnicodeSeparators in text.go switches to that literal reading.
//     Line numbers in gates count "\n", "\r\n" and "\r" only.
//   - "Trimmed", "empty" and "whitespace" use JavaScript's whitespace set
//     (String.prototype.trim, \s): NBSP, U+3000, U+FEFF… are blanks; U+0085
//     is not. "Blanks" in a pattern are only spaces and tabs.
//   - "Characters" are UTF-16 code units, as in JavaScript: a mode or a
//     priority text of a single emoji is two characters.
//   - Invalid UTF-8 is read as Node.js reads it: each maximal invalid
//     subsequence is one U+FFFD.
//   - Labels, `Tier`, `Archived`, `Operating Mode:` and `Last reviewed`
//     compare case-insensitively on ASCII letters only; a word boundary is
//     one between [A-Za-z0-9_] and anything else.
//
// # The trim
//
// PlanTrim's doc comment gives its rules. It is all or nothing (SPEC
// section 3): a blocking gate makes the plan write nothing, not even the
// ACTIVE_PRIORITIES part (SPEC section 9: "stops the trim: nothing
// written"). A new archive starts with SessionArchiveHeader or "# Active
// priorities archive", and a blank line.
package hygiene
