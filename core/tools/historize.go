package tools

import (
	"fmt"
	"strings"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/frontmatter"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/vault"
)

// historizeSpec is mem_historize in the catalogue.
var historizeSpec = tool[historizeResult](catalogText("historize.yaml"), "mem_historize", "historize slug", writes|idempotent, readsContext(fault.NotAProject), []catalog.Param{
	slugParam,
	{Name: "revive", Type: catalog.Boolean, Default: false},
})

// historizeArgs is historize's arguments.
type historizeArgs struct {
	Slug   string `json:"slug"`
	Revive bool   `json:"revive"`
}

// historizeResult is mem_historize's result.
type historizeResult struct {
	Slug    string `json:"slug"`
	From    string `json:"from"`
	To      string `json:"to"`
	Revive  bool   `json:"revive"`
	Changed bool   `json:"changed"`
	Phase   change `json:"phase"`
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
func historize(env *Env, a historizeArgs) (any, plan.Plan, error) {
	p, err := vault.Resolve(env.View, a.Slug)
	if err != nil {
		return nil, nil, err
	}
	if p.Kind == vault.KindDomain {
		return nil, nil, historizeText().Msg.Domain.Err(fault.NotAProject, map[string]any{"slug": p.Slug, "path": p.Dir}, p.Slug, p.Dir)
	}
	target, verb := vault.KindArchived, historizeText().Msg.Historized
	if a.Revive {
		target, verb = vault.KindProject, historizeText().Msg.Revived
	}
	res := historizeResult{Slug: p.Slug, From: p.Dir, To: vault.Dir(target, p.Slug), Revive: a.Revive, Common: common()}
	if p.Kind == target {
		res.Warnings = append(res.Warnings, env.say(historizeText().Msg.Already, p.Slug, p.Dir))
		res.SummaryMD = res.Warnings[0]
		return res, nil, nil
	}
	c, err := readContext(env, a.Slug)
	if err != nil {
		return nil, nil, err
	}
	e := &fmEdit{text: c.text, docs: env.docs()}
	if prev, ok := c.doc.String("phase"); ok {
		res.Phase.From = &prev
	}
	if a.Revive {
		res.Phase.To = reviveEdits(e, c.doc, p.Slug)
	} else {
		res.Phase.To = archiveEdits(e, c.doc, p.Slug, env.Now.Format("2006-01-02"))
	}
	if e.err != nil {
		return nil, nil, frontmatterError(c.path, e.err)
	}
	res.Changed = true
	res.SummaryMD = fmt.Sprintf("%s **%s**: %s → %s.", env.say(verb), p.Slug, res.From, res.To)
	pl := plan.Plan{{Op: plan.Move, From: p.Dir, To: res.To, Expect: plan.Absent}}
	if e.text != c.text {
		pl = append(plan.Plan{plan.WriteOp(c.path, c.sha, e.text)}, pl...)
	}
	return res, pl, nil
}

// historizeText is historize.yaml: mem_historize's catalogue texts and messages, parsed on first use.
var historizeText = loadText[struct {
	Domain, Already, Historized, Revived fault.Msg
}]("historize.yaml")

// archivedSuffix ends an archived project's display.
const archivedSuffix = " [archived]"

// fmEdit applies frontmatter edits to text in turn; after an edit fails,
// the others do nothing and err holds why.
type fmEdit struct {
	text string
	err  error
	docs *frontmatter.Cache
}

func (e *fmEdit) set(k string, v any) {
	if e.err == nil {
		e.text, e.err = e.docs.Set(e.text, k, v)
	}
}

func (e *fmEdit) remove(k string) {
	if e.err == nil {
		e.text, e.err = e.docs.Remove(e.text, k)
	}
}

// archiveEdits marks context.md archived on day: phase archived (the
// previous one kept), archived_at, the display suffixed or created (and
// marked so). It returns the new phase.
func archiveEdits(e *fmEdit, doc *frontmatter.Doc, slug, day string) *string {
	e.set("phase", "archived")
	if prev, ok := doc.String("phase"); ok && prev != "archived" {
		e.set("phase_before_archive", prev)
	}
	e.set("archived_at", day)
	display, hasDisplay := doc.String("display")
	switch {
	case !hasDisplay:
		e.set("display", slug+" — context"+archivedSuffix)
		e.set(displayCreatedKey, true)
	case !strings.HasSuffix(display, archivedSuffix):
		e.set("display", display+archivedSuffix)
	}
	archived := "archived"
	return &archived
}

// reviveEdits undoes archiveEdits: the phase before archiving back (or
// none), archived_at gone, the display's suffix removed, or the display
// itself when historize created it and it is unchanged. It returns the
// new phase (nil: none).
func reviveEdits(e *fmEdit, doc *frontmatter.Doc, slug string) *string {
	before, ok := doc.String("phase_before_archive")
	if ok {
		e.set("phase", before)
		e.remove("phase_before_archive")
	} else {
		e.remove("phase")
	}
	e.remove("archived_at")
	madeByUs, marked := doc.Lookup(displayCreatedKey)
	if marked {
		e.remove(displayCreatedKey)
	}
	display, hasDisplay := doc.String("display")
	switch {
	case hasDisplay && madeByUs == true && display == slug+" — context"+archivedSuffix:
		e.remove("display")
	case hasDisplay && strings.HasSuffix(display, archivedSuffix):
		e.set("display", strings.TrimSuffix(display, archivedSuffix))
	}
	if !ok {
		return nil
	}
	return &before
}
