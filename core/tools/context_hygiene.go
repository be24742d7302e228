package tools

import (
	"encoding/json"
	"fmt"
	"kessho/core/catalog"
	"strings"

	"kessho/core/fault"
	"kessho/core/hygiene"
	"kessho/core/plan"
	"kessho/core/vault"
)

// contextHygieneSpec is mem_context_hygiene in the catalogue.
var contextHygieneSpec = &catalog.Tool{
	Name:  "mem_context_hygiene",
	Title: catalog.Text{En: "Context hygiene", Fr: "Hygiène du contexte"},
	Description: catalog.Text{
		En: "Checks or trims the two always-loaded memory files, memory/SESSION_LOG.md and memory/ACTIVE_PRIORITIES.md. action=check (default) reads them and returns the verdict line `CONTEXT_HYGIENE PASS|FAIL …` with its counts; it never writes. action=trim, when the check fails, moves session blocks older than the newest five to memory/SESSION_LOG_ARCHIVE_<today>.md and priorities explicitly marked #stale, #superseded or #archived (and an `## Archived` section) to memory/ACTIVE_PRIORITIES_ARCHIVE_<today>.md, archives first, then the sources; nothing else is ever touched. What needs a person (a malformed or out-of-order block, too many priorities, a placeholder, no review stamp) is returned as gates with their file and line; a blocking gate means nothing was written. If either file changes between the read and the write, the trim writes nothing and fails with CONTEXT_HYGIENE_RACE: run it again. Only a `CONTEXT_HYGIENE PASS` line means the files are clean.",
		Fr: "Vérifie ou élague les deux fichiers de mémoire toujours chargés, memory/SESSION_LOG.md et memory/ACTIVE_PRIORITIES.md. action=check (défaut) les lit et renvoie la ligne de verdict `CONTEXT_HYGIENE PASS|FAIL …` avec ses comptes ; rien n'est écrit. action=trim, quand la vérification échoue, déplace les blocs de session plus anciens que les cinq plus récents vers memory/SESSION_LOG_ARCHIVE_<date du jour>.md et les priorités explicitement marquées #stale, #superseded ou #archived (et une section `## Archived`) vers memory/ACTIVE_PRIORITIES_ARCHIVE_<date du jour>.md, les archives d'abord, puis les sources ; aucun autre fichier n'est jamais touché. Ce qui demande une personne (bloc mal formé ou dans le désordre, trop de priorités, texte à remplir, pas de date de revue) revient sous forme de points de contrôle avec leur fichier et leur ligne ; un point bloquant signifie que rien n'a été écrit. Si l'un des fichiers change entre la lecture et l'écriture, l'élagage n'écrit rien et échoue avec CONTEXT_HYGIENE_RACE : relancez-le. Seule une ligne `CONTEXT_HYGIENE PASS` atteste que les fichiers sont propres.",
	},
	Params: []catalog.Param{
		{Name: "action", Type: catalog.String, Enum: []string{"check", "trim"}, Default: "check",
			Description: catalog.Text{
				En: "check: read-only verdict. trim: archive what the rules allow, then report the new verdict.",
				Fr: "check : verdict en lecture seule. trim : archive ce que les règles permettent, puis donne le nouveau verdict.",
			}},
	},
	Errors:       append([]fault.Code{fault.ContextHygieneRace}, catalog.Shared...),
	Writes:       true,
	ConflictCode: fault.ContextHygieneRace,
	CLI:          catalog.CLI{Command: "hygiene", Args: []string{"action"}},
}

// The files of context hygiene, vault-relative (SPEC sections 1 and 9).
const (
	SessionLogPath = "memory/SESSION_LOG.md"
	PrioritiesPath = "memory/ACTIVE_PRIORITIES.md"
)

// SessionArchivePath returns the session log's archive of day (YYYY-MM-DD).
func SessionArchivePath(day string) string { return "memory/SESSION_LOG_ARCHIVE_" + day + ".md" }

// PrioritiesArchivePath returns the priorities' archive of day (YYYY-MM-DD).
func PrioritiesArchivePath(day string) string {
	return "memory/ACTIVE_PRIORITIES_ARCHIVE_" + day + ".md"
}

