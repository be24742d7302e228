package tools

import (
	"encoding/json"
	"fmt"
	"strings"

	"kessho/core/catalog"
	"kessho/core/fault"
	"kessho/core/frontmatter"
	"kessho/core/plan"
	"kessho/core/vault"
)

// historizeSpec is mem_historize in the catalogue.
var historizeSpec = &catalog.Tool{
	Name:  "mem_historize",
	Title: catalog.Text{En: "Historize / revive project", Fr: "Historiser / raviver le projet"},
	Description: catalog.Text{
		En: "Moves a finished project to 10-episodes/archived/ (phase: archived, the previous phase kept, archived_at, ` [archived]` in display; a display it has to create is marked display_created_on_archive), or with revive=true brings it back exactly as it was: revive removes the suffix and deletes display only when historize created it. Domains cannot be archived.",
		Fr: "Déplace un projet terminé dans 10-episodes/archived/ (phase: archived, phase précédente gardée, archived_at, ` [archived]` dans display ; un display qu'il doit créer est marqué display_created_on_archive), ou avec revive=true le ramène exactement tel qu'il était : revive retire le suffixe et ne supprime display que si historize l'a créé. Les domaines ne s'archivent pas.",
	},
	Params: []catalog.Param{
		slugParam,
		{Name: "revive", Type: catalog.Boolean, Default: false,
			Description: catalog.Text{En: "true brings an archived project back to 10-episodes/projects/.", Fr: "true ramène un projet archivé dans 10-episodes/projects/."}},
	},
	Errors: append([]fault.Code{fault.NotAProject, fault.NoContext, fault.SlugConflict, fault.FileNotUTF8}, catalog.Shared...),
	Writes: true,
	CLI:    catalog.CLI{Command: "historize", Args: []string{"slug"}},
}

// HistorizeResult is mem_historize's result.
type HistorizeResult struct {
	Slug    string `json:"slug"`
	From    string `json:"from"`
	To      string `json:"to"`
	Revive  bool   `json:"revive"`
	Changed bool   `json:"changed"`
	Phase   Change `json:"phase"`
	Common
}

// displayCreatedKey marks, in an archived project's context.md, a display
// that mem_historize created (there was none): revive removes such a
// display, and only such a one.
const displayCreatedKey = "display_created_on_archive"

// historize is mem_historize: one plan of a context edit and a folder move.
// The edit is made in place first, then the folder moves, so the journal
// can finish either half.
//
// The display: historize appends " [archived]" to the one there is, or,
// when there is none, creates `<slug> — context [archived]` and records
// that it did with `display_created_on_archive: true`. Revive removes the
// suffix and keeps the key; it removes the key only when that mark is
// there and the value is still the one created (a display the user
// rewrote while archived is theirs: only its suffix goes). The value alone
// never decides: another tool's `legacy-app — context [archived]` stays
// `legacy-app — context`. The mark is removed on revive, so historize then
// revive gives back context.md byte for byte.
func historize(env *Env, raw json.RawMessage) (any, plan.Plan, error) {
	var a struct {
		Slug   string `json:"slug"`
		Revive bool   `json:"revive"`
	}
	if err := decode(raw, &a); err != nil {
		return nil, nil, err
	}
	p, err := vault.Resolve(env.View, a.Slug)
	if err != nil {
		return nil, nil, err
	}
	if p.Kind == vault.KindDomain {
		return nil, nil, fault.New(fault.NotAProject, map[string]any{"slug": p.Slug, "path": p.Dir},
			fmt.Sprintf("%s is a domain (%s); only projects are archived", p.Slug, p.Dir),
			fmt.Sprintf("%s est un domaine (%s) ; seuls les projets s'archivent", p.Slug, p.Dir))
	}
	target := vault.KindArchived
	if a.Revive {
		target = vault.KindProject
	}
	res := HistorizeResult{Slug: p.Slug, From: p.Dir, To: vault.Dir(target, p.Slug), Revive: a.Revive, Common: Common{Warnings: []string{}}}
	if p.Kind == target {
		res.From = p.Dir
		res.Warnings = append(res.Warnings, env.T(
			fmt.Sprintf("%s is already in %s; nothing written", p.Slug, p.Dir),
			fmt.Sprintf("%s est déjà dans %s ; rien n'a été écrit", p.Slug, p.Dir)))
		res.SummaryMD = res.Warnings[0]
		return res, nil, nil
	}
	c, err := readContext(env, a.Slug)
	if err != nil {
		return nil, nil, err
	}
	text := c.text
	prev, hadPhase := c.doc.String("phase")
	if hadPhase {
		res.Phase.From = &prev
	}
	display, hasDisplay := c.doc.String("display")
	var errs []error
	set := func(k string, v any) {
		t, err := frontmatter.Set(text, k, v)
		errs = append(errs, err)
		if err == nil {
			text = t
		}
	}
	remove := func(k string) {
		t, err := frontmatter.Remove(text, k)
		errs = append(errs, err)
		if err == nil {
			text = t
		}
	}
	const suffix = " [archived]"
	created := p.Slug + " — context" + suffix
	if !a.Revive {
		archived := "archived"
		res.Phase.To = &archived
		set("phase", "archived")
		if hadPhase && prev != "archived" {
			set("phase_before_archive", prev)
		}
		set("archived_at", env.Now.Format("2006-01-02"))
		switch {
		case !hasDisplay:
			set("display", created)
			set(displayCreatedKey, true)
		case !strings.HasSuffix(display, suffix):
			set("display", display+suffix)
		}
	} else {
		before, ok := c.doc.String("phase_before_archive")
		if ok {
			res.Phase.To = &before
			set("phase", before)
			remove("phase_before_archive")
		} else {
			remove("phase")
		}
		remove("archived_at")
		madeByUs, marked := c.doc.Lookup(displayCreatedKey)
		if marked {
			remove(displayCreatedKey)
		}
		switch {
		case hasDisplay && madeByUs == true && display == created:
			remove("display")
		case hasDisplay && strings.HasSuffix(display, suffix):
			set("display", strings.TrimSuffix(display, suffix))
		}
	}
	for _, err := range errs {
		if err != nil {
			return nil, nil, frontmatterError(c.path, err)
		}
	}
	res.Changed = true
	verb := env.T("Historized", "Historisé")
	if a.Revive {
		verb = env.T("Revived", "Ravivé")
	}
	res.SummaryMD = fmt.Sprintf("%s **%s**: %s → %s.", verb, p.Slug, res.From, res.To)
	pl := plan.Plan{{Op: plan.Move, From: p.Dir, To: res.To, Expect: plan.Absent}}
	if text != c.text {
		pl = append(plan.Plan{plan.WriteOp(c.path, c.sha, text)}, pl...)
	}
	return res, pl, nil
}
