package cli

import (
	"bufio"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kessho/kessho/core/atom"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/i18n"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/tools"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/host/vaultfs"
)

const initUsage = `usage: kessho [global flags] init [--vault DIR]
       kessho [global flags] init SLUG [--summary S] [--kind project|domain] …

Without a slug, makes the folder a vault: --vault DIR (made when only DIR
itself is missing), else $KESSHO_VAULT, else the current folder. The folder
must be empty (dot-files aside) or a vault already (it holds 10-episodes/
or .obsidian/). It gets the layout's folders that are missing (10-episodes/
projects, domains and archived; 20-knowledge; 40-principles; 50-goals;
memory; 99-meta) and, unless it has one, a README.md note saying what each
holds, in --lang; nothing that exists is changed. On a vault with no
project, it then offers to create the first one: on a terminal it asks
(y/N, then the slug and a summary); otherwise it prints the command to run.

With a slug (or any flag of mem_init_project), creates that project or
domain: the tool mem_init_project (below, or kessho help mem_init_project).

Exit status: 0 when the vault is made (or was one), 1 when the first
project is refused, 2 on a usage error or a folder that cannot be a vault
(nothing written).
`

// initTexts is init.yaml: kessho init's and kessho hygiene init's
// messages, the README.md note and the starter memory/ pair.
//
//go:embed init.yaml
var initFiles embed.FS

var initText = i18n.Load[struct {
	Made, Folders, ReadmeMade, And, Already fault.Msg
	NotEmpty, NotFolder, NoParent, InWay    fault.Msg
	Hint, Ask, AskSlug, AskSummary, Later   fault.Msg
	HygieneExists, HygieneMade, Readme      fault.Msg
	SessionLog, Priorities                  fault.Msg
}](initFiles, "init.yaml", 0)

// vaultLayout is the folders `kessho init` makes: SPEC section 1's places
// (the episodes' three kinds, the atoms' zones, the hygiene pair's folder,
// Kessho's own notes), in the order of the README's table.
func vaultLayout() []string {
	dirs := []string{vault.Projects, vault.Domains, vault.Archived}
	var zones []string
	for _, z := range atom.Zones {
		zones = append(zones, z.Dir)
	}
	slices.Sort(zones)
	return append(append(dirs, zones...), path.Dir(tools.SessionLogPath), path.Dir(path.Dir(tools.RelocationsLog)))
}

const readmeName = "README.md"

// runInit is `kessho init` without a slug: make the folder a vault, then
// offer its first project.
func runInit(g globals, env Env) int {
	msg := initText()
	fail := func(m fault.Msg, args ...any) int {
		fmt.Fprintf(env.Stderr, "kessho init: %s\n", m.In(g.lang, args...))
		return ExitUsage
	}
	dir, given := g.vault, g.vault != ""
	if dir == "" {
		dir = env.Getenv("KESSHO_VAULT")
	}
	if dir == "" {
		wd, err := env.Getwd()
		if err != nil {
			return usage(env, usagef("init: no folder: pass --vault DIR (%v)", err))
		}
		dir = wd
	}
	made, why := planVault(dir)
	switch why.kind {
	case "notempty":
		return fail(msg.NotEmpty, dir)
	case "notfolder":
		return fail(msg.NotFolder, dir)
	case "noparent":
		return fail(msg.NoParent, dir, filepath.Dir(dir))
	case "inway":
		return fail(msg.InWay, filepath.Join(dir, filepath.FromSlash(why.path)))
	case "error":
		return usage(env, usagef("init: %s: %v", dir, why.err))
	}
	if err := makeVault(dir, g.lang, made); err != nil {
		fmt.Fprintf(env.Stderr, "kessho init: %s: %v\n", dir, err)
		return ExitToolError
	}
	switch {
	case len(made.dirs) == 0 && !made.readme:
		fmt.Fprintln(env.Stdout, msg.Already.In(g.lang, dir))
	default:
		var what []string
		if made.readme {
			what = append(what, msg.ReadmeMade.In(g.lang))
		}
		if len(made.dirs) > 0 {
			what = append(what, msg.Folders.In(g.lang, len(made.dirs)))
		}
		fmt.Fprintln(env.Stdout, msg.Made.In(g.lang, dir, strings.Join(what, " "+msg.And.In(g.lang)+" ")))
	}
	g.vault = dir
	return offerProject(g, env, given)
}

// vaultMade is what planVault found missing: the layout's folders and the
// README note.
type vaultMade struct {
	mkdir  bool     // the folder itself
	dirs   []string // the layout's folders, slash-separated, in order
	readme bool
}

// initRefusal is why a folder cannot be made a vault: kind names the
// message, path the place in the way, err an unexpected error.
type initRefusal struct {
	kind, path string
	err        error
}

