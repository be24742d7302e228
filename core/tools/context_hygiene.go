package tools

import (
	"fmt"
	"strings"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/hygiene"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/vault"
)

// contextHygieneSpec is mem_context_hygiene in the catalogue.
var contextHygieneSpec = func() *catalog.Tool {
	t := tool[HygieneResult](catalogText("context_hygiene.yaml"), "mem_context_hygiene", "hygiene action", writes|idempotent, []fault.Code{fault.ContextHygieneRace}, []catalog.Param{
		{Name: "action", Type: catalog.String, Enum: []string{"check", "trim"}, Default: "check"},
	})
	t.ConflictCode = fault.ContextHygieneRace
	return t
}()

// contextHygieneArgs is contextHygiene's arguments.
type contextHygieneArgs struct {
	Action string `json:"action"`
}

// The files of context hygiene, vault-relative (SPEC sections 1 and 9).
const (
	SessionLogPath = "memory/SESSION_LOG.md"
	PrioritiesPath = "memory/ACTIVE_PRIORITIES.md"
)

// sessionArchivePath returns the session log's archive of day (YYYY-MM-DD).
func sessionArchivePath(day string) string { return "memory/SESSION_LOG_ARCHIVE_" + day + ".md" }

// prioritiesArchivePath returns the priorities' archive of day (YYYY-MM-DD).
func prioritiesArchivePath(day string) string {
	return "memory/ACTIVE_PRIORITIES_ARCHIVE_" + day + ".md"
}

// hygieneReport is the reference checker's counts, named as in its line.
type hygieneReport struct {
	SessionEntries  int  `json:"session_entries"`
	RetentionLimit  int  `json:"retention_limit"`
	BlockErrors     int  `json:"block_errors"`
	NewestFirst     bool `json:"newest_first"`
	OperatingModes  int  `json:"operating_modes"`
	LivePriorities  int  `json:"live_priorities"`
	Placeholders    int  `json:"placeholders"`
	LastReviewed    bool `json:"last_reviewed"`
	EmbeddedArchive bool `json:"embedded_archive"`
}

func reportOf(r hygiene.Report) *hygieneReport {
	return &hygieneReport{r.SessionEntries, r.RetentionLimit, r.BlockErrors, r.NewestFirst,
		r.OperatingModes, r.LivePriorities, r.Placeholders, r.LastReviewed, r.EmbeddedArchive}
}

// hygieneFileSum is one file the call read: the SHA-256 of its bytes as read
// ("sha256:<hex>", or "absent"), and, for a trim, as the call leaves it.
type hygieneFileSum struct {
	Path        string `json:"path"`
	SHA256      string `json:"sha256"`
	SHA256After string `json:"sha256_after,omitempty"`
}

// hygieneGate is something the trim leaves to a person: a file, a 1-based
// line in that file as the trim leaves it (1 when the gate is about the
// whole file), and why. A blocking gate stopped the trim: nothing was
// written.
type hygieneGate struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Reason   string `json:"reason"`
	Blocking bool   `json:"blocking"`
}

// String renders the gate as "file:line: reason", with "(blocking)".
func (g hygieneGate) String() string {
	s := fmt.Sprintf("%s:%d: %s", g.File, g.Line, g.Reason)
	if g.Blocking {
		s += " (blocking)"
	}
	return s
}

// hygieneTrim is what a trim did.
type hygieneTrim struct {
	// Trimmed is set when the trim wrote something.
	Trimmed bool `json:"trimmed"`
	// Blocked is set when a blocking gate stopped it: nothing was written.
	Blocked bool `json:"blocked"`
	// BeforeLine is the check line of the files as they were read.
	BeforeLine string `json:"before_line"`
	// Archives lists the archive files written, session log's first.
	Archives                   []string      `json:"archives"`
	MovedBlocks                int           `json:"moved_blocks"`
	SkippedDuplicateBlocks     int           `json:"skipped_duplicate_blocks"`
	MovedPriorityItems         int           `json:"moved_priority_items"`
	SkippedDuplicatePriorities int           `json:"skipped_duplicate_priority_items"`
	Gates                      []hygieneGate `json:"gates"`
}