// HygieneReport is the reference checker's counts, named as in its line.
type HygieneReport struct {
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

func reportOf(r hygiene.Report) *HygieneReport {
	return &HygieneReport{r.SessionEntries, r.RetentionLimit, r.BlockErrors, r.NewestFirst,
		r.OperatingModes, r.LivePriorities, r.Placeholders, r.LastReviewed, r.EmbeddedArchive}
}

// HygieneFile is one file the call read: the SHA-256 of its bytes as read
// ("sha256:<hex>", or "absent"), and, for a trim, as the call leaves it.
type HygieneFile struct {
	Path        string `json:"path"`
	SHA256      string `json:"sha256"`
	SHA256After string `json:"sha256_after,omitempty"`
}

// HygieneGate is something the trim leaves to a person: a file, a 1-based
// line in that file as the trim leaves it (1 when the gate is about the
// whole file), and why. A blocking gate stopped the trim: nothing was
// written.
type HygieneGate struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Reason   string `json:"reason"`
	Blocking bool   `json:"blocking"`
}

// String renders the gate as "file:line: reason", with "(blocking)".
func (g HygieneGate) String() string {
	s := fmt.Sprintf("%s:%d: %s", g.File, g.Line, g.Reason)
	if g.Blocking {
		s += " (blocking)"
	}
	return s
}

// HygieneTrim is what a trim did.
type HygieneTrim struct {
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
	Gates                      []HygieneGate `json:"gates"`
}

