package tools

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/vault"
)

// listSpec is mem_list in the catalogue.
var listSpec = tool[ListResult](catalogText("list.yaml"), "mem_list", "list", reads, nil, []catalog.Param{
	{Name: "include_archived", Type: catalog.Boolean, Default: true},
	{Name: "archived_only", Type: catalog.Boolean, Default: false},
})

// listArgs is listTool's arguments.
type listArgs struct {
	IncludeArchived bool `json:"include_archived"`
	ArchivedOnly    bool `json:"archived_only"`
}

// listEntry is one project or domain of mem_list.
type listEntry struct {
	Slug        string  `json:"slug"`
	Kind        string  `json:"kind"`
	Path        string  `json:"path"`
	Archived    bool    `json:"archived"`
	Phase       *string `json:"phase"`
	Summary     *string `json:"summary"`
	LastSession *string `json:"last_session"`
	Problem     *string `json:"problem,omitempty"`
}

// ListResult is mem_list's result.
type ListResult struct {
	Projects []listEntry `json:"projects"`
	Common
}

// listText is list.yaml: mem_list's catalogue texts and messages, parsed on first use.
var listText = loadText[struct {
	NoContext, Archived, None, NoArchived, NoActive fault.Msg
}]("list.yaml")

// listTool is mem_list: every project and domain, sorted by kind then slug.
// A folder whose context.md is missing or unreadable is listed with the
// problem instead of failing the whole list. archived_only (a parameter
// the memory-kit's agents send) lists the archived projects alone,
// whatever include_archived says.
func listTool(env *Env, a listArgs) (any, plan.Plan, error) {
	kinds := []string{vault.KindProject, vault.KindDomain}
	switch {
	case a.ArchivedOnly:
		kinds = []string{vault.KindArchived}
	case a.IncludeArchived:
		kinds = append(kinds, vault.KindArchived)
	}
	found, err := vault.Folders(env.View, nil, kinds...)
	if err != nil {
		return nil, nil, err
	}
	var files []string
	for _, p := range found {
		files = append(files, p.Context())
	}
	if err := env.View.Ask(vault.Need{Files: files}); err != nil {
		return nil, nil, err
	}
	res := ListResult{Projects: []listEntry{}, Common: common()}
	for _, p := range found {
		e, err := readListEntry(env, p)
		if err != nil {
			return nil, nil, err
		}
		res.Projects = append(res.Projects, e)
	}
	sort.SliceStable(res.Projects, func(i, j int) bool {
		a, b := res.Projects[i], res.Projects[j]
		if a.Archived != b.Archived {
			return !a.Archived
		}
		return a.Slug < b.Slug
	})
	res.SummaryMD = listSummary(env, res.Projects)
	if len(res.Projects) == 0 {
		if err := emptyList(env, a, len(kinds) == 3, &res); err != nil {
			return nil, nil, err
		}
	}
	return res, nil, nil
}

// emptyList words an empty list: on a vault with no project, domain nor
// archived project at all, the summary and a warning name
// mem_init_project (the one call that starts a vault's memory); when the
// arguments left the vault's folders out, the summary says which. all
// says the list looked at every kind already; otherwise the other kinds
// are listed, in one more round, only now that the list is empty.
func emptyList(env *Env, a listArgs, all bool, res *ListResult) error {
	none := all
	if !all {
		found, err := vault.Folders(env.View, nil)
		if err != nil {
			return err
		}
		none = len(found) == 0
	}
	m := listText().Msg
	switch {
	case none:
		res.SummaryMD = env.say(m.None)
		res.Warnings = append(res.Warnings, env.say(vault.NoProjectYet))
	case a.ArchivedOnly:
		res.SummaryMD = env.say(m.NoArchived)
	default:
		res.SummaryMD = env.say(m.NoActive)
	}
	return nil
}

// readListEntry reads one folder's context.md for the list.
func readListEntry(env *Env, p vault.Project) (listEntry, error) {
	e := listEntry{Slug: p.Slug, Kind: p.Type(), Path: p.Context(), Archived: p.Archived()}
	doc, problem, err := contextFields(env, p, listText().Msg.NoContext)
	if doc == nil {
		e.Problem = problem
		return e, err
	}
	get := func(k string) *string {
		if s, ok := doc.String(k); ok {
			return &s
		}
		return nil
	}
	e.Phase, e.Summary, e.LastSession = get("phase"), get("summary"), get("last-session")
	return e, nil
}

// listSummary is the list as Markdown, one line a folder.
func listSummary(env *Env, entries []listEntry) string {
	var md strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&md, "- **%s** (%s", e.Slug, e.Kind)
		if e.Archived {
			md.WriteString(env.say(listText().Msg.Archived))
		}
		if e.Phase != nil && !(e.Archived && *e.Phase == "archived") {
			fmt.Fprintf(&md, ", %s", *e.Phase)
		}
		md.WriteString(")")
		switch {
		case e.Problem != nil:
			fmt.Fprintf(&md, " — %s", *e.Problem)
		case e.Summary != nil:
			fmt.Fprintf(&md, ": %s", *e.Summary)
		}
		md.WriteString("\n")
	}
	return strings.TrimSuffix(md.String(), "\n")
}