// HygieneResult is mem_context_hygiene's result.
type HygieneResult struct {
	Action string `json:"action"`
	// Line is the checker's line, literally: for a trim, the check of the
	// files as the trim leaves them. Only "CONTEXT_HYGIENE PASS …" is green.
	Line string `json:"line"`
	Pass bool   `json:"pass"`
	// Report holds Line's counts; nil when a file could not be read.
	Report *hygieneReport `json:"report"`
	// Unreadable is the reason a file could not be read ("" when both were).
	Unreadable string           `json:"unreadable,omitempty"`
	Files      []hygieneFileSum `json:"files"`
	Trim       *hygieneTrim     `json:"trim,omitempty"`
	Common
}

// hygieneFile is one file as read through the View.
type hygieneFile struct {
	path    string
	text    *string // nil: absent, or not UTF-8
	sha     string  // "sha256:<hex>" or plan.Absent
	notUTF8 bool
}

func readHygieneFile(env *Env, p string) (hygieneFile, error) {
	c, err := env.View.Read(p)
	if err != nil {
		return hygieneFile{}, err
	}
	f := hygieneFile{path: p, sha: c.Expect, notUTF8: c.NotUTF8}
	if c.Exists && !c.NotUTF8 {
		f.text = &c.Text
	}
	return f, nil
}

// unreadable returns why f cannot be checked, or "".
func (f hygieneFile) unreadable() string {
	switch {
	case f.notUTF8:
		return f.path + ": not UTF-8 text"
	case f.text == nil:
		return f.path + ": no such file"
	}
	return ""
}

// contextHygiene is mem_context_hygiene (SPEC section 9).
//
// Both actions read memory/SESSION_LOG.md, then memory/ACTIVE_PRIORITIES.md
// (one round: both are asked for at once). A file that is missing or not
// UTF-8 is not a tool error: the result is the checker's
// `CONTEXT_HYGIENE FAIL unreadable_input=<path>: no such file` (or
// `: not UTF-8 text`), with pass false, the session log named first when
// both fail. The reference checker decodes invalid UTF-8 as U+FFFD and
// checks the result; Kessho reports such a file unreadable instead, since
// hosts send no text for it and Kessho never edits it.
//
// check returns the line, the counts and the SHA-256 of both files; it
// never has a plan.
//
// trim: when the check passes, nothing is done (no plan). Otherwise the
// tool also reads today's archives (today in the vault's zone), plans the
// trim with hygiene.PlanTrim and returns one plan: the archives first
// (SESSION_LOG's, then ACTIVE_PRIORITIES'), then the sources, each write
// expecting the exact bytes read ("absent" for an archive that did not
// exist), so a file changed since the read makes the host refuse the whole
// plan with CONTEXT_HYGIENE_RACE (the catalogue's ConflictCode). A
// blocking gate, or an archive that would be appended to but is not UTF-8
// (a blocking gate too), gives no plan and trim.blocked. Gates are
// results, not errors: the call succeeds and the caller decides (the CLI
// exits 1 unless the final line is PASS). The result's line is the check
// of the files as the plan leaves them. No other file is read or written.
//
// Lines, gate reasons and unreadable reasons are in English in every
// language (they are machine lines, like the reference checker's);
// summary_md follows the caller's language.
func contextHygiene(env *Env, a contextHygieneArgs) (any, plan.Plan, error) {
	if err := env.View.Ask(vault.Need{Files: []string{SessionLogPath, PrioritiesPath}}); err != nil {
		return nil, nil, err
	}
	logF, err := readHygieneFile(env, SessionLogPath)
	if err != nil {
		return nil, nil, err
	}
	prioF, err := readHygieneFile(env, PrioritiesPath)
	if err != nil {
		return nil, nil, err
	}
	res := &HygieneResult{Action: a.Action, Common: Common{Warnings: []string{}},
		Files: []hygieneFileSum{{Path: logF.path, SHA256: logF.sha}, {Path: prioF.path, SHA256: prioF.sha}}}
	if a.Action == "trim" {
		res.Trim = &hygieneTrim{Archives: []string{}, Gates: []hygieneGate{}}
	}
	for _, f := range []hygieneFile{logF, prioF} {
		if why := f.unreadable(); why != "" {
			res.Unreadable = why
			res.Line = hygiene.UnreadableLine(why)
			if res.Trim != nil {
				res.Trim.BeforeLine = res.Line
				keepHashes(res)
			}
			res.SummaryMD = env.say(hygieneText().Msg.Unreadable, why, res.Line)
			return res, nil, nil
		}
	}
	if a.Action != "trim" {
		r := hygiene.Check(*logF.text, *prioF.text)
		res.Line, res.Pass, res.Report = r.Line(), r.Pass, reportOf(r)
		res.SummaryMD = checkSummary(env, r)
		return res, nil, nil
	}
	return trim(env, res, logF, prioF)
}

