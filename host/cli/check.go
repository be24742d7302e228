package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/kessho/kessho/core/tools"
)

const checkUsage = `usage: kessho [global flags] check [--repair] [--format text|json|github]

Checks the vault's health (tool mem_check; kessho help mem_check tells more;
its findings: docs/reference.md, "mem_check's findings").

  --repair     apply the mechanical fixes (history.md lines) as one plan,
               all or nothing; the rest is reported, not applied.
  --format F   text (default): the report for people; json: the tool's
               result; github: one GitHub Actions annotation a finding,
               ::error file=…,line=…,title=CODE::message — fix, the file
               relative to the working directory.

Exit status: 0 when the vault is sound (with --repair: when nothing is
left to a person once the repair is applied); 1 on findings or a refusal;
2 on a usage error.
`

// runCheck is `kessho check [--repair] [--format text|json|github]`.
func runCheck(g globals, rest []string, env Env) int {
	if g.help {
		fmt.Fprint(env.Stdout, checkUsage)
		return ExitOK
	}
	format, repair, err := checkFlags(rest)
	if err != nil {
		fmt.Fprintf(env.Stderr, "kessho check: %v\n\n%s", err, checkUsage)
		return ExitUsage
	}
	args, _ := json.Marshal(map[string]bool{"repair": repair})
	out, code := execute(g, "mem_check", args, env)
	if out.Answer == nil {
		return code
	}
	if out.Error != nil {
		// An unfinished journal is rolled forward by the call itself; one
		// that cannot be (RECOVERY_CONFLICT) refuses every call, this one
		// too: the job fails, and says why where GitHub shows it.
		if format == "github" {
			fmt.Fprintf(env.Stdout, "::error title=%s::%s\n", escapeProperty(string(out.Error.Code)), escapeData(out.Error.Message))
		}
		fmt.Fprintf(env.Stderr, "kessho: %s: %s\n", out.Error.Code, out.Error.Message)
		return code
	}
	var res tools.CheckResult
	if err := json.Unmarshal(out.Result, &res); err != nil {
		fmt.Fprintf(env.Stderr, "kessho check: reading mem_check's result: %v\n", err)
		return ExitToolError
	}
	open := res.Findings
	if repair {
		open = res.Gates
	}
	switch format {
	case "json":
		env.Stdout.Write(out.Result)
		fmt.Fprintln(env.Stdout)
	case "github":
		prefix := vaultPrefix(g, env)
		for _, f := range open {
			fmt.Fprintln(env.Stdout, Annotation(prefix, f))
		}
	default:
		fmt.Fprintln(env.Stdout, res.SummaryMD)
	}
	if len(open) > 0 {
		return ExitToolError
	}
	return ExitOK
}

// checkFlags reads check's own flags.
func checkFlags(rest []string) (format string, repair bool, err error) {
	format = "text"
	err = commandLine{
		flags: map[string]flagKind{"repair": switchFlag, "format": valueFlag},
		set: func(name, val string) error {
			if name == "repair" {
				repair = true
				return nil
			}
			if val != "text" && val != "json" && val != "github" {
				return fmt.Errorf("--format must be text, json or github, not %q", val)
			}
			format = val
			return nil
		},
		positional: func(a string) error { return fmt.Errorf("unexpected argument %q", a) },
		unknown:    func(a, _ string) error { return fmt.Errorf("unknown flag %q", a) },
		needsValue: func(string) error { return errors.New("--format needs text, json or github") },
	}.parse(rest)
	return format, repair, err
}

// vaultPrefix is the vault's folder relative to the working directory,
// "/"-separated ("" when it is the working directory or lies outside it):
// what a GitHub annotation's file starts with, the job running at the
// repository's root.
func vaultPrefix(g globals, env Env) string {
	dir, err := findVault(g, env)
	if err != nil {
		return ""
	}
	wd, err := env.Getwd()
	if err != nil {
		return ""
	}
	absDir, err1 := filepath.Abs(dir)
	rel, err2 := filepath.Rel(wd, absDir)
	if err1 != nil || err2 != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return ""
	}
	return filepath.ToSlash(rel)
}

// Annotation is finding f as a GitHub Actions workflow command,
// ::error file=<prefix/path>,line=<line>,title=<code>::<message> — <fix>,
// its properties and message escaped as the runner reads them.
func Annotation(prefix string, f tools.Finding) string {
	file := f.Path
	if prefix != "" {
		file = path.Join(prefix, f.Path)
	}
	props := "file=" + escapeProperty(file)
	if f.Line > 0 {
		props += fmt.Sprintf(",line=%d", f.Line)
	}
	props += ",title=" + escapeProperty(f.Code)
	return "::error " + props + "::" + escapeData(f.Message+" — "+f.Fix)
}

func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
