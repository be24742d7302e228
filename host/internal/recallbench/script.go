// Package recallbench is Kessho's retrieval benchmark: it builds
// the benchmark vault of testdata/recall by calling Kessho's own tools
// (so every frontmatter key, alias, history line and derived atom is
// exactly what mem_archive writes), reads the frozen needs file, ranks
// each need's phrasings with mem_search and with three baselines, and
// reports hit@1, hit@5, MRR@10 and attempts-to-find with bootstrap
// confidence intervals. It never looks inside core/search: it judges
// mem_search from the outside, through the call loop every host uses.
package recallbench

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"
)

// Zone is the vault's time zone for every generated call.
const Zone = "Europe/Paris"

// Step is one tool call of the vault script.
type Step struct {
	Line int // where the step starts in the script, for errors
	Tool string
	At   time.Time
	Args map[string]any
}

// ParseScript reads the vault script (testdata/recall/script.txt). A step
// starts with a line
//
//	=== init <slug> <project|domain> <YYYY-MM-DDTHH:MM>
//	=== archive <slug> <YYYY-MM-DDTHH:MM>
//	=== historize <slug> <YYYY-MM-DDTHH:MM>
//
// followed by "key: value" lines (init: summary; archive: subject,
// aliases and derived separated by " ; ", phase, no_derived, and any
// number of "derive: <kind> | <fact> | <body>", optionally followed by
// " | <alias> ; <alias>": the atom's aliases), then, for an archive, a
// line "---" and the archive's body up to the next step; a line
// "--- context" in the body starts the new context.md body. Lines before
// the first step and lines starting with "#" among the keys are comments.
func ParseScript(r io.Reader) ([]Step, error) {
	var steps []Step
	var cur *Step
	var body, ctx *strings.Builder
	inBody := false
	flush := func() {
		if cur == nil {
			return
		}
		if body != nil {
			cur.Args["archive_body_md"] = strings.TrimSpace(body.String()) + "\n"
		}
		if ctx != nil {
			cur.Args["context_md"] = strings.TrimSpace(ctx.String()) + "\n"
		}
		steps = append(steps, *cur)
		cur, body, ctx, inBody = nil, nil, nil, false
	}
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "=== "); ok {
			flush()
			s, err := header(n, strings.Fields(rest))
			if err != nil {
				return nil, err
			}
			cur = &s
			continue
		}
		if cur == nil {
			continue
		}
		switch {
		case inBody && line == "--- context":
			ctx = &strings.Builder{}
		case inBody && ctx != nil:
			ctx.WriteString(line + "\n")
		case inBody:
			body.WriteString(line + "\n")
		case line == "---":
			if cur.Tool != "mem_archive" {
				return nil, fmt.Errorf("script line %d: only an archive has a body", n)
			}
			inBody, body = true, &strings.Builder{}
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
		default:
			if err := key(cur, line); err != nil {
				return nil, fmt.Errorf("script line %d: %w", n, err)
			}
		}
	}
	flush()
	return steps, sc.Err()
}

func header(n int, f []string) (Step, error) {
	s := Step{Line: n, Args: map[string]any{}}
	if len(f) < 3 {
		return s, fmt.Errorf("script line %d: want '=== <tool> <slug> … <time>'", n)
	}
	at, err := time.ParseInLocation("2006-01-02T15:04", f[len(f)-1], mustZone())
	if err != nil {
		return s, fmt.Errorf("script line %d: %w", n, err)
	}
	s.At = at
	s.Args["slug"] = f[1]
	switch {
	case f[0] == "init" && len(f) == 4:
		s.Tool = "mem_init_project"
		s.Args["kind"] = f[2]
	case f[0] == "archive" && len(f) == 3:
		s.Tool = "mem_archive"
		s.Args["mode"] = "full"
	case f[0] == "historize" && len(f) == 3:
		s.Tool = "mem_historize"
	default:
		return s, fmt.Errorf("script line %d: unknown step %q", n, strings.Join(f, " "))
	}
	return s, nil
}

func key(s *Step, line string) error {
	k, v, ok := strings.Cut(line, ":")
	if !ok {
		return fmt.Errorf("want 'key: value', got %q", line)
	}
	v = strings.TrimSpace(v)
	list := func() []string {
		var out []string
		for _, x := range strings.Split(v, " ; ") {
			out = append(out, strings.TrimSpace(x))
		}
		return out
	}
	switch k {
	case "summary":
		s.Args["summary"] = v
	case "subject":
		s.Args["archive_subject"] = v
	case "phase":
		s.Args["phase"] = v
	case "aliases":
		s.Args["archive_aliases"] = list()
	case "derived":
		s.Args["derived_atoms"] = list()
	case "no_derived":
		s.Args["no_derived_because"] = v
	case "derive":
		p := strings.Split(v, " | ")
		if len(p) != 3 && len(p) != 4 {
			return fmt.Errorf("derive: want '<kind> | <fact> | <body>' or '<kind> | <fact> | <body> | <alias> ; <alias>'")
		}
		d, _ := s.Args["derive"].([]map[string]any)
		item := map[string]any{"kind": p[0], "fact": p[1], "body": p[2]}
		if len(p) == 4 {
			var aliases []string
			for _, x := range strings.Split(p[3], " ; ") {
				aliases = append(aliases, strings.TrimSpace(x))
			}
			item["aliases"] = aliases
		}
		s.Args["derive"] = append(d, item)
	default:
		return fmt.Errorf("unknown key %q", k)
	}
	return nil
}

func mustZone() *time.Location {
	loc, err := time.LoadLocation(Zone)
	if err != nil {
		panic(err)
	}
	return loc
}