// hygieneText is context_hygiene.yaml: mem_context_hygiene's catalogue texts and messages, parsed on first use.
var hygieneText = loadText[struct {
	Unreadable, Nothing, Stopped, DupBlocks, DupItems, MovedBlocks, MovedItems fault.Msg
	Passes, Fails, None, Trimmed, Sep, Pass, Fail                              fault.Msg
	NoBlock, TooMany, Malformed, Order, Modes, NoLive, TooLive, Placeholder    fault.Msg
	NoReview, Embedded                                                         fault.Msg
}]("context_hygiene.yaml")

// trim is action=trim on readable files: nothing when the check passes;
// otherwise read today's archives, plan the trim (hygiene.PlanTrim), add
// the gates Kessho itself raises, and return the plan with the check of
// the files as it leaves them.
func trim(env *Env, res *HygieneResult, logF, prioF hygieneFile) (any, plan.Plan, error) {
	before := hygiene.Check(*logF.text, *prioF.text)
	res.Trim.BeforeLine = before.Line()
	if before.Pass {
		res.Line, res.Pass, res.Report = before.Line(), true, reportOf(before)
		keepHashes(res)
		res.SummaryMD = env.say(hygieneText().Msg.Nothing, res.Line)
		return res, nil, nil
	}
	day := env.Now.Format("2006-01-02")
	sessArch, prioArch, err := readTrimArchives(env, res, day)
	if err != nil {
		return nil, nil, err
	}
	tp := hygiene.PlanTrim(*logF.text, *prioF.text, sessArch.text, prioArch.text)
	res.Trim.Gates = trimGates(&tp, sessArch, prioArch)
	if tp.Blocked {
		res.Trim.Blocked = true
		res.Line, res.Pass, res.Report = before.Line(), false, reportOf(before)
		keepHashes(res)
		n := 0
		for _, g := range res.Trim.Gates {
			if g.Blocking {
				n++
			}
		}
		res.SummaryMD = env.say(hygieneText().Msg.Stopped, n, gateList(res.Trim.Gates), res.Line)
		return res, nil, nil
	}
	p := trimOps(res, &tp, logF, prioF, sessArch, prioArch)
	res.Line, res.Pass, res.Report = tp.After.Line(), tp.After.Pass, reportOf(tp.After)
	res.SummaryMD = trimSummary(env, res, &tp, sessArch.path, prioArch.path)
	return res, p, nil
}

// keepHashes says every file read is left as it was.
func keepHashes(res *HygieneResult) {
	for i := range res.Files {
		res.Files[i].SHA256After = res.Files[i].SHA256
	}
}

