package tools

import (
	"fmt"
	"strings"

	"kessho/core/catalog"
	"kessho/core/fault"
	"kessho/core/vault"
)

// readHistorySpec is mem_read_history in the catalogue.
var readHistorySpec = &catalog.Tool{
	Name:  "mem_read_history",
	Title: catalog.Text{En: "Read history", Fr: "Lire l'historique"},
	Description: catalog.Text{
		En: "Lists a project's or domain's archived sessions from its history.md, newest first, one page at a time: each entry's date, time, subject and archive path (pass that path, or the entry's position, to mem_read_archive). Read-only.",
		Fr: "Liste les sessions archivées d'un projet ou domaine d'après son history.md, la plus récente en premier, page par page : date, heure, sujet et chemin de l'archive de chaque entrée (passez ce chemin, ou le rang de l'entrée, à mem_read_archive). Lecture seule.",
	},
	Params: []catalog.Param{
		slugParam,
		{Name: "offset", Type: catalog.Integer, Default: 0, Minimum: floatp(0),
			Description: catalog.Text{
				En: "How many entries to skip from the newest (0, the default, starts at the newest). An entry's position in the whole list is its index for mem_read_archive.",
				Fr: "Combien d'entrées sauter depuis la plus récente (0, par défaut, commence à la plus récente). Le rang d'une entrée dans toute la liste est son index pour mem_read_archive.",
			}},
		{Name: "limit", Type: catalog.Integer, Default: 20, Minimum: floatp(1), Maximum: floatp(200),
			Description: catalog.Text{
				En: "How many entries to return, 1 to 200 (default 20).",
				Fr: "Combien d'entrées renvoyer, de 1 à 200 (20 par défaut).",
			}},
	},
	Errors: readErrors,
	CLI:    catalog.CLI{Command: "history", Args: []string{"slug"}},
}

// HistoryEntry is one entry of mem_read_history.
type HistoryEntry struct {
	Index   int     `json:"index"`
	Date    *string `json:"date"`
	Time    *string `json:"time"`
	Week    *string `json:"week"`
	Subject string  `json:"subject"`
	Archive string  `json:"archive"`
	Exists  bool    `json:"exists"`
	Line    string  `json:"line"`
}

// HistoryResult is mem_read_history's result.
type HistoryResult struct {
	Slug     string         `json:"slug"`
	Kind     string         `json:"kind"`
	Archived bool           `json:"archived"`
	Path     string         `json:"path"`
	Entries  []HistoryEntry `json:"entries"`
	Total    int            `json:"total"`
	Offset   int            `json:"offset"`
	Limit    int            `json:"limit"`
	Common
}

// readHistoryMsg is mem_read_history's messages.
var readHistoryMsg = struct{ noHistory, none, empty, page, gone fault.Msg }{
	noHistory: fault.Msg{En: "%s has no history.md yet (%s): no archived session", Fr: "%s n'a pas encore de history.md (%s) : aucune session archivée"},
	none:      fault.Msg{En: "No archived session for **%s** yet.", Fr: "Aucune session archivée pour **%s** pour l'instant."},
	empty:     fault.Msg{En: "No entry from %d: history.md of **%s** holds %d.", Fr: "Aucune entrée à partir de %d : history.md de **%s** en contient %d."},
	page:      fault.Msg{En: "History of **%s**: entries %d–%d of %d.", Fr: "Historique de **%s** : entrées %d à %d sur %d."},
	gone:      fault.Msg{En: " (file gone)", Fr: " (fichier absent)"},
}

// readHistoryTool is mem_read_history: the entries of history.md (list
// items linking into archives/), in its order, a page of them. An entry
// is read from its line (history.Parse): date, time (or the ISO week of a
// worklog), subject; archive is the vault path its link names and exists
// whether that file is in archives/. An entry whose link leaves archives/
// ("archives/../x") is no entry. Index is the entry's position in the
// whole list: mem_read_archive's index of the same archive. No
// history.md is an empty history (with a warning), not an error; an
// offset past the end is an empty page.
func readHistoryTool(env *Env, ar *archives, a *struct {
	slugArg
	Offset int `json:"offset"`
	Limit  int `json:"limit"`
}) (any, error) {
	p, refs, hist := ar.p, ar.refs, ar.hist
	res := HistoryResult{Slug: p.Slug, Kind: p.Type(), Archived: p.Archived(), Path: p.History(),
		Entries: []HistoryEntry{}, Offset: a.Offset, Limit: a.Limit, Common: common()}
	if !hist.Exists {
		res.Warnings = append(res.Warnings, env.Say(readHistoryMsg.noHistory, p.Slug, p.History()))
	}
	for i, r := range refs {
		if r.Entry == nil {
			break // the files no entry names come after every entry
		}
		res.Total++
		if i < a.Offset || len(res.Entries) == a.Limit {
			continue
		}
		e := r.Entry
		res.Entries = append(res.Entries, HistoryEntry{Index: i, Date: optional(e.Date), Time: optional(e.Time), Week: optional(e.Week),
			Subject: e.Subject, Archive: r.Path, Exists: r.Exists, Line: e.Line})
	}
	res.SummaryMD = historySummary(env, p, res)
	return res, nil
}

// historySummary is the page as a Markdown list.
func historySummary(env *Env, p vault.Project, res HistoryResult) string {
	if res.Total == 0 {
		return env.Say(readHistoryMsg.none, p.Slug)
	}
	if len(res.Entries) == 0 {
		return env.Say(readHistoryMsg.empty, res.Offset, p.Slug, res.Total)
	}
	var b strings.Builder
	b.WriteString(env.Say(readHistoryMsg.page, p.Slug, res.Offset+1, res.Offset+len(res.Entries), res.Total))
	b.WriteString("\n\n")
	for _, e := range res.Entries {
		when := strings.TrimSpace(deref(e.Date) + " " + deref(e.Time) + deref(e.Week))
		gone := ""
		if !e.Exists {
			gone = env.Say(readHistoryMsg.gone)
		}
		fmt.Fprintf(&b, "%d. %s — %s `%s`%s\n", e.Index, when, e.Subject, e.Archive, gone)
	}
	return b.String()
}

// optional is s, or nil for "".
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
