package hygiene

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// logOf returns logHead followed by a block for each date.
func logOf(dates ...string) string {
	var b strings.Builder
	b.WriteString(logHead)
	for _, d := range dates {
		b.WriteString(block(d))
	}
	return b.String()
}

var seven = []string{"2026-11-29", "2026-11-28", "2026-11-27", "2026-11-26", "2026-11-25", "2026-11-24", "2026-11-23"}

func ptr(s string) *string { return &s }

// changes reports whether the plan writes anything.
func (p TrimPlan) changes() bool {
	return p.SessionLog != nil || p.SessionArchive != nil || p.Priorities != nil || p.PrioritiesArchive != nil
}

func str(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

func TestTrimGreenDoesNothing(t *testing.T) {
	p := PlanTrim(okLog, okPrio, nil, nil)
	if p.changes() || len(p.Gates) != 0 || !p.Before.Pass || !p.After.Pass {
		t.Fatalf("PlanTrim(green) = %+v; want nothing to do", p)
	}
}

func TestTrimSevenBlocks(t *testing.T) {
	log := logOf(seven...)
	p := PlanTrim(log, okPrio, nil, nil)
	if p.Blocked || p.MovedBlocks != 2 || p.SkippedDuplicates != 0 || p.Priorities != nil || p.PrioritiesArchive != nil {
		t.Fatalf("PlanTrim = %+v", p)
	}
	if w := logOf(seven[:5]...); str(p.SessionLog) != w {
		t.Errorf("SessionLog =\n%s\nwant\n%s", str(p.SessionLog), w)
	}
	if w := SessionArchiveHeader + "\n\n" + block(seven[5]) + block(seven[6]); str(p.SessionArchive) != w {
		t.Errorf("SessionArchive =\n%s\nwant\n%s", str(p.SessionArchive), w)
	}
	if !p.After.Pass || p.After.SessionEntries != 5 || p.Before.SessionEntries != 7 {
		t.Errorf("Before %s / After %s", p.Before.Line(), p.After.Line())
	}
}

func TestTrimAppendsToArchive(t *testing.T) {
	log := logOf(seven...)
	old := "# mine\n\n## 2026-10-01 — older\nno newline at the end"
	p := PlanTrim(log, okPrio, ptr(old), nil)
	if w := old + "\n" + block(seven[5]) + block(seven[6]); str(p.SessionArchive) != w {
		t.Errorf("SessionArchive =\n%q\nwant\n%q", str(p.SessionArchive), w)
	}
}

func TestTrimKeepsCRLF(t *testing.T) {
	log := strings.ReplaceAll(logOf(seven...), "\n", "\r\n")
	last := strings.TrimSuffix(block(seven[6]), "\n\n") // the file ends without a line ending
	log = strings.TrimSuffix(log, "\r\n\r\n")
	p := PlanTrim(log, okPrio, nil, nil)
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	if w := crlf(SessionArchiveHeader + "\n\n" + block(seven[5]) + last); str(p.SessionArchive) != w {
		t.Errorf("SessionArchive =\n%q\nwant\n%q", str(p.SessionArchive), w)
	}
	if w := crlf(logOf(seven[:5]...)); str(p.SessionLog) != w {
		t.Errorf("SessionLog =\n%q\nwant\n%q", str(p.SessionLog), w)
	}
	// Moving more blocks the same day: a line ending goes between.
	log2 := crlf(logOf("2026-11-30", "2026-11-29", "2026-11-28", "2026-11-27", "2026-11-26", "2026-11-25"))
	p2 := PlanTrim(log2, okPrio, p.SessionArchive, nil)
	if w := str(p.SessionArchive) + "\r\n" + crlf(block("2026-11-25")); str(p2.SessionArchive) != w {
		t.Errorf("second SessionArchive =\n%q\nwant\n%q", str(p2.SessionArchive), w)
	}
}

func TestTrimDeduplicates(t *testing.T) {
	log := logOf(seven...)
	first := PlanTrim(log, okPrio, nil, nil)
	// A crash after the archive was written, before the log was trimmed:
	// the re-run finds both blocks already archived.
	again := PlanTrim(log, okPrio, first.SessionArchive, nil)
	if again.SessionArchive != nil || again.MovedBlocks != 0 || again.SkippedDuplicates != 2 || str(again.SessionLog) != str(first.SessionLog) {
		t.Errorf("re-run = %+v; want the archive unchanged, 2 duplicates, the same log", again)
	}
	// The archive holds one of the two: only the other is written.
	partial := SessionArchiveHeader + "\n\n" + block(seven[6])
	p := PlanTrim(log, okPrio, &partial, nil)
	if w := partial + block(seven[5]); str(p.SessionArchive) != w || p.MovedBlocks != 1 || p.SkippedDuplicates != 1 {
		t.Errorf("partial: %d moved, %d skipped, archive\n%s", p.MovedBlocks, p.SkippedDuplicates, str(p.SessionArchive))
	}
	// Same heading, other bytes: not a duplicate.
	other := SessionArchiveHeader + "\n\n" + strings.Replace(block(seven[6]), "parser", "lexer", 1)
	p = PlanTrim(log, okPrio, &other, nil)
	if p.MovedBlocks != 2 || p.SkippedDuplicates != 0 {
		t.Errorf("other bytes: %d moved, %d skipped", p.MovedBlocks, p.SkippedDuplicates)
	}
	// The same block twice in the log is written once.
	twice := logOf(seven[:5]...) + block("2026-11-20") + block("2026-11-20")
	p = PlanTrim(twice, okPrio, nil, nil)
	if p.MovedBlocks != 1 || p.SkippedDuplicates != 1 || strings.Count(str(p.SessionArchive), "## 2026-11-20") != 1 {
		t.Errorf("twice: %d moved, %d skipped", p.MovedBlocks, p.SkippedDuplicates)
	}
}

func TestTrimGates(t *testing.T) {
	cases := []struct {
		name, log string
		gate      Gate
	}{
		{"malformed block", logOf(seven[:6]...) + "## 2026-11-01 — x\n**Objective:** only\n",
			Gate{FileSessionLog, 50, "malformed session block: missing **Completed:**; missing **Decisions:**; missing **Open threads:**; missing **Next action:**", true}},
		{"malformed header", logOf(seven...) + "## 2026-02-30 — x\n",
			Gate{FileSessionLog, 57, "malformed session header: 2026-02-30 is not a real date", true}},
		{"out of order", logOf("2026-11-29", "2026-11-28", "2026-11-30", "2026-11-27", "2026-11-26", "2026-11-25"),
			Gate{FileSessionLog, 22, "session blocks out of order: 2026-11-30 comes after 2026-11-28 (newest first)", true}},
		{"heading inside a block to move", logOf(seven...) + "## Footer\n",
			Gate{FileSessionLog, 57, "unknown shape: heading \"## Footer\" inside a session block to archive", true}},
		{"date without dash inside a block to move", logOf(seven[:6]...) + "## 2026-11-20 notes\n" + fields,
			Gate{FileSessionLog, 50, "unknown shape: heading \"## 2026-11-20 notes\" inside a session block to archive", true}},
		{"H1 inside a block to move", logOf(seven...) + "# Archive links\n",
			Gate{FileSessionLog, 57, "unknown shape: heading \"# Archive links\" inside a session block to archive", true}},
		{"unclosed fence in a block to move", logOf(seven...) + "```\nnever closed\n",
			Gate{FileSessionLog, 57, "unknown shape: a code fence opened here is never closed, inside a session block to archive", true}},
	}
	prio := okPrio + "- [stale] would move\n"
	for _, c := range cases {
		p := PlanTrim(c.log, prio, nil, nil)
		if !p.Blocked || p.changes() || p.MovedBlocks != 0 || p.MovedPriorityItems != 0 {
			t.Errorf("%s: PlanTrim = %+v; want blocked, nothing written", c.name, p)
			continue
		}
		found := false
		for _, g := range p.Gates {
			found = found || g == c.gate
		}
		if !found {
			t.Errorf("%s: gates %+v; want %+v", c.name, p.Gates, c.gate)
		}
		if p.After != p.Before {
			t.Errorf("%s: After %s; want Before %s", c.name, p.After.Line(), p.Before.Line())
		}
	}

	// A heading or an open fence in a kept block needs no judgment.
	log := logOf(seven[:4]...) + block("2026-11-25") + "## Notes kept\n" + block("2026-11-24")
	if p := PlanTrim(log, okPrio, nil, nil); p.Blocked || p.MovedBlocks != 1 {
		t.Errorf("heading in a kept block: %+v", p)
	}
	// An archive ending inside an open fence.
	if p := PlanTrim(logOf(seven...), okPrio, ptr("# a\n\n```\nopen\n"), nil); !p.Blocked ||
		p.Gates[0] != (Gate{FileSessionArchive, 3, "the archive ends inside an unclosed code fence: blocks appended after it would be hidden", true}) {
		t.Errorf("open archive: %+v", p)
	}
}

func TestTrimNoBlockIsNotBlocking(t *testing.T) {
	p := PlanTrim(logHead, okPrio+"- [stale] old\n", nil, nil)
	if p.Blocked || p.Priorities == nil {
		t.Fatalf("PlanTrim(no block) = %+v", p)
	}
	if p.Gates[0] != (Gate{FileSessionLog, 1, "no session block (`## YYYY-MM-DD — title`): a human writes one", false}) {
		t.Errorf("gates %+v", p.Gates)
	}
}

func TestTrimPriorities(t *testing.T) {
	prio := "# Active priorities\n\n" +
		"## Operating Mode: build\n\n" +
		"## Tier 1\n" +
		"- ship kessho\n" +
		"- [stale] old front\n" +
		"  - its detail\n" +
		"\n" +
		"    more detail\n" +
		"\n" +
		"- (Superseded) by the new plan\n" +
		"- [ ] [ARCHIVED] done long ago\n" +
		"- keep me #stalemate\n" +
		"- tagged #stale today\n" +
		"  - nested #superseded\n" +
		"- parent\n" +
		"  - (stale) child only\n" +
		"    - grandchild\n" +
		"  - sibling stays\n" +
		"```\n- [stale] in a fence stays\n```\n" +
		"- stale is not a marker\n\n" +
		"## Archived\n- gone\n### Sub\n- gone too\n\n" +
		"# Reference\n\nLast reviewed: 2026-11-01\n"
	p := PlanTrim(okLog, prio, nil, nil)
	wantPrio := "# Active priorities\n\n" +
		"## Operating Mode: build\n\n" +
		"## Tier 1\n" +
		"- ship kessho\n" +
		"\n" +
		"- keep me #stalemate\n" +
		"- parent\n" +
		"  - sibling stays\n" +
		"```\n- [stale] in a fence stays\n```\n" +
		"- stale is not a marker\n\n" +
		"# Reference\n\nLast reviewed: 2026-11-01\n"
	if str(p.Priorities) != wantPrio {
		t.Errorf("Priorities =\n%s\nwant\n%s", str(p.Priorities), wantPrio)
	}
	wantArch := prioritiesArchiveHeader + "\n\n" +
		"- [stale] old front\n  - its detail\n\n    more detail\n" +
		"- (Superseded) by the new plan\n" +
		"- [ ] [ARCHIVED] done long ago\n" +
		"- tagged #stale today\n  - nested #superseded\n" +
		"  - (stale) child only\n    - grandchild\n" +
		"## Archived\n- gone\n### Sub\n- gone too\n\n"
	if str(p.PrioritiesArchive) != wantArch {
		t.Errorf("PrioritiesArchive =\n%s\nwant\n%s", str(p.PrioritiesArchive), wantArch)
	}
	if p.MovedPriorityItems != 6 || p.SessionLog != nil || p.Blocked {
		t.Errorf("plan = %+v", p)
	}
	if p.Before.Pass || !p.After.Pass {
		t.Errorf("Before %s, After %s", p.Before.Line(), p.After.Line())
	}
	// Idempotent, and a re-run after a crash writes nothing twice.
	if again := PlanTrim(okLog, str(p.Priorities), nil, p.PrioritiesArchive); again.changes() {
		t.Errorf("second trim = %+v; want nothing to do", again)
	}
	crash := PlanTrim(okLog, prio, nil, p.PrioritiesArchive)
	if crash.PrioritiesArchive != nil || crash.SkippedPriorityDuplicates != 6 || str(crash.Priorities) != wantPrio {
		t.Errorf("re-run after a crash = %+v", crash)
	}
}

func TestTrimPriorityGates(t *testing.T) {
	prio := "## Operating Mode: build\n## Operating Mode: rest\n" +
		"## Tier 1\n- p1\n- p2\n- p3\n- p4\n- p5\n- p6\n- [Your priority]\n- [stale] p0\n" +
		"Last reviewed: 2026-02-30\n"
	p := PlanTrim(okLog, prio, nil, nil)
	if p.Blocked || p.Priorities == nil || p.MovedPriorityItems != 1 {
		t.Fatalf("plan = %+v", p)
	}
	want := []Gate{
		{FilePriorities, 2, "2 operating modes, exactly one is allowed: a human keeps one", false},
		{FilePriorities, 9, "7 live priorities, at most 5: a human drops some or marks them #stale", false},
		{FilePriorities, 10, "placeholder priority \"[Your priority]\": a human replaces or removes it", false},
		{FilePriorities, 11, "review stamp 2026-02-30 is not a real date", false},
	}
	if fmt.Sprint(p.Gates) != fmt.Sprint(want) {
		t.Errorf("gates =\n%+v\nwant\n%+v", p.Gates, want)
	}
	p = PlanTrim(okLog, "# nothing\n", nil, nil)
	want = []Gate{
		{FilePriorities, 1, "no `## Operating Mode: <mode>` heading: a human chooses the mode", false},
		{FilePriorities, 1, "no live priority under a `## Tier 1|2|3` heading: a human writes one", false},
		{FilePriorities, 1, "no review stamp `Last reviewed: YYYY-MM-DD`: a human reviews the priorities", false},
	}
	if fmt.Sprint(p.Gates) != fmt.Sprint(want) || p.changes() {
		t.Errorf("gates =\n%+v\nwant\n%+v", p.Gates, want)
	}
	// A marked bullet whose sub-lines end inside a fence is left alone.
	prio = strings.Replace(okPrio, stamp, "", 1) + "- [stale] x\n  ```\n  code\nnot indented, still in the fence\n```\n"
	p = PlanTrim(okLog, prio, nil, nil)
	if p.Priorities != nil || len(p.Gates) != 2 || p.Gates[0].Line != 1 ||
		p.Gates[1] != (Gate{FilePriorities, 12, "marked item ends inside a code fence: move it by hand", false}) {
		t.Errorf("fenced item: %+v", p)
	}
}

// TestTrimBlockedKeepsPriorities: a blocking gate writes nothing at all.
func TestTrimBlockedKeepsPriorities(t *testing.T) {
	p := PlanTrim(logOf(seven...)+"## 2026-02-30 — x\n", okPrio+"\n## Archived\n- old\n", nil, nil)
	if !p.Blocked || p.changes() {
		t.Fatalf("plan = %+v", p)
	}
	last := p.Gates[len(p.Gates)-1]
	if last != (Gate{FilePriorities, 14, "embedded `## Archived` section (moved to the archive by a trim that is not blocked)", false}) {
		t.Errorf("gates = %+v", p.Gates)
	}
}

// genVault returns a SESSION_LOG.md whose only defect may be its number of
// blocks: n well-formed, distinct blocks, newest first, with a random
// preamble, line endings, fences, sub-lines and trailing text.
func genVault(r *rand.Rand, n int) string {
	eols := []string{"\n", "\r\n", "\r"}
	e := eols[r.Intn(3)]
	var b strings.Builder
	if r.Intn(2) == 0 {
		b.WriteString("---" + e + "type: log" + e + "---" + e)
	}
	b.WriteString("# Session log" + e + e)
	if r.Intn(2) == 0 {
		b.WriteString("Schema:" + e + "```" + e + "## 2026-01-01 — example" + e + "**Objective:** …" + e + "```" + e + e)
	}
	year, day := 2026, 360
	for k := 0; k < n; k++ {
		day -= r.Intn(3)
		if day < 1 {
			year, day = year-1, 360
		}
		date := fmt.Sprintf("%04d-%02d-%02d", year, 1+(day-1)/30, 1+((day-1)%30)*28/30)
		dash := []string{"—", "-"}[r.Intn(2)]
		fmt.Fprintf(&b, "## %s %s session %d%s", date, dash, k, e)
		for _, f := range labels {
			switch r.Intn(3) {
			case 0:
				fmt.Fprintf(&b, "**%s:** %s %d%s", f, f, k, e)
			case 1:
				fmt.Fprintf(&b, "**%s:**%s- %s %d%s  - sub%s", f, e, f, k, e, e)
			case 2:
				fmt.Fprintf(&b, "**%s:** see below%s```%s## not a header%s```%s", f, e, e, e, e)
			}
		}
		if r.Intn(3) == 0 {
			b.WriteString(e + "---" + e)
		}
		if k < n-1 || r.Intn(2) == 0 {
			b.WriteString(e)
		}
	}
	return b.String()
}

// spans returns the bytes of each block of s.
func spans(s string) []string {
	blocks, _ := scanBlocks(s)
	out := make([]string, len(blocks))
	for i, b := range blocks {
		out[i] = s[b.Start:b.End]
	}
	return out
}

func TestTrimProperty(t *testing.T) {
	r := rand.New(rand.NewSource(20261129))
	for iter := 0; iter < 500; iter++ {
		n := 6 + r.Intn(20)
		log := genVault(r, n)
		if rep := Check(log, okPrio); rep.Pass || rep.SessionEntries != n || rep.BlockErrors != 0 || !rep.NewestFirst {
			t.Fatalf("generator: %s\n%q", rep.Line(), log)
		}
		orig := spans(log)
		p := PlanTrim(log, okPrio, nil, nil)
		if p.Blocked || p.SessionLog == nil || p.SessionArchive == nil || p.MovedBlocks != n-retentionLimit {
			t.Fatalf("PlanTrim: %+v\n%q", p, log)
		}
		if rep := Check(*p.SessionLog, okPrio); !rep.Pass || rep != p.After {
			t.Fatalf("after trim: %s (plan says %s)\n%q", rep.Line(), p.After.Line(), *p.SessionLog)
		}
		// Every block exactly once across the trimmed log and the archive,
		// byte for byte, in order.
		kept, archived := spans(*p.SessionLog), spans(*p.SessionArchive)
		all := append(kept, archived...)
		if len(all) != len(orig) {
			t.Fatalf("%d blocks after, %d before", len(all), len(orig))
		}
		for i := range orig {
			if all[i] != orig[i] {
				t.Fatalf("block %d:\n%q\nwant\n%q", i, all[i], orig[i])
			}
		}
		if !strings.HasPrefix(log, *p.SessionLog) {
			t.Fatal("the trimmed log is not a prefix of the log")
		}
		// Idempotent.
		if again := PlanTrim(*p.SessionLog, okPrio, p.SessionArchive, nil); again.changes() || !again.Before.Pass {
			t.Fatalf("second trim: %+v", again)
		}
		// Re-run with the archive already holding some of the blocks: each
		// is written once.
		held := r.Intn(len(archived) + 1)
		partial := SessionArchiveHeader + "\n\n" + strings.Join(archived[:held], "")
		q := PlanTrim(log, okPrio, &partial, nil)
		if q.SkippedDuplicates != held || q.MovedBlocks != len(archived)-held {
			t.Fatalf("dedup: %d held, %d skipped, %d moved", held, q.SkippedDuplicates, q.MovedBlocks)
		}
		final := partial
		if q.SessionArchive != nil {
			final = *q.SessionArchive
		}
		for _, blk := range orig[retentionLimit:] {
			if c := strings.Count(final, blk); c != 1 {
				t.Fatalf("block %q is %d times in the archive", blk[:20], c)
			}
		}
	}
}
