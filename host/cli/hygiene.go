package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/kessho/kessho/core"
	"github.com/kessho/kessho/core/hygiene"
	"github.com/kessho/kessho/core/tools"
	"github.com/kessho/kessho/host/call"
)

const hygieneTool = "mem_context_hygiene"

const hygieneUsage = `usage: kessho [global flags] hygiene init|check|trim [--root DIR] [--json]

Creates, checks or trims memory/SESSION_LOG.md and memory/ACTIVE_PRIORITIES.md
(tool mem_context_hygiene; kessho help mem_context_hygiene tells more; their
format, with an example pair: docs/hygiene.md).

  init         create a pair that passes the check, dated today, when
               neither file exists (nothing is written otherwise); then
               check it. With --root DIR: DIR/vault when DIR holds vault/,
               else DIR.
  check        print the checker's line, CONTEXT_HYGIENE PASS|FAIL …, on
               standard output; a file that cannot be read prints
               CONTEXT_HYGIENE FAIL unreadable_input=… on standard error.
  trim         archive old session blocks and priorities marked stale, then
               print what moved, the gates left to a person, and the check
               of the files as they are on disk after the trim.
  --root DIR   a framework root: its vault/ folder when DIR holds
               vault/memory/, else DIR itself when it holds memory/.
               Instead of --vault.
  --json       print the tool's answer as JSON instead.

Exit status: 0 only when the final line is CONTEXT_HYGIENE PASS; 1 on FAIL,
unreadable input or any refusal (CONTEXT_HYGIENE_RACE: a file changed during
the trim, nothing was written); 2 on a usage error.
`

// runHygiene is `kessho hygiene init|check|trim [--root DIR] [--json]`.
func runHygiene(g globals, rest []string, env Env) int {
	var action, root string
	asJSON := false
	unexpected := func(arg, _ string) error { return fmt.Errorf("unexpected argument %q", arg) }
	err := commandLine{
		flags: map[string]flagKind{"json": switchFlag, "root": valueFlag},
		set: func(name, val string) error {
			switch {
			case name == "json":
				asJSON = true
			case val == "":
				return errors.New("--root needs a folder")
			default:
				root = val
			}
			return nil
		},
		positional: func(a string) error {
			switch {
			case a != "check" && a != "trim" && a != "init":
				return unexpected(a, "")
			case action != "":
				return fmt.Errorf("give one action, init, check or trim, not %q and %q", action, a)
			}
			action = a
			return nil
		},
		unknown:    unexpected,
		needsValue: func(string) error { return errors.New("--root needs a folder") },
	}.parse(rest)
	if err != nil {
		return hygieneUsageError(env, "%v", err)
	}
	if action == "" {
		return hygieneUsageError(env, "give an action: init, check or trim")
	}
	if root != "" && g.vault != "" {
		return hygieneUsageError(env, "give --root or --vault, not both")
	}
	if action == "init" {
		return hygieneInit(g, root, asJSON, env)
	}
	if root != "" {
		dir, why := frameworkVault(root)
		if why != "" {
			fmt.Fprintln(env.Stderr, hygiene.UnreadableLine(why))
			return ExitToolError
		}
		g.vault = dir
	}

	r, code := openRunner(g, env)
	if r == nil {
		return code
	}
	defer r.close()
	return hygieneCall(r, action, asJSON, g.lang, env)
}

// hygieneCall runs the check or the trim on r and prints its outcome.
func hygieneCall(r *runner, action string, asJSON bool, lang string, env Env) int {
	out, _ := r.call(hygieneTool, json.RawMessage(`{"action":"`+action+`"}`))
	ans, err := decodeHygiene(out)
	if err != nil {
		fmt.Fprintf(env.Stderr, "kessho: %v\n", err)
		return ExitToolError
	}
	if asJSON {
		env.Stdout.Write(out.Answer)
		fmt.Fprintln(env.Stdout)
		if ans.Result != nil && ans.Result.Pass {
			return ExitOK
		}
		return ExitToolError
	}
	if action == "check" {
		return printCheck(env, ans)
	}
	if ans.Error != nil {
		fmt.Fprintf(env.Stderr, "kessho: %s: %s\n", ans.Error.Code, ans.Error.Message)
		return ExitToolError
	}
	res := ans.Result
	if res.Unreadable != "" || res.Trim == nil {
		fmt.Fprintln(env.Stderr, res.Line)
		return ExitToolError
	}
	return printTrim(env.Stdout, res, lang)
}