// HygieneResult is mem_context_hygiene's result.
type HygieneResult struct {
	Action string `json:"action"`
	// Line is the checker's line, literally: for a trim, the check of the
	// files as the trim leaves them. Only "CONTEXT_HYGIENE PASS …" is green.
	Line string `json:"line"`
	Pass bool   `json:"pass"`
	// Report holds Line's counts; nil when a file could not be read.
	Report *HygieneReport `json:"report"`
	// Unreadable is the reason a file could not be read ("" when both were).
	Unreadable string        `json:"unreadable,omitempty"`
	Files      []HygieneFile `json:"files"`
	Trim       *HygieneTrim  `json:"trim,omitempty"`
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
func contextHygiene(env *Env, raw json.RawMessage) (any, plan.Plan, error) {
	var a struct {
		Action string `json:"action"`
	}
	if err := decode(raw, &a); err != nil {
		return nil, nil, err
	}
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
		Files: []HygieneFile{{Path: logF.path, SHA256: logF.sha}, {Path: prioF.path, SHA256: prioF.sha}}}
	if a.Action == "trim" {
		res.Trim = &HygieneTrim{Archives: []string{}, Gates: []HygieneGate{}}
	}
	for _, f := range []hygieneFile{logF, prioF} {
		if why := f.unreadable(); why != "" {
			res.Unreadable = why
			res.Line = hygiene.UnreadableLine(why)
			if res.Trim != nil {
				res.Trim.BeforeLine = res.Line
				for i := range res.Files {
					res.Files[i].SHA256After = res.Files[i].SHA256
				}
			}
			res.SummaryMD = env.T(
				fmt.Sprintf("Context hygiene: **FAIL**, a file cannot be read (%s); nothing was written.\n\n`%s`", why, res.Line),
				fmt.Sprintf("Hygiène du contexte : **FAIL**, un fichier est illisible (%s) ; rien n'a été écrit.\n\n`%s`", why, res.Line))
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

func trim(env *Env, res *HygieneResult, logF, prioF hygieneFile) (any, plan.Plan, error) {
	before := hygiene.Check(*logF.text, *prioF.text)
	res.Trim.BeforeLine = before.Line()
	if before.Pass {
		res.Line, res.Pass, res.Report = before.Line(), true, reportOf(before)
		for i := range res.Files {
			res.Files[i].SHA256After = res.Files[i].SHA256
		}
		res.SummaryMD = env.T("Nothing to trim: the check already passes.\n\n`"+res.Line+"`",
			"Rien à élaguer : la vérification passe déjà.\n\n`"+res.Line+"`")
		return res, nil, nil
	}
	day := env.Now.Format("2006-01-02")
	sessArchP, prioArchP := SessionArchivePath(day), PrioritiesArchivePath(day)
	if err := env.View.Ask(vault.Need{Files: []string{sessArchP, prioArchP}}); err != nil {
		return nil, nil, err
	}
	sessArch, err := readHygieneFile(env, sessArchP)
	if err != nil {
		return nil, nil, err
	}
	prioArch, err := readHygieneFile(env, prioArchP)
	if err != nil {
		return nil, nil, err
	}
	res.Files = append(res.Files, HygieneFile{Path: sessArch.path, SHA256: sessArch.sha},
		HygieneFile{Path: prioArch.path, SHA256: prioArch.sha})

	tp := hygiene.PlanTrim(*logF.text, *prioF.text, sessArch.text, prioArch.text)
	gates := make([]HygieneGate, 0, len(tp.Gates)+2)
	for _, g := range tp.Gates {
		gates = append(gates, HygieneGate{File: gateFile(g.File, sessArchP), Line: g.Line, Reason: g.Reason, Blocking: g.Blocking})
	}
	// An archive Kessho cannot read as text is never appended to.
	if !tp.Blocked {
		for _, c := range []struct {
			f     hygieneFile
			write *string
		}{{sessArch, tp.SessionArchive}, {prioArch, tp.PrioritiesArchive}} {
			if c.f.notUTF8 && c.write != nil {
				gates = append(gates, HygieneGate{File: c.f.path, Line: 1, Blocking: true,
					Reason: "the archive is not UTF-8 text: a human fixes or moves it, then the trim can append to it"})
				tp.Blocked = true
			}
		}
	}
	res.Trim.Gates = gates
	if tp.Blocked {
		res.Trim.Blocked = true
		res.Line, res.Pass, res.Report = before.Line(), false, reportOf(before)
		for i := range res.Files {
			res.Files[i].SHA256After = res.Files[i].SHA256
		}
		n := 0
		for _, g := range gates {
			if g.Blocking {
				n++
			}
		}
		res.SummaryMD = env.T(
			fmt.Sprintf("Trim stopped, nothing written: %d blocking gate(s) need a human.%s\n\n`%s`", n, gateList(gates), res.Line),
			fmt.Sprintf("Élagage arrêté, rien n'a été écrit : %d point(s) bloquant(s) demandent une personne.%s\n\n`%s`", n, gateList(gates), res.Line))
		return res, nil, nil
	}

	var p plan.Plan
	after := map[string]string{}
	add := func(f hygieneFile, text *string) {
		if text == nil {
			return
		}
		p = append(p, plan.WriteOp(f.path, f.sha, *text))
		after[f.path] = plan.HashString(*text)
	}
	add(sessArch, tp.SessionArchive)
	add(prioArch, tp.PrioritiesArchive)
	add(logF, tp.SessionLog)
	add(prioF, tp.Priorities)
	// The trim relied on both sources; one it does not write must still be
	// as read when the plan lands (SPEC section 9's compare-and-swap).
	if len(p) > 0 {
		for _, f := range []struct {
			file    hygieneFile
			written *string
		}{{logF, tp.SessionLog}, {prioF, tp.Priorities}} {
			if f.written == nil {
				p = append(p, plan.CheckOp(f.file.path, f.file.sha))
			}
		}
	}
	trimmed := len(p) > 0
	for i := range res.Files {
		res.Files[i].SHA256After = res.Files[i].SHA256
		if h, ok := after[res.Files[i].Path]; ok {
			res.Files[i].SHA256After = h
		}
	}
	if tp.SessionArchive != nil {
		res.Trim.Archives = append(res.Trim.Archives, sessArchP)
	}
	if tp.PrioritiesArchive != nil {
		res.Trim.Archives = append(res.Trim.Archives, prioArchP)
	}
	res.Trim.Trimmed = trimmed
	res.Trim.MovedBlocks, res.Trim.SkippedDuplicateBlocks = tp.MovedBlocks, tp.SkippedDuplicates
	res.Trim.MovedPriorityItems, res.Trim.SkippedDuplicatePriorities = tp.MovedPriorityItems, tp.SkippedPriorityDuplicates
	res.Line, res.Pass, res.Report = tp.After.Line(), tp.After.Pass, reportOf(tp.After)

	if n := tp.SkippedDuplicates; n > 0 {
		res.Warnings = append(res.Warnings, env.T(
			fmt.Sprintf("%d session block(s) were already in %s and were not written twice", n, sessArchP),
			fmt.Sprintf("%d bloc(s) de session figuraient déjà dans %s et n'ont pas été écrits deux fois", n, sessArchP)))
	}
	if n := tp.SkippedPriorityDuplicates; n > 0 {
		res.Warnings = append(res.Warnings, env.T(
			fmt.Sprintf("%d priority item(s) were already in %s and were not written twice", n, prioArchP),
			fmt.Sprintf("%d élément(s) de priorité figuraient déjà dans %s et n'ont pas été écrits deux fois", n, prioArchP)))
	}
	var did []string
	if tp.SessionLog != nil {
		did = append(did, env.T(
			fmt.Sprintf("moved %d session block(s) to `%s`", tp.MovedBlocks+tp.SkippedDuplicates, sessArchP),
			fmt.Sprintf("%d bloc(s) de session déplacé(s) vers `%s`", tp.MovedBlocks+tp.SkippedDuplicates, sessArchP)))
	}
	if tp.Priorities != nil {
		did = append(did, env.T(
			fmt.Sprintf("moved %d marked priority item(s) to `%s`", tp.MovedPriorityItems+tp.SkippedPriorityDuplicates, prioArchP),
			fmt.Sprintf("%d élément(s) de priorité marqué(s) déplacé(s) vers `%s`", tp.MovedPriorityItems+tp.SkippedPriorityDuplicates, prioArchP)))
	}
	verdict := env.T("the check now passes", "la vérification passe désormais")
	if !tp.After.Pass {
		verdict = env.T("the check still fails", "la vérification échoue encore")
	}
	if len(did) == 0 {
		res.SummaryMD = env.T("Nothing could be trimmed: what fails needs a human.", "Rien n'a pu être élagué : ce qui échoue demande une personne.")
	} else {
		res.SummaryMD = env.T("Trimmed: ", "Élagage fait : ") + strings.Join(did, env.T("; ", " ; ")) + env.T("; ", " ; ") + verdict + "."
	}
	res.SummaryMD += gateList(gates) + "\n\n`" + res.Line + "`"
	return res, p, nil
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
func gateList(gates []HygieneGate) string {
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
		return env.T(fmt.Sprintf("Context hygiene: **PASS** (%d session block(s), %d live priorit(ies)).", r.SessionEntries, r.LivePriorities),
			fmt.Sprintf("Hygiène du contexte : **PASS** (%d bloc(s) de session, %d priorité(s) active(s)).", r.SessionEntries, r.LivePriorities)) + line
	}
	var why []string
	add := func(en, fr string) { why = append(why, env.T(en, fr)) }
	switch {
	case r.SessionEntries == 0:
		add("no session block", "aucun bloc de session")
	case r.SessionEntries > r.RetentionLimit:
		add(fmt.Sprintf("%d session blocks, at most %d (a trim archives the oldest)", r.SessionEntries, r.RetentionLimit),
			fmt.Sprintf("%d blocs de session, %d au plus (un élagage archive les plus anciens)", r.SessionEntries, r.RetentionLimit))
	}
	if r.BlockErrors > 0 {
		add(fmt.Sprintf("%d malformed session block(s) or header(s)", r.BlockErrors),
			fmt.Sprintf("%d bloc(s) ou en-tête(s) de session mal formé(s)", r.BlockErrors))
	}
	if !r.NewestFirst {
		add("session blocks are not newest first", "les blocs de session ne sont pas du plus récent au plus ancien")
	}
	if r.OperatingModes != 1 {
		add(fmt.Sprintf("%d operating mode(s), exactly one needed", r.OperatingModes),
			fmt.Sprintf("%d mode(s) de fonctionnement, il en faut exactement un", r.OperatingModes))
	}
	switch {
	case r.LivePriorities == 0:
		add("no live priority", "aucune priorité active")
	case r.LivePriorities > 5:
		add(fmt.Sprintf("%d live priorities, at most 5", r.LivePriorities),
			fmt.Sprintf("%d priorités actives, 5 au plus", r.LivePriorities))
	}
	if r.Placeholders > 0 {
		add(fmt.Sprintf("%d placeholder priorit(ies)", r.Placeholders),
			fmt.Sprintf("%d priorité(s) à remplir", r.Placeholders))
	}
	if !r.LastReviewed {
		add("no valid `Last reviewed: YYYY-MM-DD`", "pas de `Last reviewed: AAAA-MM-JJ` valide")
	}
	if r.EmbeddedArchive {
		add("an embedded `## Archived` section", "une section `## Archived` intégrée")
	}
	return env.T("Context hygiene: **FAIL**: ", "Hygiène du contexte : **FAIL** : ") + strings.Join(why, env.T("; ", " ; ")) + "." + line
}
