package tools

import (
	"sort"
	"strconv"
	"strings"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/core/wikilink"
)

// checkSpec is mem_check in the catalogue. It reads the whole vault and
// writes only with repair, and then only history.md lines (a line added
// for an archive, a history.md created, and the line of an archive gone
// removed: that removal drops a line someone may have written, so it is
// destructive); a second repair finds nothing left to do.
var checkSpec = tool[CheckResult](catalogText("check.yaml"), "mem_check", "check", writes|destroys|idempotent, nil, []catalog.Param{
	{Name: "repair", Type: catalog.Boolean, Default: false},
})

// checkArgs is checkTool's arguments.
type checkArgs struct {
	Repair bool `json:"repair"`
}

// The finding codes of mem_check (docs/reference.md, "mem_check's findings").
const (
	FindBrokenLink      = "BROKEN_LINK"
	FindHistoryDangling = "HISTORY_DANGLING"
	FindNotInHistory    = "ARCHIVE_NOT_IN_HISTORY"
	FindNoHistory       = "HISTORY_MISSING"
	FindFrontmatter     = "FRONTMATTER_INVALID"
	FindDuplicateKey    = "FRONTMATTER_DUPLICATE_KEY"
	FindSlugTwice       = "SLUG_TWICE"
	FindNotUTF8         = "NOT_UTF8"
	FindConflictCopy    = "CONFLICT_COPY"
	FindHygiene         = "HYGIENE_FAIL"
	FindIndexMissing    = "INDEX_MISSING"
	// In a vault the memory-kit made only (check_kit.go).
	FindDisplayMissing   = "DISPLAY_MISSING"
	FindZoneIndexMissing = "ZONE_INDEX_MISSING"
	FindEmptyRoot        = "EMPTY_ROOT_NOTE"
	FindOrphanAtom       = "ATOM_ORPHAN"
	FindArcheoHash       = "ARCHEO_HASH_MISSING"
)

// Finding is one thing mem_check found wrong: its code, the file and the
// line (1-based; 0 for the whole file), what is wrong and what fixes it,
// and whether repair fixes it (mechanical: no person needs to judge).
type Finding struct {
	Code       string `json:"code"`
	Path       string `json:"path"`
	Line       int    `json:"line"`
	Message    string `json:"message"`
	Fix        string `json:"fix"`
	Mechanical bool   `json:"mechanical"`
	// Kit is, in a vault the memory-kit made, the kit's health scan's
	// name of the finding when it means the same ("dangling-wikilinks"),
	// else absent.
	Kit string `json:"kit,omitempty"`
}

// CheckResult is mem_check's result: sound when nothing is found. With
// repair, repaired lists the findings the plan fixes and gates those
// left to a person; findings is every finding either way.
type CheckResult struct {
	Sound    bool      `json:"sound"`
	Notes    int       `json:"notes"`
	Findings []Finding `json:"findings"`
	Repaired []Finding `json:"repaired"`
	Gates    []Finding `json:"gates"`
	Common
}

// checkText is check.yaml: mem_check's catalogue texts and messages, parsed on first use.
var checkText = loadText[struct {
	BrokenLink, BrokenLinkFix, BrokenLinkNone          fault.Msg
	HistoryDangling, HistoryDanglingFix                fault.Msg
	NotInHistory, NotInHistoryFix, NoHistory           fault.Msg
	NoHistoryFix, Frontmatter, FrontmatterFix          fault.Msg
	DuplicateFix, SlugTwice, SlugTwiceFix              fault.Msg
	NotUTF8, NotUTF8Fix, ConflictCopy, ConflictCopyFix fault.Msg
	Hygiene, HygieneFix, Sound, Found, Repaired, Gates fault.Msg
	IndexMissing, IndexMissingFix                      fault.Msg
	DisplayMissing, DisplayMissingFix                  fault.Msg
	ZoneIndexMissing, ZoneIndexMissingFix              fault.Msg
	EmptyRoot, EmptyRootFix                            fault.Msg
	OrphanGone, OrphanUnlinked, OrphanFix              fault.Msg
	ArcheoHash, ArcheoTopology, ArcheoFix              fault.Msg
}]("check.yaml")