// readTrimArchives reads, in one round, the session log's and the
// priorities' archives of day, and lists them in res.Files.
func readTrimArchives(env *Env, res *HygieneResult, day string) (hygieneFile, hygieneFile, error) {
	sessArchP, prioArchP := sessionArchivePath(day), prioritiesArchivePath(day)
	if err := env.View.Ask(vault.Need{Files: []string{sessArchP, prioArchP}}); err != nil {
		return hygieneFile{}, hygieneFile{}, err
	}
	sessArch, err := readHygieneFile(env, sessArchP)
	if err != nil {
		return hygieneFile{}, hygieneFile{}, err
	}
	prioArch, err := readHygieneFile(env, prioArchP)
	if err != nil {
		return hygieneFile{}, hygieneFile{}, err
	}
	res.Files = append(res.Files, hygieneFileSum{Path: sessArch.path, SHA256: sessArch.sha},
		hygieneFileSum{Path: prioArch.path, SHA256: prioArch.sha})
	return sessArch, prioArch, nil
}

// trimGates names the plan's gates by vault path and adds a blocking one
// for an archive the trim would append to that is not UTF-8 text (Kessho
// never appends to what it cannot read), blocking tp then.
func trimGates(tp *hygiene.TrimPlan, sessArch, prioArch hygieneFile) []hygieneGate {
	gates := make([]hygieneGate, 0, len(tp.Gates)+2)
	for _, g := range tp.Gates {
		gates = append(gates, hygieneGate{File: gateFile(g.File, sessArch.path), Line: g.Line, Reason: g.Reason, Blocking: g.Blocking})
	}
	if tp.Blocked {
		return gates
	}
	for _, c := range []struct {
		f     hygieneFile
		write *string
	}{{sessArch, tp.SessionArchive}, {prioArch, tp.PrioritiesArchive}} {
		if c.f.notUTF8 && c.write != nil {
			gates = append(gates, hygieneGate{File: c.f.path, Line: 1, Blocking: true,
				Reason: "the archive is not UTF-8 text: a human fixes or moves it, then the trim can append to it"})
			tp.Blocked = true
		}
	}
	return gates
}

// trimOps is the trim's plan: the archives, then the sources, each write
// expecting the bytes read; a source the trim relied on but does not
// write must still be as read when the plan lands (SPEC section 9's
// compare-and-swap). It fills res's hashes after and trim counts.
func trimOps(res *HygieneResult, tp *hygiene.TrimPlan, logF, prioF, sessArch, prioArch hygieneFile) plan.Plan {
	var p plan.Plan
	after := map[string]string{}
	add := func(f hygieneFile, text *string) {
		if text != nil {
			p = append(p, plan.WriteOp(f.path, f.sha, *text))
			after[f.path] = plan.HashString(*text)
		}
	}
	add(sessArch, tp.SessionArchive)
	add(prioArch, tp.PrioritiesArchive)
	add(logF, tp.SessionLog)
	add(prioF, tp.Priorities)
	if len(p) > 0 {
		for _, f := range []hygieneFile{logF, prioF} {
			if _, written := after[f.path]; !written {
				p = append(p, plan.CheckOp(f.path, f.sha))
			}
		}
	}
	keepHashes(res)
	for i := range res.Files {
		if h, ok := after[res.Files[i].Path]; ok {
			res.Files[i].SHA256After = h
		}
	}
	for _, a := range []struct {
		path  string
		write *string
	}{{sessArch.path, tp.SessionArchive}, {prioArch.path, tp.PrioritiesArchive}} {
		if a.write != nil {
			res.Trim.Archives = append(res.Trim.Archives, a.path)
		}
	}
	res.Trim.Trimmed = len(p) > 0
	res.Trim.MovedBlocks, res.Trim.SkippedDuplicateBlocks = tp.MovedBlocks, tp.SkippedDuplicates
	res.Trim.MovedPriorityItems, res.Trim.SkippedDuplicatePriorities = tp.MovedPriorityItems, tp.SkippedPriorityDuplicates
	return p
}

