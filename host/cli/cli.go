// Package cli is the kessho command line. Run is the whole program, so
// that tests drive it exactly as a user does:
//
//	kessho [--vault DIR] [--now RFC3339] [--tz ZONE] [--lang en|fr] [--engine wasm|native] [--timeout DURATION] call TOOL --json '{…}'
//	kessho phase alpha rédaction
//	kessho summary alpha "Writing the user guide; chapter 3 next."
//	kessho catalog
//
// `call` prints the answer as one JSON object and exits 0 on success, 1 on a
// tool error, 2 on a usage error. Global flags go before or after the
// subcommand. Friendly forms (one per catalogue tool, named by its CLI
// command) print the summary for people instead, with the same exit codes.
package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/tools"
	"github.com/kessho/kessho/host/buildinfo"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/vaultfs"
)

// Exit codes.
const (
	ExitOK        = 0
	ExitToolError = 1
	ExitUsage     = 2
)

// Env is what the program reads from its surroundings; tests fake it.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	Getwd          func() (string, error)
	// Terminal says standard input is a terminal: a command may then ask
	// a question (kessho init offers the first project); otherwise it
	// never waits for an answer.
	Terminal bool
}

// Main runs kessho with the process's real surroundings. A one-shot
// command collects garbage late (collectLate).
func Main() int {
	if oneShot(os.Args[1:]) {
		collectLate(lateHeap)
	}
	return Run(os.Args[1:], Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Getwd: os.Getwd, Terminal: isTerminal(os.Stdin)})
}

// globals are the flags every subcommand accepts.
type globals struct {
	vault, now, tz, lang, engine, timeout string
	help, version                         bool
}

// usageError is a mistake on the command line: exit 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// splitGlobals takes the global flags out of args, wherever they stand,
// and returns the rest in order. "--" ends flag parsing (and stays in the
// rest, for the command).
func splitGlobals(args []string) (globals, []string, error) {
	var g globals
	var rest []string
	values := map[string]*string{"vault": &g.vault, "now": &g.now, "tz": &g.tz, "lang": &g.lang, "engine": &g.engine, "timeout": &g.timeout}
	err := commandLine{
		end: endKept,
		kind: func(arg, name string) flagKind {
			if _, ok := values[name]; ok {
				return valueFlag
			}
			if arg == "-h" || arg == "--help" || arg == "-help" || arg == "--version" || arg == "-version" {
				return switchFlag
			}
			return notFlag
		},
		set: func(name, val string) error {
			if p, ok := values[name]; ok {
				*p = val
			} else if name == "version" {
				g.version = true
			} else {
				g.help = true
			}
			return nil
		},
		positional: func(a string) error {
			rest = append(rest, a)
			return nil
		},
		needsValue: func(name string) error { return usagef("flag --%s needs a value", name) },
	}.parse(args)
	return g, rest, err
}

// Run runs kessho with args (without the program name) and returns the
// exit code.
func Run(args []string, env Env) int {
	g, rest, err := splitGlobals(args)
	if err != nil {
		return usage(env, err)
	}
	if g.lang == "" {
		g.lang = "en"
	}
	if g.lang != "en" && g.lang != "fr" {
		return usage(env, usagef("--lang must be en or fr, not %q", g.lang))
	}
	if g.version {
		return printVersion(env)
	}
	if len(rest) == 0 {
		if g.help {
			printHelp(env.Stdout, g.lang)
			return ExitOK
		}
		return usage(env, usagef("no command given"))
	}
	cmd, rest := rest[0], rest[1:]
	if _, own := findCommand(cmd); own && g.help && cmd != "help" {
		return runHelp(g, []string{cmd}, env)
	}
	switch cmd {
	case "help":
		return runHelp(g, rest, env)
	case "catalog":
		return printCatalog(env)
	case "version":
		return printVersion(env)
	case "completion":
		return runCompletion(g, rest, env)
	case "init":
		// Without an argument, the vault's init; with one (a slug, a
		// --flag), mem_init_project's friendly form (RATIONALE.md, "Why
		// is `kessho init` both the vault's and a project's?").
		if len(rest) == 0 {
			return runInit(g, env)
		}
	}
	if run, ok := ownRunners[cmd]; ok {
		return run(g, rest, env)
	}
	if t, ok := tools.SpecByCommand(cmd); ok {
		if g.help {
			printToolHelp(env.Stdout, t, g.lang)
			return ExitOK
		}
		return runFriendly(g, t, rest, env)
	}
	return usage(env, usagef("unknown command %q; `kessho help` lists the commands", cmd))
}

// ownRunners are the commands that read their own arguments.
var ownRunners = map[string]func(globals, []string, Env) int{
	"call": runCall, "script": runScript, "mcp": runMCP, "check": runCheck, "hygiene": runHygiene,
}

