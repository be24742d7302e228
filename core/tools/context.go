package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"kessho/core/fault"
	"kessho/core/frontmatter"
	"kessho/core/plan"
	"kessho/core/vault"
)

func init() {
	Registry["mem_update_phase"] = updatePhase
	Registry["mem_set_summary"] = setSummary
}

// contextFile is a project's context.md as read for an edit.
type contextFile struct {
	project vault.Project
	path    string
	text    string
	sha     string
	doc     *frontmatter.Doc
}

// readContext resolves slug and reads its context.md: UNKNOWN_SLUG,
// INVALID_SLUG, SLUG_CONFLICT, NO_CONTEXT, FRONTMATTER_INVALID.
func readContext(env *Env, slug string) (*contextFile, error) {
	p, err := vault.Resolve(env.View, slug)
	if err != nil {
		return nil, err
	}
	path := p.Context()
	text, sha, err := env.View.Read(path)
	if errors.Is(err, vault.ErrNotExist) {
		return nil, fault.New(fault.NoContext, map[string]any{"slug": slug, "path": path},
			fmt.Sprintf("%s has no context.md (%s); create it, or use mem_init_project for a new project", slug, path),
			fmt.Sprintf("%s n'a pas de context.md (%s) ; créez-le, ou utilisez mem_init_project pour un nouveau projet", slug, path))
	}
	if err != nil {
		return nil, err
	}
	doc, err := frontmatter.Parse(text)
	if err != nil {
		return nil, frontmatterError(path, err)
	}
	return &contextFile{project: p, path: path, text: text, sha: sha, doc: doc}, nil
}

// frontmatterError turns a frontmatter refusal into FRONTMATTER_INVALID
// naming the file and the line.
func frontmatterError(path string, err error) error {
	var fe *frontmatter.Error
	if !errors.As(err, &fe) {
		return fault.Internalf("editing %s: %v", path, err)
	}
	return fault.New(fault.FrontmatterInvalid, map[string]any{"path": path, "line": fe.Line, "reason": fe.Reason},
		fmt.Sprintf("%s line %d: the frontmatter is not a valid YAML mapping (%s); fix it by hand, nothing was written", path, fe.Line, fe.Reason),
		fmt.Sprintf("%s ligne %d : le frontmatter n'est pas un mapping YAML valide (%s) ; corrigez-le à la main, rien n'a été écrit", path, fe.Line, fe.Reason))
}

func refuseArchived(env *Env, p vault.Project) error {
	if p.Kind != vault.KindArchived {
		return nil
	}
	return fault.New(fault.ProjectArchived, map[string]any{"slug": p.Slug, "path": p.Dir},
		fmt.Sprintf("project %s is archived (%s); revive it first with mem_historize revive=true", p.Slug, p.Dir),
		fmt.Sprintf("le projet %s est archivé (%s) ; ravivez-le d'abord avec mem_historize revive=true", p.Slug, p.Dir))
}

// PhaseResult is mem_update_phase's result.
type PhaseResult struct {
	Slug          string  `json:"slug"`
	Kind          string  `json:"kind"`
	Path          string  `json:"path"`
	Phase         string  `json:"phase"`
	PreviousPhase *string `json:"previous_phase"`
	Changed       bool    `json:"changed"`
	Common
}

// updatePhase sets or removes `phase` in context.md.
//
// The phase is trimmed of surrounding blanks and must be one line (a phase
// is a word or a short phrase; a line break in it is surely a mistake).
// Setting the value it already has writes nothing and says so.
func updatePhase(env *Env, raw json.RawMessage) (any, plan.Plan, error) {
	var args struct {
		Slug  string `json:"slug"`
		Phase string `json:"phase"`
	}
	if err := decode(raw, &args); err != nil {
		return nil, nil, err
	}
	phase := strings.TrimFunc(args.Phase, unicode.IsSpace)
	if strings.ContainsAny(phase, "\r\n\u2028\u2029") {
		return nil, nil, fault.Argument("phase", "must be one line: a word or a short phrase",
			"doit tenir sur une ligne : un mot ou une courte expression")
	}
	c, err := readContext(env, args.Slug)
	if err != nil {
		return nil, nil, err
	}
	if err := refuseArchived(env, c.project); err != nil {
		return nil, nil, err
	}
	res := PhaseResult{Slug: c.project.Slug, Kind: c.project.Type(), Path: c.path, Phase: phase, Common: Common{Warnings: []string{}}}
	if prev, ok := c.doc.String("phase"); ok {
		res.PreviousPhase = &prev
	}
	var text string
	if phase == "" {
		text, err = frontmatter.Remove(c.text, "phase")
	} else {
		text, err = frontmatter.Set(c.text, "phase", phase)
	}
	if err != nil {
		return nil, nil, frontmatterError(c.path, err)
	}
	was := "none"
	if res.PreviousPhase != nil {
		was = *res.PreviousPhase
	}
	switch {
	case text == c.text:
		res.Warnings = append(res.Warnings, env.T("the phase was already "+quoteOr(phase, "absent")+"; nothing written",
			"la phase était déjà "+quoteOr(phase, "absente")+" ; rien n'a été écrit"))
		res.SummaryMD = env.T(fmt.Sprintf("Phase of **%s** unchanged (%s).", res.Slug, quoteOr(phase, "none")),
			fmt.Sprintf("Phase de **%s** inchangée (%s).", res.Slug, quoteOr(phase, "aucune")))
		return res, nil, nil
	case phase == "":
		res.SummaryMD = env.T(fmt.Sprintf("Phase of **%s** removed (was `%s`).", res.Slug, was),
			fmt.Sprintf("Phase de **%s** retirée (c'était `%s`).", res.Slug, was))
	default:
		res.SummaryMD = env.T(fmt.Sprintf("Phase of **%s** set to `%s` (was %s).", res.Slug, phase, quoteOr(was, "none")),
			fmt.Sprintf("Phase de **%s** mise à `%s` (c'était %s).", res.Slug, phase, quoteOr(was, "aucune")))
	}
	res.Changed = true
	return res, plan.Plan{plan.WriteOp(c.path, c.sha, text)}, nil
}

