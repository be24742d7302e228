package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"kessho/core/atom"
	"kessho/core/catalog"
	"kessho/core/fault"
	"kessho/core/fold"
	"kessho/core/frontmatter"
	"kessho/core/history"
	"kessho/core/note"
	"kessho/core/plan"
	"kessho/core/relocate"
	"kessho/core/vault"
	"kessho/core/wikilink"
	"kessho/core/worklog"
)

// archiveSpec is mem_archive in the catalogue.
var archiveSpec = &catalog.Tool{
	Name:  "mem_archive",
	Title: catalog.Text{En: "Archive session", Fr: "Archiver la session"},
	Description: catalog.Text{
		En: "Records the end of a work session on a project or domain. mode=incremental (default) only updates context.md (phase, body, last-session). mode=full also writes a timestamped archive note, prepends its line to history.md, and can create curated atoms (derive) in the same all-or-nothing call. A full archive with the same subject and body as the project's newest archive, less than 24 hours after it, is a retry: it answers that archive with already_archived true and writes nothing. Call it when the user asks to archive or checkpoint a session.",
		Fr: "Enregistre la fin d'une session de travail sur un projet ou domaine. mode=incremental (défaut) ne met à jour que context.md (phase, corps, last-session). mode=full écrit aussi une note d'archive horodatée, ajoute sa ligne en tête de history.md, et peut créer des atomes (derive) dans le même appel tout-ou-rien. Une archive full de même sujet et même corps que la plus récente du projet, moins de 24 heures après elle, est un nouvel essai : il renvoie cette archive avec already_archived à true et n'écrit rien. À appeler quand l'utilisateur demande d'archiver ou de faire le point sur une session.",
	},
	Params: []catalog.Param{
		slugParam,
		{Name: "mode", Type: catalog.String, Enum: []string{"incremental", "full"}, Default: "incremental",
			Description: catalog.Text{
				En: "incremental: update context.md only. full: also write an archive note, its history.md line and atoms.",
				Fr: "incremental : ne met à jour que context.md. full : écrit aussi une note d'archive, sa ligne dans history.md et les atomes.",
			}},
		{Name: "phase", Type: catalog.String, MaxLength: intp(200), OneLine: true,
			Description: catalog.Text{
				En: "New phase of the project; written only when given.",
				Fr: "Nouvelle phase du projet ; écrite seulement si elle est donnée.",
			}},
		{Name: "context_md", Type: catalog.String,
			Description: catalog.Text{
				En: "REPLACES the whole body of context.md: pass the complete new context, never a diff or a fragment. Omit it to keep the body byte for byte (how one sets a phase or adds an archive without touching the context). Empty is refused.",
				Fr: "REMPLACE tout le corps de context.md : passez le contexte complet, jamais un diff ni un fragment. Omettez-le pour garder le corps à l'octet près (pour changer la phase ou ajouter une archive sans toucher au contexte). Vide : refusé.",
			}},
		{Name: "expect_decisions", Type: catalog.Array, Items: &catalog.Param{Type: catalog.String},
			Description: catalog.Text{
				En: "Decisions that must still be in the context after the call (compared on letters and digits, case and accents ignored); if one is missing nothing is written. Use it to guard against dropping a decision when rewriting context_md.",
				Fr: "Décisions qui doivent encore figurer dans le contexte après l'appel (comparées sur lettres et chiffres, sans casse ni accents) ; s'il en manque une, rien n'est écrit. Protège contre l'oubli d'une décision en réécrivant context_md.",
			}},
		{Name: "archive_subject", Type: catalog.String, MaxLength: intp(200), OneLine: true,
			Description: catalog.Text{
				En: "full mode, required: a short subject naming what the session did; it names the archive file and its history line.",
				Fr: "mode full, obligatoire : un sujet court qui dit ce que la session a fait ; il nomme le fichier d'archive et sa ligne d'historique.",
			}},
		{Name: "archive_body_md", Type: catalog.String,
			Description: catalog.Text{
				En: "full mode, required: the archive's Markdown body: what was done, decided, learned, and what comes next (a 'Next steps' section is picked up by the worklog).",
				Fr: "mode full, obligatoire : le corps Markdown de l'archive : ce qui a été fait, décidé, appris, et la suite (une section « Prochaines étapes » est reprise par le worklog).",
			}},
		{Name: "archive_aliases", Type: catalog.Array, Items: &catalog.Param{Type: catalog.String, OneLine: true},
			Description: catalog.Text{
				En: "full mode: the words the user actually lived and will search with later, not the fix's vocabulary (e.g. \"menu bar\" for a systray bug, \"the app is all white\" for a blank screen); they rank like a title in search.",
				Fr: "mode full : les mots que l'utilisateur a vécus et cherchera plus tard, pas le vocabulaire du correctif (par ex. « barre de menus » pour un bug de systray, « l'appli est toute blanche » pour un écran vide) ; ils comptent comme un titre dans la recherche.",
			}},
		{Name: "archive_extra_fm", Type: catalog.Object,
			Description: catalog.Text{
				En: "full mode: extra frontmatter keys for the archive; `tags` are added to the archive's own tags (no duplicates), any other key replaces the generated one.",
				Fr: "mode full : clés de frontmatter en plus pour l'archive ; les `tags` s'ajoutent à ceux de l'archive (sans doublon), toute autre clé remplace celle générée.",
			}},
		{Name: "derive", Type: catalog.Array, Items: &catalog.Param{Type: catalog.Object, Props: []catalog.Param{
			{Name: "fact", Type: catalog.String, Required: true, MinLength: intp(1), MaxLength: intp(300), OneLine: true,
				Description: catalog.Text{En: "The fact itself, as a short sentence: it names the atom's note and is how it will be found.", Fr: "Le fait lui-même, en une phrase courte : il nomme la note de l'atome et c'est par lui qu'on la retrouvera."}},
			{Name: "body", Type: catalog.String, Required: true,
				Description: catalog.Text{En: "Why it is true and what ignoring it costs.", Fr: "Pourquoi c'est vrai et ce que coûte de l'ignorer."}},
			{Name: "kind", Type: catalog.String, Required: true, Enum: []string{"principle", "goal", "knowledge"},
				Description: catalog.Text{En: "principle (constrains future work), goal (set or changed), knowledge (costly to get).", Fr: "principle (contraint le travail futur), goal (fixé ou changé), knowledge (coûteux à obtenir)."}},
		}},
			Description: catalog.Text{
				En: "full mode: the durable facts to write as curated atoms in this call — a principle that will constrain future work, a goal set or changed, knowledge that was costly to get. A fact left only in an archive takes several searches to find again; an atom, one or two. A name already used in the vault refuses the call.",
				Fr: "mode full : les faits durables à écrire comme atomes dans cet appel — un principe qui contraindra la suite, un objectif fixé ou changé, un savoir coûteux à obtenir. Un fait laissé dans une archive demande plusieurs recherches pour être retrouvé ; un atome, une ou deux. Un nom déjà pris dans le coffre fait refuser l'appel.",
			}},
		{Name: "derived_atoms", Type: catalog.Array, Items: &catalog.Param{Type: catalog.String, OneLine: true},
			Description: catalog.Text{
				En: "full mode: existing atoms this session produced or changed, as `[[name]]` or `name`.",
				Fr: "mode full : atomes existants que la session a produits ou modifiés, en `[[nom]]` ou `nom`.",
			}},
		{Name: "no_derived_because", Type: catalog.String, OneLine: true,
			Description: catalog.Text{
				En: "full mode: required when the session leaves no atom (derive and derived_atoms both empty); a short reason is enough — silence is what is refused. Not allowed with atoms.",
				Fr: "mode full : obligatoire quand la session ne laisse aucun atome (derive et derived_atoms vides) ; une raison courte suffit — c'est le silence qui est refusé. Interdit avec des atomes.",
			}},
		{Name: "source_hint", Type: catalog.String, Enum: []string{"archeo-git"},
			Description: catalog.Text{
				En: "full mode: `archeo-git` for archives reconstructed from git history; the archive's frontmatter must then hold every archeo-git key (through archive_extra_fm).",
				Fr: "mode full : `archeo-git` pour les archives reconstituées depuis l'historique git ; le frontmatter de l'archive doit alors porter toutes les clés archeo-git (via archive_extra_fm).",
			}},
	},
	Errors: append([]fault.Code{fault.ContextEmpty, fault.DecisionsLost, fault.DerivedRequired, fault.AtomExists, fault.ArcheoInvalid, fault.NoContext, fault.SlugConflict, fault.FileNotUTF8}, catalog.Shared...),
	Writes: true,
	CLI:    catalog.CLI{Command: "archive", Args: []string{"slug"}},
}

