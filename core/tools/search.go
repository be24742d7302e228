package tools

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/search"
	"github.com/kessho/kessho/core/vault"
)

// searchSpec is mem_search in the catalogue. Its slug is a filter, not
// the shared slugParam: optional, described in search.yaml.
//
// The memory-kit's procedures send case_insensitive, and name a zone by
// its folder (kitAccepts, zoneFolders): the search always folds case, so
// true changes nothing and false is answered with a warning that says so.
var searchSpec = kitAccepts(tool[searchResult](catalogText("search.yaml"), search.Tool, "search query", reads, nil, []catalog.Param{
	{Name: "query", Type: catalog.String, Required: true, MinLength: intp(1), MaxLength: intp(1000)},
	{Name: "zone", Type: catalog.String, Enum: []string{"episodes", "knowledge", "principles", "goals"}, Synonyms: zoneFolders},
	{Name: "slug", Type: catalog.String},
	{Name: "kind", Type: catalog.String, Enum: []string{"archive", "atom", "context", "history"}},
	{Name: "include_archived", Type: catalog.Boolean, Default: false},
	{Name: "since", Type: catalog.String},
	{Name: "until", Type: catalog.String},
	{Name: "limit", Type: catalog.Integer, Default: 10, Minimum: floatp(1), Maximum: floatp(100)},
	{Name: "prefix", Type: catalog.Boolean},
	{Name: "min_coverage", Type: catalog.Number, Minimum: floatp(0), Maximum: floatp(1)},
}), catalog.Param{Name: "case_insensitive", Type: catalog.Boolean})

// The confidence signal (search.Ranking.Coverage): an answer is confident
// when its best hit covers at least confidentFrom of the query's weight,
// and a hit covering less than weakBelow is weak. Tuned on the dev half
// of testdata/recall (RATIONALE.md, "Why does search reach across French and English…").
const (
	confidentFrom = 0.26
	weakBelow     = confidentFrom
)

// searchHit is one note mem_search found.
type searchHit struct {
	Path  string `json:"path"`
	Title string `json:"title"` // display, else the file's name
	Kind  string `json:"kind"`
	// Zone, Slug and Date are null when the note has none.
	Zone       *string  `json:"zone"`
	Slug       *string  `json:"slug"`
	Date       *string  `json:"date"`
	Score      float64  `json:"score"` // not a probability: compare within one answer
	Line       string   `json:"line"`
	LineNumber int      `json:"line_number"`
	Matched    []string `json:"matched"`
	// Terms are the terms (folded stems) the line holds, of the query's or
	// their alternatives; Marks, where: [start, end) in UTF-16 code units
	// of Line (highlight.go); absent when the line holds none. Not in the
	// model's view.
	Terms []string `json:"terms,omitempty"`
	Marks [][2]int `json:"marks,omitempty"`
	// Weak: the note covers less than weakBelow of the query's weight.
	Weak bool `json:"weak,omitempty"`
}

// searchResult is mem_search's result.
type searchResult struct {
	Hits       []searchHit `json:"hits"`
	Total      int         `json:"total"`
	QueryTerms []string    `json:"query_terms"`
	// Coverage is the share of the query's weight the best hit matches
	// (0 without hits); Confident: at least confidentFrom. Not confident
	// reads as "probably not in memory".
	Coverage  float64 `json:"coverage"`
	Confident bool    `json:"confident"`
	Common
}

// searchText is search.yaml: mem_search's messages, parsed on first use.
var searchText = loadText[struct {
	NoWord, BadDate, Order, UnknownSlug, Near, None, NoneCovers, Common, Hit, Folded fault.Msg
}]("search.yaml")

// searchArgs is searchTool's arguments.
type searchArgs struct {
	Query           string `json:"query"`
	Zone            string `json:"zone"`
	Slug            string `json:"slug"`
	Kind            string `json:"kind"`
	IncludeArchived bool   `json:"include_archived"`
	Since           string `json:"since"`
	Until           string `json:"until"`
	Limit           int    `json:"limit"`
	// Prefix: the last word also matches the terms it begins (typing).
	Prefix bool `json:"prefix"`
	// MinCoverage: the hits covering less of the query's weight
	// (search.Ranking.Coverage) are left out, of the total too.
	MinCoverage float64 `json:"min_coverage"`
	// CaseInsensitive is the memory-kit's: nil when not sent.
	CaseInsensitive *bool `json:"case_insensitive"`
}