func quoteOr(s, none string) string {
	if s == "" || s == "none" {
		return none
	}
	return "`" + s + "`"
}

// SummaryResult is mem_set_summary's result.
type SummaryResult struct {
	Slug            string  `json:"slug"`
	Kind            string  `json:"kind"`
	Archived        bool    `json:"archived"`
	Path            string  `json:"path"`
	Summary         string  `json:"summary"`
	Length          int     `json:"length"`
	PreviousSummary *string `json:"previous_summary"`
	Changed         bool    `json:"changed"`
	Common
}

// MaxSummary is the longest summary, in characters (runes).
const MaxSummary = 300

// NormalizeSummary joins lines: each run of line breaks (CR, LF, CRLF,
// U+2028, U+2029) with the blanks around it becomes one space, and the ends
// are trimmed of white space.
func NormalizeSummary(s string) string {
	isBreak := func(r rune) bool { return r == '\r' || r == '\n' || r == '\u2028' || r == '\u2029' }
	isBlank := func(r rune) bool { return unicode.IsSpace(r) && !isBreak(r) }
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		if !isBreak(rs[i]) {
			b.WriteRune(rs[i])
			continue
		}
		// Drop the blanks already written before the break.
		out := strings.TrimRightFunc(b.String(), isBlank)
		b.Reset()
		b.WriteString(out)
		for i+1 < len(rs) && (isBreak(rs[i+1]) || isBlank(rs[i+1])) {
			i++
		}
		b.WriteByte(' ')
	}
	return strings.TrimFunc(b.String(), unicode.IsSpace)
}

// checkSummaryLength refuses a normalised summary over MaxSummary
// characters with SUMMARY_TOO_LONG; it is never cut.
func checkSummaryLength(summary string) error {
	n := utf8.RuneCountInString(summary)
	if n <= MaxSummary {
		return nil
	}
	return fault.New(fault.SummaryTooLong, map[string]any{"parameter": "summary", "length": n, "max": MaxSummary},
		fmt.Sprintf("summary is %d characters long, at most %d allowed: shorten it to one or two sentences (it is never cut for you)", n, MaxSummary),
		fmt.Sprintf("le résumé compte %d caractères, %d au plus : raccourcissez-le à une ou deux phrases (il n'est jamais tronqué pour vous)", n, MaxSummary))
}

// setSummary sets `summary` in context.md, on any project or domain.
func setSummary(env *Env, raw json.RawMessage) (any, plan.Plan, error) {
	var args struct {
		Slug    string `json:"slug"`
		Summary string `json:"summary"`
	}
	if err := decode(raw, &args); err != nil {
		return nil, nil, err
	}
	summary := NormalizeSummary(args.Summary)
	if summary == "" {
		return nil, nil, fault.Argument("summary", "is empty: write one or two sentences on what the project is and where it stands",
			"est vide : écrivez une ou deux phrases sur ce qu'est le projet et où il en est")
	}
	if err := checkSummaryLength(summary); err != nil {
		return nil, nil, err
	}
	c, err := readContext(env, args.Slug)
	if err != nil {
		return nil, nil, err
	}
	res := SummaryResult{Slug: c.project.Slug, Kind: c.project.Type(), Archived: c.project.Archived(), Path: c.path, Summary: summary,
		Length: utf8.RuneCountInString(summary), Common: Common{Warnings: []string{}}}
	if prev, ok := c.doc.String("summary"); ok {
		res.PreviousSummary = &prev
	}
	text, err := frontmatter.Set(c.text, "summary", summary)
	if err != nil {
		return nil, nil, frontmatterError(c.path, err)
	}
	if text == c.text {
		res.Warnings = append(res.Warnings, env.T("the summary was already this text; nothing written",
			"le résumé était déjà ce texte ; rien n'a été écrit"))
		res.SummaryMD = env.T(fmt.Sprintf("Summary of **%s** unchanged.", res.Slug), fmt.Sprintf("Résumé de **%s** inchangé.", res.Slug))
		return res, nil, nil
	}
	res.Changed = true
	res.SummaryMD = env.T(fmt.Sprintf("Summary of **%s** set (%d characters).", res.Slug, res.Length),
		fmt.Sprintf("Résumé de **%s** mis à jour (%d caractères).", res.Slug, res.Length))
	return res, plan.Plan{plan.WriteOp(c.path, c.sha, text)}, nil
}