type deriveItem struct {
	Fact string `json:"fact"`
	Body string `json:"body"`
	Kind string `json:"kind"`
}

type archiveArgs struct {
	Slug             string          `json:"slug"`
	Mode             string          `json:"mode"`
	Phase            *string         `json:"phase"`
	ContextMD        *string         `json:"context_md"`
	ExpectDecisions  []string        `json:"expect_decisions"`
	ArchiveSubject   *string         `json:"archive_subject"`
	ArchiveBodyMD    *string         `json:"archive_body_md"`
	ArchiveAliases   []string        `json:"archive_aliases"`
	ArchiveExtraFM   json.RawMessage `json:"archive_extra_fm"`
	Derive           []deriveItem    `json:"derive"`
	DerivedAtoms     []string        `json:"derived_atoms"`
	NoDerivedBecause *string         `json:"no_derived_because"`
	SourceHint       *string         `json:"source_hint"`
}

// Change is a frontmatter value before and after a call (nil: absent).
type Change struct {
	From *string `json:"from"`
	To   *string `json:"to"`
}

// ContextChanges says what a call did to context.md.
type ContextChanges struct {
	Path         string  `json:"path"`
	BodyReplaced bool    `json:"body_replaced"`
	Phase        *Change `json:"phase,omitempty"`
	LastSession  Change  `json:"last_session"`
}

// ArchiveResult is mem_archive's result.
type ArchiveResult struct {
	Slug         string         `json:"slug"`
	Kind         string         `json:"kind"`
	Mode         string         `json:"mode"`
	Archive      *string        `json:"archive"`
	HistoryLine  *string        `json:"history_line"`
	AtomsCreated []string       `json:"atoms_created"`
	DerivedAtoms []string       `json:"derived_atoms"`
	Context      ContextChanges `json:"context"`
	Sigils       int            `json:"sigils_rewritten"`
	// AlreadyArchived is true when a full archive found this very session
	// archived already (a retry) and wrote nothing.
	AlreadyArchived bool `json:"already_archived"`
	Common
}