// planVault looks at dir and says what makes it a vault, writing nothing:
// every refusal comes before the first write.
func planVault(dir string) (vaultMade, initRefusal) {
	var m vaultMade
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if pst, perr := os.Stat(filepath.Dir(dir)); perr != nil || !pst.IsDir() {
			return m, initRefusal{kind: "noparent"}
		}
		m.mkdir, m.dirs, m.readme = true, vaultLayout(), true
		return m, initRefusal{}
	case err != nil:
		return m, initRefusal{kind: "error", err: err}
	case !st.IsDir():
		return m, initRefusal{kind: "notfolder"}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return m, initRefusal{kind: "error", err: err}
	}
	isVault, visible := false, false
	for _, e := range entries {
		switch name := e.Name(); {
		case (name == "10-episodes" || name == ".obsidian") && isDirEntry(dir, name):
			isVault = true
		case !strings.HasPrefix(name, "."):
			visible = true
		}
	}
	if visible && !isVault {
		return m, initRefusal{kind: "notempty"}
	}
	for _, d := range vaultLayout() {
		// Each folder on the way: 10-episodes before 10-episodes/projects.
		parts := strings.Split(d, "/")
		for i := range parts {
			p := strings.Join(parts[:i+1], "/")
			st, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p)))
			switch {
			case errors.Is(err, fs.ErrNotExist):
			case err != nil:
				return m, initRefusal{kind: "error", err: err}
			case !st.IsDir():
				return m, initRefusal{kind: "inway", path: p}
			}
		}
		if !isDirEntry(dir, d) {
			m.dirs = append(m.dirs, d)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, readmeName)); errors.Is(err, fs.ErrNotExist) {
		m.readme = true
	}
	return m, initRefusal{}
}

func isDirEntry(dir, p string) bool {
	st, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p)))
	return err == nil && st.IsDir()
}

// makeVault makes what planVault found missing: the folders through an
// os.Root on the vault (so that nothing lands outside it), then the README
// note as a one-write plan expecting no file there, under the vault's
// writer lock, as every call writes.
func makeVault(dir, lang string, m vaultMade) error {
	if m.mkdir {
		if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	for _, d := range m.dirs {
		if err := root.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	if !m.readme {
		return nil
	}
	return writeNew(dir, map[string]string{readmeName: initText().Readme.In(lang)})
}

// writeNew writes files (vault paths to texts) into the vault at dir in
// one plan, each expecting no file there: all of them or none (CONFLICT
// when one appeared meanwhile).
func writeNew(dir string, files map[string]string) error {
	v, err := vaultfs.Open(dir)
	if err != nil {
		return err
	}
	defer v.Close()
	l, err := v.Lock(context.Background())
	if err != nil {
		return err
	}
	defer l.Unlock()
	var p plan.Plan
	for _, name := range slices.Sorted(maps.Keys(files)) {
		p = append(p, plan.WriteOp(name, plan.Absent, files[name]))
	}
	return v.Apply(l, p)
}

// offerProject offers the first project of a vault that has none: on a
// terminal it asks; otherwise it prints the command and returns at once.
// given says the vault came from --vault, which the command then names.
func offerProject(g globals, env Env, given bool) int {
	r, code := openRunner(g, env)
	if r == nil {
		return code
	}
	defer r.close()
	out, code := r.call("mem_list", json.RawMessage(`{}`))
	if code != ExitOK {
		fmt.Fprintf(env.Stderr, "kessho: %s: %s\n", out.Error.Code, out.Error.Message)
		return code
	}
	var list tools.ListResult
	if err := json.Unmarshal(out.Result, &list); err != nil || len(list.Projects) > 0 {
		return ExitOK
	}
	msg := initText()
	cmd := "kessho init SLUG --summary \"…\""
	if given {
		cmd = "kessho --vault " + shellWord(g.vault) + " init SLUG --summary \"…\""
	}
	if !env.Terminal {
		fmt.Fprintln(env.Stdout, msg.Hint.In(g.lang, cmd))
		return ExitOK
	}
	in := bufio.NewReader(env.Stdin)
	fmt.Fprint(env.Stdout, msg.Ask.In(g.lang))
	if a := strings.ToLower(readLine(in)); a != "y" && a != "yes" && a != "o" && a != "oui" {
		fmt.Fprintln(env.Stdout, msg.Later.In(g.lang, cmd))
		return ExitOK
	}
	slug := askSlug(in, env, g.lang)
	if slug == "" {
		fmt.Fprintln(env.Stdout, msg.Later.In(g.lang, cmd))
		return ExitOK
	}
	fmt.Fprint(env.Stdout, msg.AskSummary.In(g.lang))
	args := map[string]string{"slug": slug}
	if s := readLine(in); s != "" {
		args["summary"] = s
	}
	raw, _ := json.Marshal(args)
	out, code = r.call("mem_init_project", raw)
	if out.Error != nil {
		fmt.Fprintf(env.Stderr, "kessho: %s: %s\n", out.Error.Code, out.Error.Message)
		return code
	}
	var res tools.InitResult
	if err := json.Unmarshal(out.Result, &res); err == nil {
		fmt.Fprintln(env.Stdout, res.SummaryMD)
	}
	return code
}

// askSlug asks for a project's slug until the answer is a valid one,
// saying what is wrong with each other; "" for an empty answer (or the
// end of input).
func askSlug(in *bufio.Reader, env Env, lang string) string {
	for {
		fmt.Fprint(env.Stdout, initText().AskSlug.In(lang))
		slug := readLine(in)
		if slug == "" {
			return ""
		}
		err := vault.CheckSlug("slug", slug)
		if err == nil {
			return slug
		}
		if fe, ok := fault.As(err); ok {
			fmt.Fprintln(env.Stdout, fe.Message(lang))
		}
	}
}

// readLine reads one line of an answer, trimmed; "" at the end of input.
func readLine(in *bufio.Reader) string {
	s, _ := in.ReadString('\n')
	return strings.TrimSpace(s)
}

// shellWord quotes s for a shell when it needs it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./") == "" {
		return s
	}
	return zshQuote(s)
}