// checker is one mem_check call: the vault's files and what it found.
type checker struct {
	env      *Env
	files    []string
	names    wikilink.Names
	paths    map[string]bool // lowercased paths without ".md", made on the first path link
	stems    []string
	found    []Finding
	repairs  plan.Plan
	repaired map[int]bool
	kit      bool // the vault is the memory-kit's (kitVault)
	// incoming is, in a kit vault, the lowercased stems the notes link
	// to, each with the notes that link to it (kitOrphans).
	incoming map[string][]string
	atoms    []kitAtom // in a kit vault, its atoms' attachments (kitOrphans)
}

// checkTool is mem_check: reads every file of the vault once (one tree
// need with content), then checks each note, each project's history
// against its archives, the slugs and the hygiene pair. With repair, the
// mechanical fixes are one plan whose every op holds the bytes it read.
func checkTool(env *Env, a checkArgs) (any, plan.Plan, error) {
	if err := env.View.Ask(vault.Need{Trees: []vault.Tree{{Root: ".", Content: true}}}); err != nil {
		return nil, nil, err
	}
	files, err := env.View.Walk(".")
	if err != nil {
		return nil, nil, err
	}
	kit, err := kitVault(env)
	if err != nil {
		return nil, nil, err
	}
	c := &checker{env: env, files: files, names: wikilink.NamesOf(files), repaired: map[int]bool{}, kit: kit}
	notes, err := c.notes()
	if err != nil {
		return nil, nil, err
	}
	if err := c.projects(); err != nil {
		return nil, nil, err
	}
	if err := c.hygiene(); err != nil {
		return nil, nil, err
	}
	if err := c.kitIndexes(); err != nil {
		return nil, nil, err
	}
	if err := c.kitScan(); err != nil {
		return nil, nil, err
	}
	sort.SliceStable(c.found, func(i, j int) bool {
		if c.found[i].Path != c.found[j].Path {
			return c.found[i].Path < c.found[j].Path
		}
		return c.found[i].Line < c.found[j].Line
	})
	return c.result(a.Repair, notes), c.plan(a.Repair), nil
}

// plan is the repair's plan: nil unless repair was asked.
func (c *checker) plan(repair bool) plan.Plan {
	if !repair {
		return nil
	}
	return c.repairs
}

// result builds the answer and its summary.
func (c *checker) result(repair bool, notes int) CheckResult {
	t := checkText().Msg
	res := CheckResult{Sound: len(c.found) == 0, Notes: notes, Findings: nonNilFindings(c.found),
		Repaired: []Finding{}, Gates: []Finding{}, Common: common()}
	if repair {
		for _, f := range c.found {
			if f.Mechanical {
				res.Repaired = append(res.Repaired, f)
			} else {
				res.Gates = append(res.Gates, f)
			}
		}
	}
	if res.Sound {
		res.SummaryMD = c.env.say(t.Sound, notes)
		return res
	}
	var b strings.Builder
	b.WriteString(c.env.say(t.Found, len(c.found)))
	if repair {
		list(&b, c.env.say(t.Repaired, len(res.Repaired)), res.Repaired)
		list(&b, c.env.say(t.Gates, len(res.Gates)), res.Gates)
	} else {
		list(&b, "", res.Findings)
	}
	res.SummaryMD = b.String()
	return res
}

// list writes findings under a title ("" for none) as Markdown items.
func list(b *strings.Builder, title string, fs []Finding) {
	if title != "" && len(fs) > 0 {
		b.WriteString("\n\n" + title)
	}
	for _, f := range fs {
		b.WriteString("\n- " + FindingLine(f))
	}
}

// FindingLine is a finding on one line: `CODE path:line: message; fix`.
func FindingLine(f Finding) string {
	where := f.Path
	if f.Line > 0 {
		where += ":" + strconv.Itoa(f.Line)
	}
	return f.Code + " " + where + ": " + f.Message + " — " + f.Fix
}

func nonNilFindings(fs []Finding) []Finding {
	if fs == nil {
		return []Finding{}
	}
	return fs
}

// add records a finding.
func (c *checker) add(code, p string, line int, msg, fix string, mechanical bool) {
	c.found = append(c.found, Finding{Code: code, Path: p, Line: line, Message: msg, Fix: fix, Mechanical: mechanical})
}