func usage(env Env, err error) int {
	fmt.Fprintf(env.Stderr, "kessho: %v\nRun `kessho help` for usage.\n", err)
	return ExitUsage
}

// runCall is `kessho call TOOL --json '{…}'`.
func runCall(g globals, rest []string, env Env) int {
	if len(rest) == 0 {
		fmt.Fprintln(env.Stderr, callUsage)
		return ExitUsage
	}
	tool, rest := rest[0], rest[1:]
	argsJSON := "{}"
	unexpected := func(arg, _ string) error {
		return usagef("call: unexpected argument %q (arguments go in --json)", arg)
	}
	err := commandLine{
		flags: map[string]flagKind{"json": valueFlag},
		set: func(_, val string) error {
			argsJSON = val
			return nil
		},
		positional: func(a string) error { return unexpected(a, "") },
		unknown:    unexpected,
		needsValue: func(string) error { return usagef("--json needs a value") },
	}.parse(rest)
	if err != nil {
		return usage(env, err)
	}
	if argsJSON == "-" {
		b, err := io.ReadAll(env.Stdin)
		if err != nil {
			return usage(env, usagef("reading --json from standard input: %v", err))
		}
		argsJSON = string(b)
	}
	if !json.Valid([]byte(argsJSON)) {
		return usage(env, usagef("--json is not valid JSON: %s", argsJSON))
	}
	out, code := execute(g, tool, json.RawMessage(argsJSON), env)
	if out.Answer != nil {
		env.Stdout.Write(out.Answer)
		fmt.Fprintln(env.Stdout)
	}
	return code
}

// execute opens the vault and the engine and runs one call.
func execute(g globals, tool string, args json.RawMessage, env Env) (call.Outcome, int) {
	r, code := openRunner(g, env)
	if r == nil {
		return call.Outcome{}, code
	}
	defer r.close()
	return r.call(tool, args)
}

// runner is an open vault and a started engine: one call, or a script of
// them on one warm engine.
type runner struct {
	ctx   context.Context
	env   Env
	eng   engine.Engine
	v     *vaultfs.Vault
	fixed time.Time // --now, or zero
	opts  call.Options
}

// openRunner checks the flags, finds the vault and starts the engine; on
// failure it reports and returns the exit code.
func openRunner(g globals, env Env) (*runner, int) {
	dir, err := findVault(g, env)
	if err != nil {
		return nil, usage(env, err)
	}
	now, tz, err := timeFlags(g, env)
	if err != nil {
		return nil, usage(env, err)
	}
	timeout, err := timeoutFlag(g)
	if err != nil {
		return nil, usage(env, err)
	}
	ctx := context.Background()
	eng, err := openEngine(ctx, g.engine, oneShotEngine, timeout)
	if err != nil {
		if _, ok := err.(usageError); ok {
			return nil, usage(env, err)
		}
		fmt.Fprintf(env.Stderr, "kessho: %v\n", err)
		return nil, ExitToolError
	}
	v, err := vaultfs.Open(dir)
	if err != nil {
		eng.Close(ctx)
		return nil, usage(env, usagef("vault %s: %v", dir, err))
	}
	return &runner{ctx: ctx, env: env, eng: eng, v: v, fixed: now, opts: call.Options{TZ: tz, Lang: g.lang, Timeout: timeout}}, ExitOK
}

func (r *runner) close() {
	r.v.Close()
	r.eng.Close(r.ctx)
}

// call runs one tool: exit 0 on success, 1 on a refusal or a failure.
// A failure of the engine itself is answered as an INTERNAL refusal
// naming it, so that every call prints one answer (a script's answers
// line up with its calls) and the friendly forms say it once, as they say
// every refusal.
func (r *runner) call(tool string, args json.RawMessage) (call.Outcome, int) {
	opts := r.opts
	opts.Now = r.fixed
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	out, err := call.Run(r.ctx, r.v, r.eng, tool, args, opts)
	if err != nil {
		return call.Refusal(err, opts.Lang), ExitToolError
	}
	if !out.OK {
		return out, ExitToolError
	}
	return out, ExitOK
}

// timeoutFlag reads --timeout: each call's deadline, a Go duration
// (call.DefaultTimeout when absent).
func timeoutFlag(g globals) (time.Duration, error) {
	if g.timeout == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(g.timeout)
	if err != nil || d <= 0 {
		return 0, usagef("--timeout %q is not a duration above zero (e.g. 30s, 2m)", g.timeout)
	}
	return d, nil
}