// ArcheoKeys must all be in an archeo-git archive's frontmatter.
var ArcheoKeys = strings.Fields(`source scope collective modality branch branch_base
branch_base_sha milestone_kind source_milestone commit_sha granularity
friction_detected derived_atoms content_hash previous_atom topology_snapshot_hash
repo_path`)

// archiveMsg is mem_archive's messages.
var archiveMsg = struct {
	contextEmpty, oneLine, noAlnum, fullOnly, subject, subjectLine, body fault.Msg
	alias, derivedName, factName, factBody, noAtoms, reasonWithAtoms     fault.Msg
	notObject, notYAML, lost, atomExists, archeo, deadLink, noHistLine   fault.Msg
	differ, already, updated, archived                                   fault.Msg
}{
	contextEmpty: fault.Msg{
		En: "context_md is empty: pass the complete new context, or omit context_md to keep the body as it is",
		Fr: "context_md est vide : passez le contexte complet, ou omettez context_md pour garder le corps tel quel"},
	oneLine: fault.Msg{En: "must be one line: a word or a short phrase", Fr: "doit tenir sur une ligne : un mot ou une courte expression"},
	noAlnum: fault.Msg{En: "has no letter or digit to look for", Fr: "ne contient aucune lettre ni chiffre à chercher"},
	fullOnly: fault.Msg{
		En: `only applies to mode "full"; pass mode "full" to write an archive, or leave it out (it would be lost)`,
		Fr: `ne vaut qu'en mode « full » ; passez mode « full » pour écrire une archive, ou retirez-le (il serait perdu)`},
	subject: fault.Msg{En: `is required in mode "full": a short subject for the archive`,
		Fr: `est obligatoire en mode « full » : un sujet court pour l'archive`},
	subjectLine: fault.Msg{En: "must be one line", Fr: "doit tenir sur une ligne"},
	body: fault.Msg{En: `is required in mode "full": the archive's Markdown body`,
		Fr: `est obligatoire en mode « full » : le corps Markdown de l'archive`},
	alias:       fault.Msg{En: "must be a non-blank line", Fr: "doit être une ligne non vide"},
	derivedName: fault.Msg{En: "names no atom: give `[[name]]` or `name`", Fr: "ne nomme aucun atome : donnez `[[nom]]` ou `nom`"},
	factName: fault.Msg{
		En: "leaves no file name once / \\ : * ? \" < > | # ^ [ ] and the dots and spaces at its ends are removed",
		Fr: "ne laisse aucun nom de fichier une fois / \\ : * ? \" < > | # ^ [ ] et les points et espaces à ses bouts retirés"},
	factBody: fault.Msg{En: "is blank: say why the fact is true and what ignoring it costs",
		Fr: "est vide : dites pourquoi le fait est vrai et ce que coûte de l'ignorer"},
	noAtoms: fault.Msg{
		En: "this session leaves no atom: pass derive (new atoms), derived_atoms (existing ones), or no_derived_because with a short reason",
		Fr: "cette session ne laisse aucun atome : passez derive (nouveaux atomes), derived_atoms (existants), ou no_derived_because avec une raison courte"},
	reasonWithAtoms: fault.Msg{
		En: "no_derived_because is given with atoms: leave it out when the session derives atoms",
		Fr: "no_derived_because est donné avec des atomes : retirez-le quand la session dérive des atomes"},
	notObject: fault.Msg{En: "must be a JSON object", Fr: "doit être un objet JSON"},
	notYAML:   fault.Msg{En: "cannot be written as YAML: %s", Fr: "ne peut s'écrire en YAML : %s"},
	lost: fault.Msg{
		En: "the new context lost %d decision(s): %s; put them back in context_md, nothing was written",
		Fr: "le nouveau contexte a perdu %d décision(s) : %s ; remettez-les dans context_md, rien n'a été écrit"},
	atomExists: fault.Msg{
		En: "an atom cannot be named %q: %s already holds that name (Obsidian links by file name); state the fact differently, nothing was written",
		Fr: "un atome ne peut s'appeler %q : %s porte déjà ce nom (Obsidian relie par nom de fichier) ; formulez le fait autrement, rien n'a été écrit"},
	archeo: fault.Msg{
		En: "an archeo-git archive needs every archeo-git key in its frontmatter; missing or null: %s (pass them in archive_extra_fm; '' or [] are allowed)",
		Fr: "une archive archeo-git doit porter toutes les clés archeo-git ; absentes ou nulles : %s (passez-les dans archive_extra_fm ; '' ou [] sont permis)"},
	deadLink:   fault.Msg{En: "[[%s]] links to no note of the vault", Fr: "[[%s]] ne mène à aucune note du coffre"},
	noHistLine: fault.Msg{En: "%s has no line for %s", Fr: "%s n'a pas de ligne pour %s"},
	differ: fault.Msg{
		En: "%s differ from what the vault holds now and were not applied (this session is archived already); send them with mode incremental if they are newer",
		Fr: "%s diffèrent de ce que le coffre contient et n'ont pas été appliqués (cette session est déjà archivée) ; envoyez-les en mode incremental s'ils sont plus récents"},
	already: fault.Msg{
		En: "**%s** already archived: [[%s]] (%s) holds this session, same subject and body; nothing written.",
		Fr: "**%s** déjà archivé : [[%s]] (%s) contient cette session, même sujet et même corps ; rien n'a été écrit."},
	updated: fault.Msg{En: "Context of **%s** updated (last session %s).", Fr: "Contexte de **%s** mis à jour (dernière session %s)."},
	archived: fault.Msg{
		En: "Archived **%s**: [[%s]] (%d atom(s) created), history and context updated.",
		Fr: "**%s** archivé : [[%s]] (%d atome(s) créé(s)), historique et contexte mis à jour."},
}