// searchTool is mem_search: check the arguments, bring the index up to
// date with the vault (reading only the notes that changed), rank, then
// read the hits to show each one's best line.
func searchTool(env *Env, a searchArgs) (any, plan.Plan, error) {
	if err := checkSearch(a); err != nil {
		return nil, nil, err
	}
	warm, unlock := env.holdWarm()
	defer unlock()
	idx, err := warm.upToDate(env)
	if err != nil {
		return nil, nil, err
	}
	if a.Slug != "" {
		if err := knownSlug(idx, a.Slug); err != nil {
			return nil, nil, err
		}
	}
	terms := env.stems().Terms(a.Query)
	top, total, r := warm.ranked(idx, a, terms, env.stems().Alternatives(a.Query))
	match := r.Matcher(idx)
	res := searchResult{Hits: []searchHit{}, Total: total, QueryTerms: unique(terms), Common: common()}
	var need vault.Need
	for _, h := range top {
		if h.Cut {
			need.Heads = append(need.Heads, h.Path) // its best line is in its head
		} else {
			need.Files = append(need.Files, h.Path)
		}
	}
	if err := env.View.Ask(need); err != nil {
		return nil, nil, err
	}
	for _, h := range top {
		hit := answerHit(env, h, match)
		hit.Terms, hit.Marks = marks(match, hit.Line)
		cov := r.Coverage(idx, h)
		hit.Weak = cov < weakBelow
		if len(res.Hits) == 0 {
			res.Coverage, res.Confident = cov, cov >= confidentFrom
		}
		res.Hits = append(res.Hits, hit)
	}
	if len(terms) == 0 {
		res.Warnings = append(res.Warnings, env.say(searchText().Msg.Common))
	}
	if a.CaseInsensitive != nil && !*a.CaseInsensitive {
		res.Warnings = append(res.Warnings, env.say(searchText().Msg.Folded))
	}
	res.Warnings = append(res.Warnings, indexWarnings(env, idx)...)
	res.SummaryMD = searchSummary(env, a, res.Hits)
	warm.settle(env, idx)
	return res, nil, nil
}

// checkSearch refuses a query without a word and dates that are not
// dates or out of order.
func checkSearch(a searchArgs) error {
	words := 0
	search.Words(a.Query, func(string) { words++ })
	if words == 0 {
		return argument("query", searchText().Msg.NoWord)
	}
	for _, d := range []struct{ name, v string }{{"since", a.Since}, {"until", a.Until}} {
		if _, err := time.Parse("2006-01-02", d.v); d.v != "" && err != nil {
			return argument(d.name, searchText().Msg.BadDate, d.v)
		}
	}
	if a.Since != "" && a.Until != "" && a.Since > a.Until {
		return argument("until", searchText().Msg.Order, a.Since, a.Until)
	}
	if a.Slug != "" {
		return vault.CheckSlug("slug", a.Slug)
	}
	return nil
}

// knownSlug refuses a slug filter that names no project or domain of the
// index (UNKNOWN_SLUG with the closest ones; naming mem_init_project
// when the index knows no project at all).
func knownSlug(idx *search.Index, slug string) error {
	slugs := idx.Slugs() // sorted
	if _, ok := slices.BinarySearch(slugs, slug); ok {
		return nil
	}
	near := vault.Closest(slug, slugs, 5)
	m := searchText().Msg
	var en, fr string
	switch {
	case len(near) > 0:
		en, fr = m.Near.In("en", strings.Join(near, ", ")), m.Near.In("fr", strings.Join(near, ", "))
	case len(slugs) == 0:
		en, fr = "; "+vault.NoProjectYet.En, " ; "+vault.NoProjectYet.Fr
	}
	return fault.New(fault.UnknownSlug, map[string]any{"slug": slug, "close_matches": append([]string{}, near...)},
		m.UnknownSlug.In("en", slug, en), m.UnknownSlug.In("fr", slug, fr))
}

// keeper is the filters as a test on a note: a slug filter takes the
// project's notes archived or not; otherwise archived projects are left
// out unless include_archived; since and until leave undated notes out.
func keeper(a searchArgs) func(*search.Meta) bool {
	return func(m *search.Meta) bool {
		switch {
		case a.Slug != "" && m.Slug != a.Slug,
			a.Slug == "" && m.Archived && !a.IncludeArchived,
			a.Zone != "" && m.Zone != a.Zone,
			a.Kind != "" && m.Kind != a.Kind,
			a.Since != "" && (m.Date == "" || m.Date < a.Since),
			a.Until != "" && (m.Date == "" || m.Date > a.Until):
			return false
		}
		return true
	}
}

