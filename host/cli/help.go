package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/tools"
)

// command is one of the CLI's own commands (a tool's friendly form comes
// from the catalogue instead): its name, its line in `kessho help`, and
// its whole help, which `kessho help NAME` and `kessho NAME --help` print.
// The list drives the help, `kessho help all` and the completion scripts,
// so that a command added here is offered everywhere.
type command struct {
	name, synopsis, about string
	usage                 func() string
}

// commands are the CLI's own commands, in the order help lists them.
func commands() []command {
	return []command{
		{"call", "[flags] call TOOL --json '{…}'", "run any tool; prints one JSON answer", func() string { return callUsage + "\n\n" + engineNote(oneShotEngine) + "\n\n" + globalFlags() }},
		{"script", "script [FILE]", "many calls, one JSON {tool, args} a line, on one warm engine", func() string { return scriptUsage + "\n\n" + engineNote(oneShotEngine) + "\n\n" + globalFlags() }},
		{"init", "init [--vault DIR]", "make a folder a vault, then offer its first project (init SLUG: a new project)", func() string { return initUsage + "\n" + globalFlags() }},
		{"hygiene", "hygiene init|check|trim [--root DIR]", "create, check or trim memory/SESSION_LOG.md and ACTIVE_PRIORITIES.md", func() string { return hygieneUsage + "\n" + engineNote(oneShotEngine) + "\n\n" + globalFlags() }},
		{"mcp", "mcp [--http ADDR …]", "serve every tool over MCP (stdio, or streamable HTTP)", func() string { return mcpUsage + "\n\n" + engineNote(serverEngine) + "\n\n" + globalFlags() }},
		{"catalog", "catalog", "every tool, parameter and error, as JSON", func() string { return catalogUsage }},
		{"help", "help [COMMAND|TOOL|all]", "this help, one command's or tool's, or all of it", func() string { return helpUsage }},
		{"completion", "completion bash|zsh|fish", "a shell completion script", func() string { return completionUsage }},
		{"version", "version, kessho --version", "version (module version and VCS revision) and compilation cache folder", func() string { return versionUsage }},
	}
}

const callUsage = "usage: kessho [global flags] call TOOL --json '{…}'\n\n--json - reads the arguments from standard input. `kessho catalog` lists the tools."

const catalogUsage = "usage: kessho catalog\n\nPrints every tool, its parameters and errors, as JSON."

const versionUsage = "usage: kessho version (or kessho --version)\n\nPrints this build's version (module version and VCS revision) and the\nfolder of the wasm module's compilation cache."

const helpUsage = `usage: kessho help [COMMAND|TOOL|all]

Without an argument, the commands and tools. With a command (call, init,
hygiene…), a tool's command (archive, phase…) or a tool's name
(mem_archive…), that one's help; with all, every help in one text, the
manual. A name that is none of these exits 2, listing the known ones.`

// engineNote says which engine a command runs without --engine, from the
// constants openEngine is given: the help cannot drift from what runs.
func engineNote(dflt string) string {
	if dflt == "native" {
		return "Engine: native by default (the core runs in this process); --engine wasm runs it in the WebAssembly sandbox."
	}
	return "Engine: the WebAssembly sandbox by default; --engine native runs the core in this process."
}

// globalFlags is the help of the flags every command takes.
func globalFlags() string {
	where := map[string]string{"native": "natively (in this process)", "wasm": "in the wasm sandbox"}
	return fmt.Sprintf(`Global flags (before or after the command):
  --vault DIR        the vault (else $KESSHO_VAULT, else the current folder if it holds 10-episodes/ or .obsidian/)
  --now RFC3339      the time of the call (default: now)
  --tz ZONE          the vault's IANA time zone (default: the host's)
  --lang en|fr       language of messages (default en)
  --engine wasm|native  where the core runs: by default %s for call, script,
                     init, hygiene and every tool's command; %s for mcp
  --timeout DURATION the deadline of each call, all its work included (default 10s)
`, where[oneShotEngine], where[serverEngine])
}

func printHelp(w io.Writer, lang string) {
	fmt.Fprintln(w, "kessho — an AI agent's memory in a plain Markdown vault.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  kessho %-38s %s\n", c.synopsis, c.about)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Tools:")
	for _, t := range tools.Specs() {
		fmt.Fprintf(w, "  kessho %-30s %s (%s)\n", t.CLI.Command+" "+strings.ToUpper(strings.Join(t.CLI.Args, " ")), t.Title.In(lang), t.Name)
	}
	fmt.Fprintln(w)
	fmt.Fprint(w, globalFlags())
	fmt.Fprintln(w, "\nExit status: 0 success, 1 tool error, 2 usage error.")
}