// archive is mem_archive: check the arguments (all of them before any
// read, so that a bad call is refused the same way whatever the vault
// holds), read context.md, make the new context, check the decisions kept;
// an incremental archive writes the context alone, a full one goes on in
// archiveFull.
//
// Choices where SPEC is silent: an empty or blank `phase` counts as not
// given (it never erases a phase by accident; mem_update_phase does that);
// a blank archive_subject or archive_body_md is refused like a missing one.
func archive(env *Env, raw json.RawMessage) (any, plan.Plan, error) {
	var a archiveArgs
	if err := decode(raw, &a); err != nil {
		return nil, nil, err
	}
	full := a.Mode == "full"
	if err := checkArchiveArgs(&a, full); err != nil {
		return nil, nil, err
	}
	c, err := readContext(env, a.Slug)
	if err != nil {
		return nil, nil, err
	}
	if err := refuseArchived(c.project); err != nil {
		return nil, nil, err
	}
	repoRoot, _ := c.doc.String("repo_path")
	res := &ArchiveResult{Slug: c.project.Slug, Kind: c.project.Type(), Mode: a.Mode,
		AtomsCreated: []string{}, DerivedAtoms: []string{}, Common: common()}
	ctxText, err := newContext(env, &a, c, res, repoRoot)
	if err != nil {
		return nil, nil, err
	}
	if err := checkDecisions(a.ExpectDecisions, ctxText); err != nil {
		return nil, nil, err
	}
	if full {
		return archiveFull(env, &a, c, res, ctxText, repoRoot)
	}
	res.SummaryMD = env.Say(archiveMsg.updated, res.Slug, *res.Context.LastSession.To)
	if a.ContextMD != nil {
		if err := warnLinks(env, res, []string{*a.ContextMD}, nil, nil); err != nil {
			return nil, nil, err
		}
	}
	return res, plan.Plan{plan.WriteOp(c.path, c.sha, ctxText)}, nil
}

// newContext returns context.md with the new body (its <repo>/… sigils
// rewritten), the new phase and last-session set, and says so in res.
func newContext(env *Env, a *archiveArgs, c *contextFile, res *ArchiveResult, repoRoot string) (string, error) {
	text := c.text
	var err error
	res.Context.Path = c.path
	if a.ContextMD != nil {
		body := *a.ContextMD
		if repoRoot != "" {
			var n int
			body, n = relocate.Rewrite(body, repoRoot)
			res.Sigils += n
		}
		if text, err = frontmatter.SetBody(text, body); err != nil {
			return "", frontmatterError(c.path, err)
		}
		res.Context.BodyReplaced = true
	}
	if a.Phase != nil && strings.TrimSpace(*a.Phase) != "" {
		phase := strings.TrimSpace(*a.Phase)
		res.Context.Phase = &Change{To: &phase}
		if prev, ok := c.doc.String("phase"); ok {
			res.Context.Phase.From = &prev
		}
		if text, err = frontmatter.Set(text, "phase", phase); err != nil {
			return "", frontmatterError(c.path, err)
		}
	}
	now := env.Now.Format("2006-01-02T15:04:05Z07:00")
	if prev, ok := c.doc.String("last-session"); ok {
		res.Context.LastSession.From = &prev
	}
	res.Context.LastSession.To = &now
	if text, err = frontmatter.Set(text, "last-session", now); err != nil {
		return "", frontmatterError(c.path, err)
	}
	return text, nil
}

// fullOnly are the parameters of mode full alone, in the order they are
// refused without it.
var fullOnly = []string{"archive_subject", "archive_body_md", "archive_aliases", "archive_extra_fm", "derive", "derived_atoms", "no_derived_because", "source_hint"}

// checkArchiveArgs refuses what the arguments alone make wrong.
func checkArchiveArgs(a *archiveArgs, full bool) error {
	if err := vault.CheckSlug("slug", a.Slug); err != nil {
		return err
	}
	if a.ContextMD != nil && strings.TrimSpace(*a.ContextMD) == "" {
		return archiveMsg.contextEmpty.Err(fault.ContextEmpty, map[string]any{"parameter": "context_md"})
	}
	if a.Phase != nil && strings.ContainsAny(*a.Phase, "\r\n\u2028\u2029") {
		return argument("phase", archiveMsg.oneLine)
	}
	for i, d := range a.ExpectDecisions {
		if fold.Alnum(d) == "" {
			return argument(fmt.Sprintf("expect_decisions[%d]", i), archiveMsg.noAlnum)
		}
	}
	if full {
		return checkFullArgs(a)
	}
	given := map[string]bool{
		"archive_subject": a.ArchiveSubject != nil, "archive_body_md": a.ArchiveBodyMD != nil,
		"archive_aliases": a.ArchiveAliases != nil, "archive_extra_fm": a.ArchiveExtraFM != nil,
		"derive": a.Derive != nil, "derived_atoms": a.DerivedAtoms != nil,
		"no_derived_because": a.NoDerivedBecause != nil, "source_hint": a.SourceHint != nil,
	}
	for _, name := range fullOnly {
		if given[name] {
			return argument(name, archiveMsg.fullOnly)
		}
	}
	return nil
}

