package catalog

import (
	"fmt"
	"slices"
	"strings"
)

// Reference renders the catalogue (every tool's spec, sorted by name) as
// Markdown: docs/reference.md is this text (`make docs` writes it; a test
// fails when the file is stale).
func Reference(tools []*Tool) string {
	var b strings.Builder
	b.WriteString("# Kessho tool reference\n\n")
	b.WriteString("Generated from `core/catalog` by `make docs`; do not edit by hand.\n\n")
	b.WriteString("Errors every tool shares: " + codeList(Shared) + ".\n\n")
	for _, t := range tools {
		fmt.Fprintf(&b, "## %s\n\n", t.Name)
		fmt.Fprintf(&b, "**%s** — %s\n\n", t.Title.En, t.Description.En)
		fmt.Fprintf(&b, "*%s* — %s\n\n", t.Title.Fr, t.Description.Fr)
		cli := "kessho " + t.CLI.Command
		for _, a := range t.CLI.Args {
			cli += " " + strings.ToUpper(a)
		}
		fmt.Fprintf(&b, "CLI: `%s`, or `kessho call %s --json '{…}'`. Writes: %v. Destructive: %v. Idempotent: %v.\n\n",
			cli, t.Name, t.Writes, t.Writes && t.Destructive, t.Idempotent)
		b.WriteString("| parameter | type | required | default | bounds | description |\n|---|---|---|---|---|---|\n")
		for _, p := range t.Params {
			writeParam(&b, p, "")
		}
		writeUnlisted(&b, t)
		b.WriteString("\nErrors: " + codeList(t.Errors) + ".\n\n")
	}
	b.WriteString(textRules)
	b.WriteString(checkFindings)
	return b.String()
}

// writeUnlisted says what t accepts and never advertises (Tool.Unlisted,
// Param.Synonyms): one line each, after the table.
func writeUnlisted(b *strings.Builder, t *Tool) {
	var also []string
	for _, u := range t.Unlisted {
		if u.SynonymOf != "" {
			also = append(also, fmt.Sprintf("`%s` (another name of `%s`)", u.Name, u.SynonymOf))
		} else {
			also = append(also, fmt.Sprintf("`%s` (%s)", u.Name, u.Type))
		}
	}
	if len(also) > 0 {
		fmt.Fprintf(b, "\nAlso accepted, not advertised (the memory-kit's procedures send it; see docs/CONVENTIONS.md): %s.\n", strings.Join(also, ", "))
	}
	for _, p := range t.Params {
		if len(p.Synonyms) == 0 {
			continue
		}
		var pairs []string
		for _, v := range p.Enum {
			var names []string
			for syn, to := range p.Synonyms {
				if to == v {
					names = append(names, syn)
				}
			}
			if len(names) > 0 {
				slices.Sort(names)
				pairs = append(pairs, codeList(names)+" for `"+v+"`")
			}
		}
		fmt.Fprintf(b, "\n`%s` also takes, not advertised: %s.\n", p.Name, strings.Join(pairs, "; "))
	}
}

func writeParam(b *strings.Builder, p Param, prefix string) {
	typ := p.Type
	if p.Items != nil {
		typ += " of " + p.Items.Type
	}
	req := ""
	if p.Required {
		req = "yes"
	}
	def := ""
	if p.Default != nil {
		def = fmt.Sprintf("`%v`", p.Default)
	}
	var bounds []string
	if len(p.Enum) > 0 {
		bounds = append(bounds, "one of "+codeList(p.Enum))
	}
	bounds = bound(bounds, p.MinLength, "≥ %d chars")
	bounds = bound(bounds, p.MaxLength, "≤ %d chars")
	bounds = bound(bounds, p.Minimum, "≥ %g")
	bounds = bound(bounds, p.Maximum, "≤ %g")
	bounds = bound(bounds, p.MinItems, "≥ %d items")
	bounds = bound(bounds, p.MaxItems, "≤ %d items")
	if p.OneLine {
		bounds = append(bounds, "one line (no control character)")
	}
	if p.Items != nil && p.Items.OneLine {
		bounds = append(bounds, "items one line (no control character)")
	}
	desc := strings.ReplaceAll(p.Description.En, "|", "\\|")
	fmt.Fprintf(b, "| `%s%s` | %s | %s | %s | %s | %s |\n", prefix, p.Name, typ, req, def, strings.Join(bounds, ", "), desc)
	var sub []Param
	if p.Items != nil {
		sub = p.Items.Props
		prefix += p.Name + "[]."
	} else {
		sub = p.Props
		prefix += p.Name + "."
	}
	for _, q := range sub {
		writeParam(b, q, prefix)
	}
}