func unique(terms []string) []string {
	out := []string{}
	for _, t := range terms {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// ranked returns the first hits, their number and the ranking for a
// (terms, and alts their other-language terms), reusing the last
// ranking when the index, brought up to date with the same listing, and
// the arguments are the same, and the last query's postings
// (search.Ranking) when only the listing changed: a search after a write
// reads the postings of the notes written, not again those of every note
// its words find. With a min_coverage, the query is ranked again with
// the notes covering less left out (and no ranking brought up to date:
// a note's coverage changes with the others').
func (warm *warmIndex) ranked(idx *search.Index, a searchArgs, terms []string, alts []search.Alt) ([]search.Hit, int, *search.Ranking) {
	l := &warm.last
	if warm.listing != "" && l.idx == idx && l.listing == warm.listing && l.args == a {
		return l.top, l.total, l.rank
	}
	keep := keeper(a)
	r := l.rank
	if l.idx != idx || l.args != a || r == nil || a.MinCoverage > 0 || !r.Update(idx, keep) {
		expand := search.Either(search.Fuzzy(len(terms), a.Prefix), search.Translations(alts))
		r = idx.RankExpanded(terms, expand, keep)
		if a.MinCoverage > 0 {
			r = idx.RankExpanded(terms, expand, r.Covering(idx, a.MinCoverage, keep))
		}
	}
	top, total := r.Top(idx, a.Limit)
	warm.last = lastQuery{}
	if warm.listing != "" {
		warm.last = lastQuery{idx, warm.listing, a, top, total, r}
	}
	return top, total, r
}

// answerHit returns one hit as mem_search answers it, with its best line: the
// line holding the most query terms, a body line before a frontmatter
// one, then the first (trimmed, at most 240 characters); none (line "",
// line_number 0) when no line holds one (a match on the file's name
// alone, a file that is not UTF-8). The terms are those the ranking
// read, each once (m). A note the index holds cut (Meta.Cut) is read by
// its head: its line is one of what the index searched.
func answerHit(env *Env, h search.Hit, m *search.Matcher) searchHit {
	hit := searchHit{Path: h.Path, Title: h.Title, Kind: h.Kind, Zone: optional(h.Zone), Slug: optional(h.Slug), Date: optional(h.Date),
		Score: h.Score, Matched: h.Matched}
	c, size := hitText(env, h)
	bodyLine := h.BodyLine // the index of the body's first line
	if !sameSize(h.Key, size) {
		// Edited since the index read it: parse it again.
		bodyLine = 0
		if doc, err := env.docs().Parse(c.Text); err == nil {
			bodyLine = strings.Count(c.Text[:doc.BodyOffset()], "\n")
		}
	}
	best := 0
	held := make([]int, len(m.Terms())) // per term, the last line holding it, plus one
	for i, line := range strings.Split(c.Text, "\n") {
		n := 0
		m.Each(line, func(t int) {
			if held[t] != i+1 {
				held[t], n = i+1, n+2
			}
		})
		if n > 0 && i >= bodyLine {
			n++
		}
		if n > best {
			best, hit.LineNumber, hit.Line = n, i+1, clip(strings.TrimSpace(line), 240)
		}
	}
	return hit
}

// hitText is the text of hit h and the size of its file, answered by
// Ask: its head when the index holds it cut, else the whole file.
func hitText(env *Env, h search.Hit) (vault.Content, int64) {
	if h.Cut {
		c, size, _ := env.View.ReadHead(h.Path)
		return c, size
	}
	c, _ := env.View.Read(h.Path)
	return c, int64(len(c.Text))
}

// sameSize reports whether a note's index key (the host's "size:mtime",
// or "sha256:<hex>" when the core read the note itself, in this call or
// an earlier one with the same content) may be of a text of n bytes.
func sameSize(key string, n int64) bool {
	size, _, ok := strings.Cut(key, ":")
	return !ok || size == "sha256" || size == strconv.FormatInt(n, 10)
}

// clip cuts s to at most n characters, the last one "…" when cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// searchSummary is the hits as a numbered list for people.
func searchSummary(env *Env, a searchArgs, hits []searchHit) string {
	switch {
	case len(hits) == 0 && a.MinCoverage > 0:
		return env.say(searchText().Msg.NoneCovers, a.MinCoverage, a.Query)
	case len(hits) == 0:
		return env.say(searchText().Msg.None, a.Query)
	}
	var md strings.Builder
	for i, h := range hits {
		where := h.Path
		if h.LineNumber > 0 {
			where = fmt.Sprintf("%s:%d", h.Path, h.LineNumber)
		}
		line := ""
		if h.Line != "" {
			line = "\n   " + h.Line
		}
		md.WriteString(env.say(searchText().Msg.Hit, i+1, h.Title, h.Score, where, line) + "\n")
	}
	return strings.TrimSuffix(md.String(), "\n")
}