// checkFullArgs refuses what makes a full archive's arguments wrong: its
// subject and body, aliases, atoms, and the reason for none.
func checkFullArgs(a *archiveArgs) error {
	switch {
	case a.ArchiveSubject == nil || strings.TrimSpace(*a.ArchiveSubject) == "":
		return argument("archive_subject", archiveMsg.subject)
	case strings.ContainsAny(*a.ArchiveSubject, "\r\n\u2028\u2029"):
		return argument("archive_subject", archiveMsg.subjectLine)
	case a.ArchiveBodyMD == nil || strings.TrimSpace(*a.ArchiveBodyMD) == "":
		return argument("archive_body_md", archiveMsg.body)
	}
	for i, al := range a.ArchiveAliases {
		if strings.TrimSpace(al) == "" || strings.ContainsAny(al, "\r\n") {
			return argument(fmt.Sprintf("archive_aliases[%d]", i), archiveMsg.alias)
		}
	}
	for i, at := range a.DerivedAtoms {
		if atom.Name(at) == "" {
			return argument(fmt.Sprintf("derived_atoms[%d]", i), archiveMsg.derivedName)
		}
	}
	for i, d := range a.Derive {
		if atom.FileName(d.Fact) == "" {
			return argument(fmt.Sprintf("derive[%d].fact", i), archiveMsg.factName)
		}
		if strings.TrimSpace(d.Body) == "" {
			return argument(fmt.Sprintf("derive[%d].body", i), archiveMsg.factBody)
		}
	}
	hasAtoms := len(a.Derive)+len(a.DerivedAtoms) > 0
	reason := a.NoDerivedBecause != nil && strings.TrimSpace(*a.NoDerivedBecause) != ""
	switch {
	case !hasAtoms && !reason:
		return archiveMsg.noAtoms.Err(fault.DerivedRequired, map[string]any{"parameter": "no_derived_because"})
	case hasAtoms && a.NoDerivedBecause != nil:
		return archiveMsg.reasonWithAtoms.Err(fault.DerivedRequired, map[string]any{"parameter": "no_derived_because"})
	}
	if a.ArchiveExtraFM != nil {
		if _, _, err := note.OrderedObject(a.ArchiveExtraFM); err != nil {
			return argument("archive_extra_fm", archiveMsg.notObject)
		}
	}
	return nil
}

// checkDecisions refuses with DECISIONS_LOST when a decision is not in the
// body of the resulting context (letters and digits, accents folded).
func checkDecisions(decisions []string, ctxText string) error {
	if len(decisions) == 0 {
		return nil
	}
	doc, err := frontmatter.Parse(ctxText)
	if err != nil {
		return fault.Internalf("re-reading the new context: %v", err)
	}
	body := fold.Alnum(doc.Body())
	var lost []string
	for _, d := range decisions {
		if !strings.Contains(body, fold.Alnum(d)) {
			lost = append(lost, d)
		}
	}
	if len(lost) == 0 {
		return nil
	}
	q := make([]string, len(lost))
	for i, l := range lost {
		q[i] = fmt.Sprintf("%q", l)
	}
	return archiveMsg.lost.Err(fault.DecisionsLost, map[string]any{"missing": lost}, len(lost), strings.Join(q, ", "))
}

// archiveReads reads, in one round, what a full archive needs: the
// listing of archives/ and history.md, and every note's name when the
// call derives atoms or its texts hold wikilinks (nil otherwise).
func archiveReads(env *Env, a *archiveArgs, c *contextFile) ([]string, *wikilink.Names, error) {
	v := env.View
	ask := vault.Need{Files: []string{c.project.History()}, Dirs: []string{c.project.Dir + "/archives"}}
	needNames := len(a.Derive) > 0 || wikilink.Has(*a.ArchiveBodyMD) || a.ContextMD != nil && wikilink.Has(*a.ContextMD)
	if needNames {
		ask.Trees = []vault.Tree{{Root: "."}}
	}
	if err := v.Ask(ask); err != nil {
		return nil, nil, err
	}
	var names *wikilink.Names
	if needNames {
		files, err := v.Walk(".")
		if err != nil {
			return nil, nil, err
		}
		n := wikilink.NamesOf(files)
		names = &n
	}
	entries, err := v.List(c.project.Dir + "/archives")
	if err != nil && !errors.Is(err, vault.ErrNotExist) {
		return nil, nil, err
	}
	return entries, names, nil
}

// newAtom is an atom a full archive creates.
type newAtom struct{ path, name, text string }