func codeList[S ~string](codes []S) string {
	var out []string
	for _, c := range codes {
		out = append(out, "`"+string(c)+"`")
	}
	return strings.Join(out, ", ")
}

// textRules closes the reference: what every string argument must be.
const textRules = `## Text arguments

Every string argument must be valid UTF-8: an invalid byte, or a JSON escape of a
lone surrogate (` + "`\\ud800`" + `), is refused with INVALID_ARGUMENT naming the parameter,
never replaced by U+FFFD.

A parameter marked "one line" is written by Kessho as (part of) one line of YAML or
Markdown — a frontmatter value, a history.md line, a file name. It may not hold a
control character (U+0000–U+001F, U+007F, U+0080–U+009F): INVALID_ARGUMENT naming the
parameter, the character and its place. TAB is allowed (a blank). Line breaks (CR, LF)
follow each tool's own rule, for example: ` + "`phase`" + ` and ` + "`archive_subject`" + ` refuse them,
` + "`summary`" + ` joins them into a space, a ` + "`derive[].fact`" + ` has them replaced by a space in
its file name.
Format characters (zero-width joiner, bidirectional marks) are text and pass.
Multi-line Markdown texts (` + "`context_md`" + `, ` + "`archive_body_md`" + `, …) are written as given.

## Atom file names

A ` + "`derive`" + ` item's atom is the note ` + "`<zone>/<name>.md`" + `, its name made from ` + "`fact`" + ` so that it is
a safe file name on every system and in Obsidian: each run of line breaks and tabs becomes one
space; ` + "`/ \\ : * ? \" < > | # ^ [ ]`" + ` are removed; dots and spaces at both ends are trimmed (a
leading dot hides a file, Windows drops a trailing dot or space); at most 120 bytes, cut on a
character and trimmed again; a Windows device name — ` + "`CON PRN AUX NUL COM1`" + `–` + "`COM9 LPT1`" + `–` + "`LPT9`" + `,
any case, alone or before a dot — gets ` + "`_`" + ` right after it (` + "`CON`" + ` → ` + "`CON_`" + `, ` + "`nul.tar`" + ` →
` + "`nul_.tar`" + `). ATOM_EXISTS and the ` + "`[[name]]`" + ` links use this final name. A fact that leaves no
name is refused (INVALID_ARGUMENT naming ` + "`derive[i].fact`" + `).
`

// bound appends to bounds the bound v written with format, when v is set.
func bound[T int | float64](bounds []string, v *T, format string) []string {
	if v == nil {
		return bounds
	}
	return append(bounds, fmt.Sprintf(format, *v))
}