// timeFlags reads --now (zero when absent: each call takes the time it
// runs at) and --tz (default the host's zone).
func timeFlags(g globals, env Env) (now time.Time, tz string, err error) {
	if g.now != "" {
		if now, err = time.Parse(time.RFC3339, g.now); err != nil {
			return now, "", usagef("--now %q is not RFC 3339 (e.g. 2026-11-30T10:15:00+01:00)", g.now)
		}
	}
	tz = g.tz
	if tz == "" {
		tz = localZone(env)
	}
	if _, err := time.LoadLocation(tz); err != nil {
		return now, "", usagef("--tz %q is not an IANA time zone (e.g. Europe/Paris)", tz)
	}
	return now, tz, nil
}

// checkEngine refuses an --engine that names no engine.
func checkEngine(name string) error {
	switch name {
	case "", "wasm", "native":
		return nil
	}
	return usagef("--engine must be wasm or native, not %q", name)
}

// The engines a command runs without --engine. A one-shot command's whole
// process is the engine's start-up: the native engine answers a call in
// about 15 ms where the wasm one first loads some 30 MB of compiled code
// (a quarter of a second or more). The MCP server starts its engine once,
// in the background, and keeps it: it keeps the sandbox. RATIONALE.md,
// "Why does the CLI run the core natively by default?".
const (
	oneShotEngine = "native"
	serverEngine  = "wasm"
)

// openEngine starts the engine --engine names, or dflt without the flag.
// A wasm engine bounds one run of the core by timeout, the call's own
// deadline (--timeout): its default bound (engine.DefaultCallTimeout)
// would otherwise cut a longer call short, and answer it as the engine's
// limit rather than as the call's deadline.
func openEngine(ctx context.Context, name, dflt string, timeout time.Duration) (engine.Engine, error) {
	if err := checkEngine(name); err != nil {
		return nil, err
	}
	if name == "" {
		name = dflt
	}
	if name == "native" {
		return engine.Native(), nil
	}
	return engine.NewWasm(ctx, engine.WasmOptions{CallTimeout: timeout})
}

// findVault picks the vault: --vault, else KESSHO_VAULT, else the current
// folder when it holds 10-episodes/ or .obsidian/.
func findVault(g globals, env Env) (string, error) {
	if g.vault != "" {
		return g.vault, nil
	}
	if d := env.Getenv("KESSHO_VAULT"); d != "" {
		return d, nil
	}
	wd, err := env.Getwd()
	if err != nil {
		return "", usagef("no vault: pass --vault DIR or set KESSHO_VAULT (%v)", err)
	}
	for _, marker := range []string{"10-episodes", ".obsidian"} {
		if st, err := os.Stat(filepath.Join(wd, marker)); err == nil && st.IsDir() {
			return wd, nil
		}
	}
	return "", usagef("no vault: pass --vault DIR, set KESSHO_VAULT, or run inside a vault (a folder holding 10-episodes/ or .obsidian/)")
}

// localZone names the host's IANA zone: $TZ when it is one, else the
// target of /etc/localtime, else UTC.
func localZone(env Env) string {
	if tz := strings.TrimPrefix(env.Getenv("TZ"), ":"); tz != "" {
		if _, err := time.LoadLocation(tz); err == nil {
			return tz
		}
	}
	if target, err := os.Readlink("/etc/localtime"); err == nil {
		if _, name, ok := strings.Cut(target, "zoneinfo/"); ok {
			if _, err := time.LoadLocation(name); err == nil {
				return name
			}
		}
	}
	return "UTC"
}

func printCatalog(env Env) int {
	type entry struct {
		*catalog.Tool
		InputSchema map[string]any `json:"input_schema"`
	}
	var all []entry
	for _, t := range tools.Specs() {
		all = append(all, entry{t, t.Schema("en")})
	}
	b, err := json.MarshalIndent(map[string]any{"tools": all, "shared_errors": catalog.Shared}, "", "  ")
	if err != nil {
		fmt.Fprintf(env.Stderr, "kessho: %v\n", err)
		return ExitToolError
	}
	env.Stdout.Write(b)
	fmt.Fprintln(env.Stdout)
	return ExitOK
}

// printVersion prints the version of this build (module version and VCS
// revision, see host/buildinfo) and the compilation cache folder: what
// `kessho version` and `kessho --version` print.
func printVersion(env Env) int {
	dir, err := engine.CacheDir()
	if err != nil {
		dir = "(none: " + err.Error() + ")"
	}
	sandbox := "embedded"
	if !engine.Embedded() {
		sandbox = "not embedded: built from the source tree on first use when it is there, else every tool runs on the native engine"
	}
	fmt.Fprintf(env.Stdout, "kessho %s\nwazero %s\nsandbox: %s\ncompilation cache: %s\n", buildinfo.Version(), buildinfo.Wazero(), sandbox, dir)
	return ExitOK
}
