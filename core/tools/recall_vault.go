package tools

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/vault"
)

// mem_recall without a slug: the memory-kit's vault-wide briefing, which
// the kit's procedures ask for at the start of a session that names no
// project yet. It lives beside recall.go, which briefs one project, and
// shares nothing with it but the parameters: recallOrVault sends a call
// without a slug here.

// recallSlug is mem_recall's slug: optional, as the vault-wide briefing
// takes none. A slug given empty is still INVALID_SLUG (SPEC section 1).
var recallSlug = catalog.Param{Name: "slug", Type: catalog.String}

// vaultBriefingText is vault_briefing.yaml: the vault-wide briefing's
// messages, parsed on first use.
var vaultBriefingText = loadText[struct {
	Title, Phase, Last, NoContext, None, LeftOut fault.Msg
}]("vault_briefing.yaml")

// recallVaultEntry is one active project or domain of the vault-wide
// briefing.
type recallVaultEntry struct {
	Slug        string  `json:"slug"`
	Kind        string  `json:"kind"`
	Phase       *string `json:"phase"`
	Summary     *string `json:"summary"`
	LastSession *string `json:"last_session"`
	// Problem says why the context.md could not be read (none, or its
	// frontmatter broken); the entry then holds only its slug and kind.
	Problem *string `json:"problem,omitempty"`
}

// recallVaultResult is mem_recall's result without a slug.
type recallVaultResult struct {
	// Scope is "vault": the briefing is of the vault, not of one project.
	Scope    string             `json:"scope"`
	Projects []recallVaultEntry `json:"projects"`
	// LeftOut counts the active projects and domains left out to fit
	// max_chars (the least recent ones): an object, as a project's
	// recall counts what it leaves out (recallLeftOut), so that left_out
	// is one type in every mem_recall answer.
	LeftOut recallVaultLeftOut `json:"left_out"`
	Common
}

// recallVaultLeftOut is what the vault-wide briefing left out.
type recallVaultLeftOut struct {
	Projects int `json:"projects"`
}

// briefSummaryMax is the most characters of a summary the vault-wide
// briefing shows (mem_set_summary's bound): a longer one, written by
// another tool or by hand, is cut there ("…").
const briefSummaryMax = 300

// recallOrVault is mem_recall: the project briefing (recallTool) when the
// call gives a slug, else the vault-wide one (recallVault).
func recallOrVault(env *Env, args catalog.Args) (any, plan.Plan, error) {
	if _, ok := args.Values["slug"]; ok {
		return recallTool(env, args)
	}
	return typed(recallVault)(env, args)
}

// recallVault is the vault-wide briefing: every active project and
// domain (10-episodes/projects and domains; archived projects left out),
// each with its phase, summary and last session as its context.md says
// them, most recent last session first (then those with none, by slug).
// archives is not used. max_chars bounds the whole answer: the result as
// JSON, summary_md and bookkeeping included, is at most max_chars
// characters; to fit, the summaries are cut shorter first (fitBriefing),
// then the least recent entries are left out (left_out, and the
// briefing's last line, say how many; mem_list lists them all). A
// folder without a readable context.md is listed with its problem, as
// mem_list lists it.
func recallVault(env *Env, a recallArgs) (any, plan.Plan, error) {
	all, err := vault.Folders(env.View, nil)
	if err != nil {
		return nil, nil, err
	}
	var active []vault.Project
	var files []string
	for _, p := range all {
		if !p.Archived() {
			active = append(active, p)
			files = append(files, p.Context())
		}
	}
	if err := env.View.Ask(vault.Need{Files: files}); err != nil {
		return nil, nil, err
	}
	entries := make([]recallVaultEntry, 0, len(active))
	for _, p := range active {
		e, err := briefEntry(env, p)
		if err != nil {
			return nil, nil, err
		}
		entries = append(entries, e)
	}
	slices.SortStableFunc(entries, byLastSession)
	res := recallVaultResult{Scope: "vault", Common: common()}
	if len(all) == 0 {
		res.Warnings = append(res.Warnings, env.say(vault.NoProjectYet))
	}
	return fitBriefing(env, res, entries, a.MaxChars), nil, nil
}