// archiveFull writes, as one plan, the archive note (named by
// history.Stem), the atoms it derives, its history line, and the context
// (ctxText). A retry of the newest archive writes nothing
// (alreadyArchived); the atoms are checked first, so a refusal writes
// nothing.
func archiveFull(env *Env, a *archiveArgs, c *contextFile, res *ArchiveResult, ctxText, repoRoot string) (any, plan.Plan, error) {
	entries, names, err := archiveReads(env, a, c)
	if err != nil {
		return nil, nil, err
	}
	if done, err := alreadyArchived(env, a, c, res, entries, repoRoot); done || err != nil {
		if err != nil {
			return nil, nil, err
		}
		return res, nil, nil
	}
	date, hhmm := env.Now.Format("2006-01-02"), env.Now.Format("15h04")
	subject := strings.TrimSpace(*a.ArchiveSubject)
	stem := history.Stem(date, hhmm, c.project.Slug, subject, entries)
	atoms, inCall, err := deriveAtoms(a, names, date, stem)
	if err != nil {
		return nil, nil, err
	}
	links := archiveLinks(a, atoms)
	archiveText, err := archiveNote(env, a, c.project.Slug, subject, links, res, repoRoot)
	if err != nil {
		return nil, nil, err
	}
	line := history.Line(date, hhmm, subject, stem+".md")
	histOp, err := historyInsertOp(env, c.project, line)
	if err != nil {
		return nil, nil, err
	}
	if err := warnLinks(env, res, texts(a), names, func(name string) bool { _, ok := inCall[strings.ToLower(name)]; return ok }); err != nil {
		return nil, nil, err
	}
	archivePath := c.project.Dir + "/archives/" + stem + ".md"
	p := plan.Plan{plan.WriteOp(archivePath, plan.Absent, archiveText)}
	for _, at := range atoms {
		p = append(p, plan.WriteOp(at.path, plan.Absent, at.text))
		res.AtomsCreated = append(res.AtomsCreated, at.path)
	}
	p = append(p, histOp, plan.WriteOp(c.path, c.sha, ctxText))
	res.Archive, res.HistoryLine, res.DerivedAtoms = &archivePath, &line, links
	res.SummaryMD = env.Say(archiveMsg.archived, c.project.Slug, stem, len(atoms))
	return res, p, nil
}

// deriveAtoms renders the atoms of derive, each a note in its kind's zone
// whose source is the archive stem. A name used twice in the call, or
// already by a note of the vault, is ATOM_EXISTS. It also returns the
// index of each name in derive, by lowercase name.
func deriveAtoms(a *archiveArgs, names *wikilink.Names, date, stem string) ([]newAtom, map[string]int, error) {
	var atoms []newAtom
	inCall := map[string]int{}
	for i, d := range a.Derive {
		name := atom.FileName(d.Fact)
		key := strings.ToLower(name)
		if j, twice := inCall[key]; twice {
			return nil, nil, atomExists(name, fmt.Sprintf("derive[%d]", j))
		}
		inCall[key] = i
		if p, ok := names.Taken(name); ok {
			return nil, nil, atomExists(name, p)
		}
		z := atom.Zones[d.Kind]
		f := note.Fields{
			{Key: "kind", Node: note.Str(d.Kind)}, {Key: "zone", Node: note.Str(z.Zone)}, {Key: "created", Node: note.Stamp(date)},
			{Key: "source", Node: note.Str("[[" + stem + "]]")},
		}
		text, err := f.Render(d.Body)
		if err != nil {
			return nil, nil, fault.Internalf("writing atom %s: %v", name, err)
		}
		atoms = append(atoms, newAtom{z.Dir + "/" + name + ".md", name, text})
	}
	return atoms, inCall, nil
}

// archiveLinks are the archive's derived_atoms: the existing atoms named,
// then the new ones, as [[name]], each once (case aside).
func archiveLinks(a *archiveArgs, atoms []newAtom) []string {
	links := []string{}
	seen := map[string]bool{}
	add := func(name string) {
		if !seen[strings.ToLower(name)] {
			seen[strings.ToLower(name)] = true
			links = append(links, "[["+name+"]]")
		}
	}
	for _, at := range a.DerivedAtoms {
		add(atom.Name(at))
	}
	for _, at := range atoms {
		add(at.name)
	}
	return links
}

// archiveNote renders the archive note: its frontmatter (archive_extra_fm
// merged, archeo-git keys checked) and its body, <repo>/… sigils
// rewritten.
func archiveNote(env *Env, a *archiveArgs, slug, subject string, links []string, res *ArchiveResult, repoRoot string) (string, error) {
	body := *a.ArchiveBodyMD
	if repoRoot != "" {
		var n int
		body, n = relocate.Rewrite(body, repoRoot)
		res.Sigils += n
	}
	date := env.Now.Format("2006-01-02")
	f := note.Fields{
		{Key: "slug", Node: note.Str(slug)}, {Key: "kind", Node: note.Str("archive")}, {Key: "zone", Node: note.Str("episodes")},
		{Key: "date", Node: note.Stamp(date)}, {Key: "time", Node: note.Quoted(env.Now.Format("15:04"))}, {Key: "subject", Node: note.Str(subject)},
		{Key: "display", Node: note.Str(slug + " — " + date + " " + subject)},
		{Key: "tags", Node: note.List([]string{"kind/archive", "zone/episodes"})},
	}
	if len(a.ArchiveAliases) > 0 {
		var al []string
		for _, x := range a.ArchiveAliases {
			al = append(al, strings.TrimSpace(x))
		}
		f = append(f, note.Field{Key: "aliases", Node: note.List(al)})
	}
	if len(links) > 0 {
		f = append(f, note.Field{Key: "derived_atoms", Node: note.List(links)})
	} else {
		f = append(f, note.Field{Key: "no_derived_because", Node: note.Str(strings.TrimSpace(*a.NoDerivedBecause))})
	}
	if a.ArchiveExtraFM != nil {
		if err := mergeExtra(&f, a.ArchiveExtraFM); err != nil {
			return "", err
		}
	}
	if a.SourceHint != nil && *a.SourceHint == "archeo-git" {
		if err := checkArcheo(f); err != nil {
			return "", err
		}
	}
	text, err := f.Render(body)
	if err != nil {
		return "", fault.Internalf("writing the archive: %v", err)
	}
	return text, nil
}

