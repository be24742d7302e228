package tools

import (
	"fmt"
	"strings"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/vault"
)

// readHistorySpec is mem_read_history in the catalogue.
var readHistorySpec = tool[historyResult](catalogText("read_history.yaml"), "mem_read_history", "history slug", reads, readsArchives(), []catalog.Param{
	slugParam,
	{Name: "offset", Type: catalog.Integer, Default: 0, Minimum: floatp(0)},
	{Name: "limit", Type: catalog.Integer, Default: 20, Minimum: floatp(1), Maximum: floatp(200)},
})

// readHistoryArgs is readHistoryTool's arguments.
type readHistoryArgs struct {
	slugArg
	Offset int `json:"offset"`
	Limit  int `json:"limit"`
}

// historyEntry is one entry of mem_read_history.
type historyEntry struct {
	Index   int     `json:"index"`
	Date    *string `json:"date"`
	Time    *string `json:"time"`
	Week    *string `json:"week"`
	Subject string  `json:"subject"`
	Archive string  `json:"archive"`
	Exists  bool    `json:"exists"`
	Line    string  `json:"line"`
}

// historyResult is mem_read_history's result.
type historyResult struct {
	Slug     string         `json:"slug"`
	Kind     string         `json:"kind"`
	Archived bool           `json:"archived"`
	Path     string         `json:"path"`
	Entries  []historyEntry `json:"entries"`
	Total    int            `json:"total"`
	Offset   int            `json:"offset"`
	Limit    int            `json:"limit"`
	Common
}

// readHistoryText is read_history.yaml: mem_read_history's messages,
// parsed on first use.
var readHistoryText = loadText[struct {
	NoHistory, None, Empty, Page, Gone fault.Msg
}]("read_history.yaml")

// readHistoryTool is mem_read_history: the entries of history.md (list
// items linking into archives/), in its order, a page of them. An entry
// is read from its line (history.Parse): date, time (or the ISO week of a
// worklog), subject; archive is the vault path its link names and exists
// whether that file is in archives/. An entry whose link leaves archives/
// ("archives/../x") is no entry. Index is the entry's position in the
// whole list: mem_read_archive's index of the same archive. No
// history.md is an empty history (with a warning), not an error; an
// offset past the end is an empty page.
func readHistoryTool(env *Env, ar *archives, a *readHistoryArgs) (any, error) {
	p, refs, hist := ar.p, ar.refs, ar.hist
	res := historyResult{Slug: p.Slug, Kind: p.Type(), Archived: p.Archived(), Path: p.History(),
		Entries: []historyEntry{}, Offset: a.Offset, Limit: a.Limit, Common: common()}
	if !hist.Exists {
		res.Warnings = append(res.Warnings, env.say(readHistoryText().Msg.NoHistory, p.Slug, p.History()))
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
		res.Entries = append(res.Entries, historyEntry{Index: i, Date: optional(e.Date), Time: optional(e.Time), Week: optional(e.Week),
			Subject: e.Subject, Archive: r.Path, Exists: r.Exists, Line: e.Line})
	}
	res.SummaryMD = historySummary(env, p, res)
	return res, nil
}

// historySummary is the page as a Markdown list.
func historySummary(env *Env, p vault.Project, res historyResult) string {
	if res.Total == 0 {
		return env.say(readHistoryText().Msg.None, p.Slug)
	}
	if len(res.Entries) == 0 {
		return env.say(readHistoryText().Msg.Empty, res.Offset, p.Slug, res.Total)
	}
	var b strings.Builder
	b.WriteString(env.say(readHistoryText().Msg.Page, p.Slug, res.Offset+1, res.Offset+len(res.Entries), res.Total))
	b.WriteString("\n\n")
	for _, e := range res.Entries {
		when := strings.TrimSpace(deref(e.Date) + " " + deref(e.Time) + deref(e.Week))
		gone := ""
		if !e.Exists {
			gone = env.say(readHistoryText().Msg.Gone)
		}
		fmt.Fprintf(&b, "%d. %s — %s `%s`%s\n", e.Index, when, e.Subject, e.Archive, gone)
	}
	return b.String()
}