func printToolHelp(w io.Writer, t *catalog.Tool, lang string) {
	fmt.Fprintf(w, "usage: kessho %s", t.CLI.Command)
	for _, a := range t.CLI.Args {
		fmt.Fprintf(w, " %s", strings.ToUpper(a))
	}
	fmt.Fprintf(w, " [--param value…]\n       kessho call %s --json '{…}'\n", t.Name)
	if t.CLI.Command == "init" {
		fmt.Fprintln(w, "       kessho init [--vault DIR]   (no slug: make the folder a vault; kessho help init)")
	}
	fmt.Fprintf(w, "\n%s\n\nParameters:\n", t.Description.In(lang))
	for _, p := range t.Params {
		req := ""
		if p.Required {
			req = ", required"
		}
		if p.Default != nil {
			req += fmt.Sprintf(", default %v", p.Default)
		}
		if len(p.Enum) > 0 {
			req += ", one of " + strings.Join(p.Enum, "|")
		}
		fmt.Fprintf(w, "  --%s (%s%s)\n", strings.ReplaceAll(p.Name, "_", "-"), p.Type, req)
		if d := p.Description.In(lang); d != "" {
			fmt.Fprintf(w, "      %s\n", d)
		}
	}
	fmt.Fprintf(w, "\nErrors: %s\n\n%s\n\n%s", strings.Join(catalog.CodeNames(t.Errors), ", "), engineNote(oneShotEngine), globalFlags())
}

// runHelp is `kessho help [COMMAND|TOOL|all]`.
func runHelp(g globals, rest []string, env Env) int {
	switch {
	case len(rest) == 0:
		printHelp(env.Stdout, g.lang)
		return ExitOK
	case len(rest) > 1:
		return usage(env, usagef("help: one command or tool at most, not %q", rest))
	case rest[0] == "all":
		printManual(env.Stdout, g.lang)
		return ExitOK
	}
	name := rest[0]
	if name == "init" { // both the vault's init and mem_init_project's form
		fmt.Fprint(env.Stdout, initUsage+"\n")
		t, _ := tools.SpecByCommand("init")
		printToolHelp(env.Stdout, t, g.lang)
		return ExitOK
	}
	if c, ok := findCommand(name); ok {
		fmt.Fprint(env.Stdout, strings.TrimSuffix(c.usage(), "\n")+"\n")
		return ExitOK
	}
	if t, ok := tools.SpecByCommand(name); ok {
		printToolHelp(env.Stdout, t, g.lang)
		return ExitOK
	}
	if t, ok := tools.Spec(name); ok {
		printToolHelp(env.Stdout, t, g.lang)
		return ExitOK
	}
	known := strings.Join(helpTopics(), ", ")
	fmt.Fprintln(env.Stderr, "kessho help: "+say(g.lang,
		fmt.Sprintf("no command or tool is named %q; the known ones: %s (or a tool's name, mem_…)", name, known),
		fmt.Sprintf("aucune commande ni aucun outil ne s'appelle %q ; ceux qui existent : %s (ou le nom d'un outil, mem_…)", name, known)))
	return ExitUsage
}

// helpTopics are the names `kessho help` takes, besides the tools' names:
// the commands, the tools' commands and all.
func helpTopics() []string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	for _, t := range tools.Specs() {
		if !slices.Contains(names, t.CLI.Command) {
			names = append(names, t.CLI.Command)
		}
	}
	return append(names, "all")
}

// printManual is `kessho help all`: the general help, then every
// command's and every tool's, each under its name, the way a man page
// reads.
func printManual(w io.Writer, lang string) {
	printHelp(w, lang)
	for _, c := range commands() {
		fmt.Fprintf(w, "\n\n== kessho %s ==\n\n%s\n", c.name, c.usage())
	}
	for _, t := range tools.Specs() {
		fmt.Fprintf(w, "\n\n== kessho %s (%s) ==\n\n", t.CLI.Command, t.Name)
		printToolHelp(w, t, lang)
	}
}

// say is en, or fr when lang is fr: the CLI's own sentences.
func say(lang, en, fr string) string {
	if lang == "fr" {
		return fr
	}
	return en
}