// historyInsertOp puts line before the first entry of p's history.md (a
// new one gets a title).
func historyInsertOp(env *Env, p vault.Project, line string) (plan.Op, error) {
	hist, err := env.View.ReadText(p.History())
	if err != nil {
		return plan.Op{}, err
	}
	if !hist.Exists {
		hist.Text = history.Title(p.Slug)
	}
	return plan.WriteOp(p.History(), hist.Expect, history.Insert(hist.Text, line)), nil
}

// alreadyArchived reports whether this full archive is a retry of the
// newest archive of the project, and then fills res with that archive and
// says so. A retry is a call with the same subject and the same body as
// the newest archive file (see newestArchives; any of several made in the
// same minute), made less than 24 hours from the minute its name dates it
// (in the vault's zone, either way, so a host whose clock lags is
// covered):
//
//   - same subject: the archive's frontmatter `subject` is the one this call
//     would write (archive_subject, or archive_extra_fm's subject); and its
//     file name is the one this subject gives, up to the -2, -3… suffix
//     (so only a likely retry costs a read);
//   - same body: the archive's body is the one this call would write,
//     <repo>/… sigils rewritten, line endings aside.
//
// Nothing is written then, not even context.md: the archive is the
// identity of a session, and its first call already set the context. A
// context_md, phase or atom list that differs from what the vault holds
// now is not applied (it would overwrite what changed since) but named in
// a warning, so the caller can send it as an incremental archive.
func alreadyArchived(env *Env, a *archiveArgs, c *contextFile, res *ArchiveResult, listing []string, repoRoot string) (bool, error) {
	subject := strings.TrimSpace(*a.ArchiveSubject)
	candidates := retryCandidates(env.Now, c.project.Slug+"-"+fold.Slug(subject, 60, "session"), listing)
	if len(candidates) == 0 {
		return false, nil
	}
	paths := archivePaths(c.project, candidates)
	if err := env.View.Ask(vault.Need{Files: paths}); err != nil {
		return false, err
	}
	// What this call would write.
	sf := note.Fields{{Key: "subject", Node: note.Str(subject)}}
	if a.ArchiveExtraFM != nil {
		_ = mergeExtra(&sf, a.ArchiveExtraFM)
	}
	wantSubject := sf[sf.Index("subject")].Node.Value
	body := *a.ArchiveBodyMD
	if repoRoot != "" {
		body, _ = relocate.Rewrite(body, repoRoot)
	}
	if !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	body = lf(body)
	for i, p := range paths {
		found, err := env.View.Read(p)
		if err != nil {
			return false, err
		}
		if !found.Exists || found.NotUTF8 {
			continue // not this call's archive
		}
		doc, err := frontmatter.Parse(found.Text)
		if err != nil {
			continue
		}
		if got, ok := doc.String("subject"); !ok || got != wantSubject || lf(doc.Body()) != body {
			continue
		}
		fillAlreadyArchived(env, a, c, res, p, candidates[i], doc)
		return true, nil
	}
	return false, nil
}

// retryCandidates are the newest archives of listing that a call at now
// whose name would end in rest (slug and subject) may retry: named by that
// rest (up to a -2, -3… suffix), less than 24 hours from now either way.
func retryCandidates(now time.Time, rest string, listing []string) []string {
	var out []string
	for _, name := range history.Newest(listing) {
		stamp, ok := worklog.ParseName(name)
		if !ok || stamp.Time == "" {
			continue
		}
		r := strings.TrimSuffix(stamp.Rest, ".md")
		if n, ok := strings.CutPrefix(r, rest+"-"); r != rest && (!ok || n == "" || strings.Trim(n, "0123456789") != "") {
			continue
		}
		at, err := time.ParseInLocation("2006-01-02 15:04", stamp.Date.String()+" "+stamp.Time, now.Location())
		if d := now.Sub(at); err != nil || d >= 24*time.Hour || d <= -24*time.Hour {
			continue
		}
		out = append(out, name)
	}
	return out
}

