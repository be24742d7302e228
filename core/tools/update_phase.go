package tools

import (
	"encoding/json"
	"strings"
	"unicode"

	"kessho/core/catalog"
	"kessho/core/fault"
	"kessho/core/frontmatter"
	"kessho/core/plan"
)

// updatePhaseSpec is mem_update_phase in the catalogue.
var updatePhaseSpec = &catalog.Tool{
	Name:  "mem_update_phase",
	Title: catalog.Text{En: "Set phase", Fr: "Changer la phase"},
	Description: catalog.Text{
		En: "Sets the phase of an active project or domain (frontmatter key `phase` of its context.md), e.g. draft, review, blocked. Only that value's bytes change; the body and every other key stay as they are. An empty phase removes the key. An archived project is refused: revive it first.",
		Fr: "Fixe la phase d'un projet ou domaine actif (clé `phase` du frontmatter de son context.md), par ex. rédaction, relecture, bloqué. Seuls les octets de cette valeur changent ; le corps et les autres clés restent tels quels. Une phase vide retire la clé. Un projet archivé est refusé : ravivez-le d'abord.",
	},
	Params: []catalog.Param{
		slugParam,
		{Name: "phase", Type: catalog.String, Required: true, MaxLength: intp(200), OneLine: true,
			Description: catalog.Text{
				En: "The new phase, one short word or phrase (at most 200 characters); an empty string removes the phase.",
				Fr: "La nouvelle phase, un mot ou une courte expression (200 caractères au plus) ; une chaîne vide retire la phase.",
			}},
	},
	Errors: append([]fault.Code{fault.NoContext, fault.SlugConflict, fault.FileNotUTF8}, catalog.Shared...),
	Writes: true,
	CLI:    catalog.CLI{Command: "phase", Args: []string{"slug", "phase"}},
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

// phaseMsg is mem_update_phase's messages.
var phaseMsg = struct {
	oneLine                            fault.Msg
	none, absent                       fault.Msg
	already, unchanged, removed, setTo fault.Msg
}{
	oneLine:   fault.Msg{En: "must be one line: a word or a short phrase", Fr: "doit tenir sur une ligne : un mot ou une courte expression"},
	none:      fault.Msg{En: "none", Fr: "aucune"},
	absent:    fault.Msg{En: "absent", Fr: "absente"},
	already:   fault.Msg{En: "the phase was already %s; nothing written", Fr: "la phase était déjà %s ; rien n'a été écrit"},
	unchanged: fault.Msg{En: "Phase of **%s** unchanged (%s).", Fr: "Phase de **%s** inchangée (%s)."},
	removed:   fault.Msg{En: "Phase of **%s** removed (was `%s`).", Fr: "Phase de **%s** retirée (c'était `%s`)."},
	setTo:     fault.Msg{En: "Phase of **%s** set to `%s` (was %s).", Fr: "Phase de **%s** mise à `%s` (c'était %s)."},
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
		return nil, nil, fault.Argument("phase", phaseMsg.oneLine.En, phaseMsg.oneLine.Fr)
	}
	c, err := readContext(env, args.Slug)
	if err != nil {
		return nil, nil, err
	}
	if err := refuseArchived(c.project); err != nil {
		return nil, nil, err
	}
	res := PhaseResult{Slug: c.project.Slug, Kind: c.project.Type(), Path: c.path, Phase: phase, Common: common()}
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
	none := env.Say(phaseMsg.none)
	switch {
	case text == c.text:
		res.Warnings = append(res.Warnings, env.Say(phaseMsg.already, quoteOr(phase, env.Say(phaseMsg.absent))))
		res.SummaryMD = env.Say(phaseMsg.unchanged, res.Slug, quoteOr(phase, none))
		return res, nil, nil
	case phase == "":
		res.SummaryMD = env.Say(phaseMsg.removed, res.Slug, was)
	default:
		res.SummaryMD = env.Say(phaseMsg.setTo, res.Slug, phase, quoteOr(was, none))
	}
	res.Changed = true
	return res, plan.Plan{plan.WriteOp(c.path, c.sha, text)}, nil
}

// quoteOr writes s as code, or none when s is empty or "none".
func quoteOr(s, none string) string {
	if s == "" || s == "none" {
		return none
	}
	return "`" + s + "`"
}