// checkFindings closes the reference: the codes of mem_check's findings
// (core/tools check.go), which are results, not errors.
const checkFindings = `
## mem_check's findings

Each finding has a ` + "`code`, `path`, `line`" + ` (1-based; 0 for the whole file), a
` + "`message` and a `fix`" + `, and ` + "`mechanical`" + ` when ` + "`repair: true`" + ` fixes it. ` + "`kessho check`" + ` exits 0
when there is none, 1 otherwise.

| code | what | repair |
|---|---|---|
| ` + "`BROKEN_LINK`" + ` | a wikilink (outside code) names no note; the fix names the closest note | no |
| ` + "`HISTORY_DANGLING`" + ` | a history.md line names an archive that is gone | removes the line |
| ` + "`ARCHIVE_NOT_IN_HISTORY`" + ` | an archive of archives/ that no history.md line names | adds its line (date, time and subject from its name) |
| ` + "`HISTORY_MISSING`" + ` | archives/ holds archives, history.md is missing | creates it, one line per archive (in a memory-kit vault, as the kit's mem_init_project writes it) |
| ` + "`FRONTMATTER_INVALID`" + ` | the frontmatter is no YAML mapping, or is never closed | no |
| ` + "`FRONTMATTER_DUPLICATE_KEY`" + ` | a frontmatter key is defined twice | no |
| ` + "`SLUG_TWICE`" + ` | one slug (any case) names folders in two places (projects, domains, archived) | no |
| ` + "`NOT_UTF8`" + ` | a note is not UTF-8 | no |
| ` + "`CONFLICT_COPY`" + ` | a ` + "`<name>.kessho-conflict-<stamp>.md`" + ` copy a host left after an interrupted change | no |
| ` + "`HYGIENE_FAIL`" + ` | memory/SESSION_LOG.md and ACTIVE_PRIORITIES.md fail mem_context_hygiene's check | no |
| ` + "`INDEX_MISSING`" + ` | in a zone with an index.md (a memory-kit vault), an atom the index does not link: what the kit's own health scan reports | no |
| ` + "`DISPLAY_MISSING`" + ` | in a memory-kit vault (its 10-episodes/index.md), a note the kit's conventions want a ` + "`display`" + ` in (context.md, history.md, archives, atoms of 20-knowledge, 40-principles, 50-goals, 60-people, the index.md notes) has none | no |
| ` + "`ZONE_INDEX_MISSING`" + ` | in a memory-kit vault, a zone folder (00-inbox … 99-meta) without its index.md | no |
| ` + "`EMPTY_ROOT_NOTE`" + ` | in a memory-kit vault, an empty note at the vault's root (index.md aside) | no |
| ` + "`ATOM_ORPHAN`" + ` | in a memory-kit vault, an atom of 20-knowledge, 40-principles, 50-goals or 60-people (a zone's index.md aside) whose ` + "`project`" + ` or ` + "`domain`" + ` names no folder of 10-episodes, or, with neither, that no ` + "`project/…`" + ` or ` + "`domain/…`" + ` tag attaches and no other note links to (embeds do not count; links in any case, as Obsidian resolves them) | no |
| ` + "`ARCHEO_HASH_MISSING`" + ` | in a memory-kit vault, a note whose ` + "`source`" + ` starts with ` + "`archeo-`" + ` and has no ` + "`content_hash`" + `, or a repo topology (99-meta/repo-topology/) of such a source with no ` + "`previous_topology_hash`" + ` key | no |

In a memory-kit vault a finding whose meaning the kit's own health scan
(its mem_health_scan) shares also has ` + "`kit`" + `, the kit's name of it:
` + "`BROKEN_LINK`" + ` dangling-wikilinks, ` + "`FRONTMATTER_INVALID`" + ` malformed-frontmatter,
` + "`INDEX_MISSING`" + ` missing-zone-index-entry, ` + "`DISPLAY_MISSING`" + ` missing-display,
` + "`ZONE_INDEX_MISSING`" + ` missing-zone-index, ` + "`EMPTY_ROOT_NOTE`" + ` stray-zone-md (named as a zone) or
empty-md-at-root, ` + "`ATOM_ORPHAN`" + ` orphan-atoms, ` + "`ARCHEO_HASH_MISSING`" + ` missing-archeo-hashes; the
others have none. The kit's scan has one category more, mcp-tool-spec-drift, which audits the
kit's own source tree (its procedures against its sync manifest), not a vault: Kessho has none.

A repair is one plan: every file it writes carries the hash it was read with, so a
change made meanwhile refuses the whole plan (CONFLICT) and nothing is written.
`