// trimSummary warns of duplicates skipped and says what the trim moved,
// the verdict, the gates and the line.
func trimSummary(env *Env, res *HygieneResult, tp *hygiene.TrimPlan, sessArchP, prioArchP string) string {
	if n := tp.SkippedDuplicates; n > 0 {
		res.Warnings = append(res.Warnings, env.say(hygieneText().Msg.DupBlocks, n, sessArchP))
	}
	if n := tp.SkippedPriorityDuplicates; n > 0 {
		res.Warnings = append(res.Warnings, env.say(hygieneText().Msg.DupItems, n, prioArchP))
	}
	var did []string
	if tp.SessionLog != nil {
		did = append(did, env.say(hygieneText().Msg.MovedBlocks, tp.MovedBlocks+tp.SkippedDuplicates, sessArchP))
	}
	if tp.Priorities != nil {
		did = append(did, env.say(hygieneText().Msg.MovedItems, tp.MovedPriorityItems+tp.SkippedPriorityDuplicates, prioArchP))
	}
	verdict := env.say(hygieneText().Msg.Passes)
	if !tp.After.Pass {
		verdict = env.say(hygieneText().Msg.Fails)
	}
	s := env.say(hygieneText().Msg.None)
	if len(did) > 0 {
		sep := env.say(hygieneText().Msg.Sep)
		s = env.say(hygieneText().Msg.Trimmed) + strings.Join(did, sep) + sep + verdict + "."
	}
	return s + gateList(res.Trim.Gates) + "\n\n`" + res.Line + "`"
}

// gateFile names a gate's file by its vault path.
func gateFile(f, sessionArchive string) string {
	switch f {
	case hygiene.FileSessionLog:
		return SessionLogPath
	case hygiene.FilePriorities:
		return PrioritiesPath
	case hygiene.FileSessionArchive:
		return sessionArchive
	}
	return f
}

// gateList renders gates as a Markdown list, each on a new line.
func gateList(gates []hygieneGate) string {
	var b strings.Builder
	if len(gates) > 0 {
		b.WriteString("\n")
	}
	for _, g := range gates {
		b.WriteString("\n- " + g.String())
	}
	return b.String()
}

// checkSummary says the verdict and, when it fails, why, in words.
func checkSummary(env *Env, r hygiene.Report) string {
	line := "\n\n`" + r.Line() + "`"
	if r.Pass {
		return env.say(hygieneText().Msg.Pass, r.SessionEntries, r.LivePriorities) + line
	}
	var why []string
	add := func(m fault.Msg, args ...any) { why = append(why, env.say(m, args...)) }
	switch {
	case r.SessionEntries == 0:
		add(hygieneText().Msg.NoBlock)
	case r.SessionEntries > r.RetentionLimit:
		add(hygieneText().Msg.TooMany, r.SessionEntries, r.RetentionLimit)
	}
	if r.BlockErrors > 0 {
		add(hygieneText().Msg.Malformed, r.BlockErrors)
	}
	if !r.NewestFirst {
		add(hygieneText().Msg.Order)
	}
	if r.OperatingModes != 1 {
		add(hygieneText().Msg.Modes, r.OperatingModes)
	}
	switch {
	case r.LivePriorities == 0:
		add(hygieneText().Msg.NoLive)
	case r.LivePriorities > 5:
		add(hygieneText().Msg.TooLive, r.LivePriorities)
	}
	if r.Placeholders > 0 {
		add(hygieneText().Msg.Placeholder, r.Placeholders)
	}
	if !r.LastReviewed {
		add(hygieneText().Msg.NoReview)
	}
	if r.EmbeddedArchive {
		add(hygieneText().Msg.Embedded)
	}
	return env.say(hygieneText().Msg.Fail) + strings.Join(why, env.say(hygieneText().Msg.Sep)) + "." + line
}