// printTrim prints what a trim did, in lang, then the check of the files
// as it leaves them.
func printTrim(w io.Writer, res *tools.HygieneResult, lang string) int {
	t := func(en, fr string) string {
		if lang == "fr" {
			return fr
		}
		return en
	}
	tr := res.Trim
	switch {
	case tr.Blocked:
		fmt.Fprintln(w, t("trim stopped by a blocking gate: nothing written", "élagage arrêté par un point bloquant : rien n'a été écrit"))
	case !tr.Trimmed && res.Pass:
		fmt.Fprintln(w, t("nothing to trim: the check already passes", "rien à élaguer : la vérification passe déjà"))
	case !tr.Trimmed:
		fmt.Fprintln(w, t("nothing to trim: what fails needs a person", "rien à élaguer : ce qui échoue demande une personne"))
	}
	for _, a := range tr.Archives {
		switch {
		case strings.Contains(a, "SESSION_LOG_ARCHIVE_"):
			fmt.Fprintf(w, t("archived %d session block(s) to %s", "%d bloc(s) de session archivé(s) dans %s")+"\n", tr.MovedBlocks, a)
		default:
			fmt.Fprintf(w, t("archived %d priority item(s) to %s", "%d élément(s) de priorité archivé(s) dans %s")+"\n", tr.MovedPriorityItems, a)
		}
	}
	if n := tr.SkippedDuplicateBlocks + tr.SkippedDuplicatePriorities; n > 0 {
		fmt.Fprintf(w, t("%d item(s) already archived today, not written twice", "%d élément(s) déjà archivé(s) aujourd'hui, pas écrit(s) deux fois")+"\n", n)
	}
	for _, gate := range tr.Gates {
		fmt.Fprintf(w, "gate: %s\n", gate)
	}
	// SPEC section 9, step 5: the line is the check re-run by the core on
	// the files as the trim leaves them (package github.com/kessho/kessho/host/call, "How a
	// call ends"); only its literal PASS records green.
	fmt.Fprintln(w, res.Line)
	return exitFor(res.Pass)
}

// hygieneAnswer is the outcome of mem_context_hygiene: its result, or the
// refusal.
type hygieneAnswer struct {
	Result *tools.HygieneResult
	Error  *core.ErrorBody
}

func decodeHygiene(out call.Outcome) (hygieneAnswer, error) {
	if !out.OK {
		return hygieneAnswer{Error: out.Error}, nil
	}
	var r tools.HygieneResult
	if err := json.Unmarshal(out.Result, &r); err != nil {
		return hygieneAnswer{}, fmt.Errorf("hygiene: the result is not the tool's: %v", err)
	}
	return hygieneAnswer{Result: &r}, nil
}

// printCheck prints a check's outcome as the reference checker does: the
// line on standard output, or the unreadable line on standard error (a
// refusal, such as a folder where a file should be or a locked vault,
// is input the check could not read).
func printCheck(env Env, a hygieneAnswer) int {
	switch {
	case a.Error != nil:
		fmt.Fprintln(env.Stderr, hygiene.UnreadableLine(a.Error.Code+": "+a.Error.Message))
		return ExitToolError
	case a.Result.Unreadable != "":
		fmt.Fprintln(env.Stderr, a.Result.Line)
		return ExitToolError
	}
	fmt.Fprintln(env.Stdout, a.Result.Line)
	return exitFor(a.Result.Pass)
}

func exitFor(pass bool) int {
	if pass {
		return ExitOK
	}
	return ExitToolError
}

// frameworkVault maps --root to the vault folder: root/vault when it holds
// memory/ (preferred when both exist), else root when it holds memory/.
// Otherwise it returns why the files cannot be read, and no folder: a
// check on the wrong folder must not leave .kessho/ there.
func frameworkVault(root string) (dir, why string) {
	isDir := func(p string) bool {
		st, err := os.Stat(p)
		return err == nil && st.IsDir()
	}
	if !isDir(root) {
		return "", "--root " + root + ": no such folder"
	}
	if v := filepath.Join(root, "vault"); isDir(filepath.Join(v, "memory")) {
		return v, ""
	}
	if isDir(filepath.Join(root, "memory")) {
		return root, ""
	}
	return "", "--root " + root + ": holds neither vault/memory/ nor memory/"
}

func hygieneUsageError(env Env, format string, args ...any) int {
	fmt.Fprintf(env.Stderr, "kessho hygiene: %s\nRun `kessho hygiene --help` for usage.\n", fmt.Sprintf(format, args...))
	return ExitUsage
}