// fillAlreadyArchived makes res the answer of a retry: the existing
// archive, its history line, its atoms, nothing changed, and a warning
// naming what the retry asks that the vault does not hold now.
func fillAlreadyArchived(env *Env, a *archiveArgs, c *contextFile, res *ArchiveResult, archivePath, name string, doc *frontmatter.Doc) {
	res.AlreadyArchived = true
	res.Archive = &archivePath
	res.Sigils = 0
	res.Context = ContextChanges{Path: c.path}
	if prev, ok := c.doc.String("last-session"); ok {
		res.Context.LastSession = Change{From: &prev, To: &prev}
	}
	if hist, err := env.View.Read(c.project.History()); err == nil {
		if e, ok := history.Find(hist.Text, name); ok {
			res.HistoryLine = &e.Line
		}
	}
	if res.HistoryLine == nil {
		res.Warnings = append(res.Warnings, env.Say(archiveMsg.noHistLine, c.project.History(), archivePath))
	}
	if atoms, ok := doc.Strings("derived_atoms"); ok {
		res.DerivedAtoms = atoms
	}
	if differs := retryDiffers(a, c, res.DerivedAtoms); len(differs) > 0 {
		res.Warnings = append(res.Warnings, env.Say(archiveMsg.differ, strings.Join(differs, ", ")))
	}
	hhmm := strings.Replace(name[11:16], "H", "h", 1)
	res.SummaryMD = env.Say(archiveMsg.already, c.project.Slug, strings.TrimSuffix(name, ".md"), hhmm)
}

// retryDiffers names what a retry asks that the vault does not hold now
// (have: the archive's derived atoms): not applied.
func retryDiffers(a *archiveArgs, c *contextFile, have []string) []string {
	var differs []string
	if a.ContextMD != nil {
		body := *a.ContextMD
		if root, ok := c.doc.String("repo_path"); ok && root != "" {
			body, _ = relocate.Rewrite(body, root)
		}
		if t, err := frontmatter.SetBody(c.text, body); err != nil || t != c.text {
			differs = append(differs, "context_md")
		}
	}
	if a.Phase != nil && strings.TrimSpace(*a.Phase) != "" {
		if prev, ok := c.doc.String("phase"); !ok || prev != strings.TrimSpace(*a.Phase) {
			differs = append(differs, "phase")
		}
	}
	var want, got []string
	for _, at := range a.DerivedAtoms {
		want = append(want, strings.ToLower(atom.Name(at)))
	}
	for _, d := range a.Derive {
		want = append(want, strings.ToLower(atom.FileName(d.Fact)))
	}
	for _, at := range have {
		got = append(got, strings.ToLower(atom.Name(at)))
	}
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		differs = append(differs, "derive/derived_atoms")
	}
	return differs
}

// lf returns s with every line ending as "\n".
func lf(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

func texts(a *archiveArgs) []string {
	out := []string{*a.ArchiveBodyMD}
	if a.ContextMD != nil {
		out = append(out, *a.ContextMD)
	}
	for _, d := range a.Derive {
		out = append(out, d.Body)
	}
	return out
}

func atomExists(name, where string) error {
	return archiveMsg.atomExists.Err(fault.AtomExists, map[string]any{"atom": name, "taken_by": where}, name, where)
}

// mergeExtra merges archive_extra_fm: tags are added to the archive's own
// (no duplicates, order kept); any other key replaces the generated one in
// place, or comes last when new.
func mergeExtra(f *note.Fields, raw json.RawMessage) error {
	keys, vals, err := note.OrderedObject(raw)
	if err != nil {
		return argument("archive_extra_fm", archiveMsg.notObject)
	}
	for _, k := range keys {
		v := vals[k]
		if k == "tags" {
			tags := []string{"kind/archive", "zone/episodes"}
			var extra []any
			switch x := v.(type) {
			case []any:
				extra = x
			case nil:
			default:
				extra = []any{x}
			}
			for _, t := range extra {
				s := fmt.Sprint(t)
				if !containsString(tags, s) {
					tags = append(tags, s)
				}
			}
			f.Set("tags", note.List(tags))
			continue
		}
		n, err := note.Value(v)
		if err != nil {
			return argument("archive_extra_fm."+k, archiveMsg.notYAML, err.Error())
		}
		f.Set(k, n)
	}
	return nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkArcheo refuses an archeo-git archive whose frontmatter lacks a key
// (absent or null) or whose source is not archeo-git.
func checkArcheo(f note.Fields) error {
	var missing []string
	for _, k := range ArcheoKeys {
		i := f.Index(k)
		if i < 0 || f[i].Node.Tag == "!!null" {
			missing = append(missing, k)
			continue
		}
		if k == "source" && (f[i].Node.Kind != 8 /* yaml.ScalarNode */ || f[i].Node.Value != "archeo-git") {
			missing = append(missing, "source (must be archeo-git)")
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return archiveMsg.archeo.Err(fault.ArcheoInvalid, map[string]any{"missing": missing}, strings.Join(missing, ", "))
}

// warnLinks adds a warning for each wikilink of texts that resolves to no
// note of the vault (names; read now when nil) nor to an atom this call
// creates (creating; nil for none).
func warnLinks(env *Env, res *ArchiveResult, texts []string, names *wikilink.Names, creating func(string) bool) error {
	targets := wikilink.Targets(texts)
	if len(targets) == 0 {
		return nil
	}
	if names == nil {
		files, err := env.View.Walk(".")
		if err != nil {
			return err
		}
		n := wikilink.NamesOf(files)
		names = &n
	}
	for _, t := range wikilink.Unresolved(targets, *names, creating) {
		res.Warnings = append(res.Warnings, env.Say(archiveMsg.deadLink, t))
	}
	return nil
}