// briefEntry reads one folder's context.md for the briefing.
func briefEntry(env *Env, p vault.Project) (recallVaultEntry, error) {
	e := recallVaultEntry{Slug: p.Slug, Kind: p.Type()}
	doc, problem, err := contextFields(env, p, vaultBriefingText().Msg.NoContext)
	if doc == nil {
		e.Problem = problem
		return e, err
	}
	get := func(k string) *string {
		if s, ok := doc.String(k); ok && strings.TrimSpace(s) != "" {
			return &s
		}
		return nil
	}
	e.Phase, e.Summary, e.LastSession = get("phase"), get("summary"), get("last-session")
	if e.Summary != nil {
		s := briefCut(strings.Join(strings.Fields(*e.Summary), " "), briefSummaryMax)
		e.Summary = &s
	}
	return e, nil
}

// byLastSession orders entries most recent last session first (by its
// day, then the whole value), those without one last, then by slug.
func byLastSession(a, b recallVaultEntry) int {
	switch {
	case a.LastSession == nil && b.LastSession == nil:
	case a.LastSession == nil:
		return 1
	case b.LastSession == nil:
		return -1
	default:
		da, db := *a.LastSession, *b.LastSession
		if c := strings.Compare(db[:min(10, len(db))], da[:min(10, len(da))]); c != 0 {
			return c
		}
		if c := strings.Compare(db, da); c != 0 {
			return c
		}
	}
	return strings.Compare(a.Slug, b.Slug)
}

// briefCaps are the lengths fitBriefing cuts the summaries to, in turn,
// before it leaves entries out: every active project briefly is worth
// more than a few at length.
var briefCaps = []int{briefSummaryMax, 200, 120, 60}

// fitBriefing returns res with entries and its summary_md, in maxChars
// characters of JSON: every entry when their summaries fit, cut in turn
// to each of briefCaps ("…"); else, summaries at the last cap, as many
// entries as fit, in order.
func fitBriefing(env *Env, res recallVaultResult, entries []recallVaultEntry, maxChars int) recallVaultResult {
	fits := func(n int) bool {
		res.Projects, res.LeftOut.Projects = entries[:n], len(entries)-n
		res.SummaryMD = briefingMD(env, res.Projects, res.LeftOut.Projects)
		b, err := json.Marshal(res)
		return err == nil && utf8.RuneCount(b) <= maxChars
	}
	full := slices.Clone(entries)
	for _, limit := range briefCaps {
		for i, e := range full {
			if e.Summary != nil {
				s := briefCut(*e.Summary, limit)
				entries[i].Summary = &s
			}
		}
		if fits(len(entries)) {
			return res
		}
	}
	// The most entries that fit, found by bisection (each try encodes the
	// whole result; fewer entries never make it longer): at least none,
	// the title and the last line, which max_chars (at least 1000) holds.
	n := sort.Search(len(entries), func(n int) bool { return !fits(n) })
	fits(max(n-1, 0))
	return res
}

// briefingMD is the vault-wide briefing as Markdown: a title, one line
// an entry, and what was left out.
func briefingMD(env *Env, entries []recallVaultEntry, leftOut int) string {
	m := vaultBriefingText().Msg
	if len(entries)+leftOut == 0 {
		return env.say(m.None)
	}
	var b strings.Builder
	b.WriteString(env.say(m.Title, len(entries)+leftOut))
	for _, e := range entries {
		kind := e.Kind
		if e.Phase != nil {
			kind += env.say(m.Phase, *e.Phase)
		}
		fmt.Fprintf(&b, "\n- **%s** (%s)", e.Slug, kind)
		if e.LastSession != nil {
			b.WriteString(env.say(m.Last, *e.LastSession))
		}
		switch {
		case e.Problem != nil:
			b.WriteString(" — " + *e.Problem)
		case e.Summary != nil:
			b.WriteString(": " + *e.Summary)
		}
	}
	if leftOut > 0 {
		b.WriteString("\n" + env.say(m.LeftOut, leftOut))
	}
	return b.String()
}

// briefCut returns s cut to at most n characters, "…" included: at its
// last space past three quarters of n when there is one.
func briefCut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)[:n-1]
	for i := len(rs) - 1; i > len(rs)*3/4; i-- {
		if rs[i] == ' ' {
			rs = rs[:i]
			break
		}
	}
	return strings.TrimSpace(string(rs)) + "…"
}
