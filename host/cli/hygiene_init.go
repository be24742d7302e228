package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/tools"
)

// hygieneInit is `kessho hygiene init`: a new SESSION_LOG.md and
// ACTIVE_PRIORITIES.md that pass the check (init.yaml's starter pair,
// dated today in the vault's zone), written together in one plan that
// expects neither file, then checked as `hygiene check` does. When either
// exists, nothing is written: the pair is the person's.
func hygieneInit(g globals, root string, asJSON bool, env Env) int {
	if root != "" {
		st, err := os.Stat(root)
		if err != nil || !st.IsDir() {
			return hygieneUsageError(env, "--root %s: no such folder", root)
		}
		g.vault = root
		if isDirEntry(root, "vault") {
			g.vault = filepath.Join(root, "vault")
		}
	}
	dir, err := findVault(g, env)
	if err != nil {
		return usage(env, err)
	}
	now, tz, err := timeFlags(g, env)
	if err != nil {
		return usage(env, err)
	}
	loc, _ := time.LoadLocation(tz) // timeFlags checked it
	if now.IsZero() {
		now = time.Now()
	}
	today := now.In(loc).Format(time.DateOnly)
	msg := initText()
	for _, p := range []string{tools.SessionLogPath, tools.PrioritiesPath} {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p))); !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(env.Stderr, "kessho hygiene: %s\n", msg.HygieneExists.In(g.lang, p))
			return ExitToolError
		}
	}
	err = writeNew(dir, map[string]string{
		tools.SessionLogPath: msg.SessionLog.In(g.lang, today),
		tools.PrioritiesPath: msg.Priorities.In(g.lang, today),
	})
	if err != nil {
		if fe, ok := fault.As(err); ok {
			fmt.Fprintf(env.Stderr, "kessho: %s: %s\n", fe.Code, fe.Message(g.lang))
		} else {
			fmt.Fprintf(env.Stderr, "kessho hygiene: %v\n", err)
		}
		return ExitToolError
	}
	if !asJSON {
		fmt.Fprintln(env.Stdout, msg.HygieneMade.In(g.lang, tools.SessionLogPath, tools.PrioritiesPath))
	}
	g.vault = dir
	r, code := openRunner(g, env)
	if r == nil {
		return code
	}
	defer r.close()
	return hygieneCall(r, "check", asJSON, g.lang, env)
}
