package cli

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/tools"
)

const completionUsage = `usage: kessho completion bash|zsh|fish

Prints a completion script for the shell: the commands, the tools'
commands, each one's flags and the values of the flags that take a few
(--lang, --engine, a tool's enumerations). Load it with:

  bash   source <(kessho completion bash)      (or save it in
         ~/.local/share/bash-completion/completions/kessho)
  zsh    source <(kessho completion zsh)       (after compinit; or save it
         as _kessho in a folder of $fpath)
  fish   kessho completion fish > ~/.config/fish/completions/kessho.fish`

// runCompletion is `kessho completion bash|zsh|fish`.
func runCompletion(g globals, rest []string, env Env) int {
	if len(rest) != 1 {
		return usage(env, usagef("completion: name one shell: bash, zsh or fish"))
	}
	words := completionWords()
	switch rest[0] {
	case "bash":
		bashCompletion(env.Stdout, words)
	case "zsh":
		zshCompletion(env.Stdout, words)
	case "fish":
		fishCompletion(env.Stdout, words, g.lang)
	default:
		return usage(env, usagef("completion: %q is no shell Kessho completes; name bash, zsh or fish", rest[0]))
	}
	return ExitOK
}

// globalValueFlags are the global flags that take a value, as
// splitGlobals reads them; values are the values of those that take a
// few.
var (
	globalValueFlags = []string{"--vault", "--now", "--tz", "--lang", "--engine", "--timeout"}
	globalValues     = map[string][]string{"--lang": {"en", "fr"}, "--engine": {"wasm", "native"}}
)

// compWords is what the scripts complete, drawn from the command list and
// the catalogue.
type compWords struct {
	commands []string            // the commands and the tools' commands
	about    map[string]string   // each command's line of help
	flags    map[string][]string // each command's own flags
	values   map[string][]string // "command --flag": the values it takes
	dirFlags []string            // flags taking a folder
}

func completionWords() compWords {
	w := compWords{about: map[string]string{}, values: map[string][]string{}, dirFlags: []string{"--vault", "--root"},
		flags: map[string][]string{
			"call":       {"--json"},
			"hygiene":    {"init", "check", "trim", "--root", "--json"},
			"check":      {"--repair", "--format"},
			"mcp":        {"--http", "--token", "--no-auth", "--session-idle"},
			"completion": {"bash", "zsh", "fish"},
		}}
	for _, c := range commands() {
		w.commands = append(w.commands, c.name)
		w.about[c.name] = c.about
	}
	w.flags["help"] = helpTopics()
	var names []string
	for _, t := range tools.Specs() {
		names = append(names, t.Name)
		if !slices.Contains(w.commands, t.CLI.Command) {
			w.commands = append(w.commands, t.CLI.Command)
			w.about[t.CLI.Command] = t.Title.En + " (" + t.Name + ")"
		}
		if _, own := findCommand(t.CLI.Command); own && t.CLI.Command != "init" {
			continue // hygiene: the command reads its own flags, not the tool's
		}
		w.flags[t.CLI.Command] = append(w.flags[t.CLI.Command], toolFlags(t, w.values)...)
	}
	w.flags["call"] = append(w.flags["call"], names...)
	w.flags["help"] = append(w.flags["help"], names...)
	return w
}

// toolFlags are a tool's parameters as --flags, recording the values of
// those with an enumeration (and true|false for a boolean) in values.
func toolFlags(t *catalog.Tool, values map[string][]string) []string {
	var flags []string
	for _, p := range t.Params {
		f := "--" + strings.ReplaceAll(p.Name, "_", "-")
		flags = append(flags, f)
		switch {
		case len(p.Enum) > 0:
			values[t.CLI.Command+" "+f] = p.Enum
		case p.Type == catalog.Boolean:
			values[t.CLI.Command+" "+f] = []string{"true", "false"}
		}
	}
	return flags
}

// shellCases writes the part of the bash and zsh functions that is the
// same in both but for the shell's words: finding the command (the first
// word neither a flag nor a global flag's value), then completing the
// value of a flag that takes a folder or a few values. sh gives the
// shell's array of words, its first index and the current one, and how
// to offer folders and a list of words.
func shellCases(out io.Writer, w compWords, sh shellWords) {
	fmt.Fprintf(out, `    local cmd="" i
    for ((i = %s; i < %s; i++)); do
        case "${%s[i]}" in
            %s) ((i++)) ;;
            -*) ;;
            *) cmd="${%s[i]}"; break ;;
        esac
    done
    case "$prev" in
        %s) %s; return ;;
`, sh.first, sh.current, sh.words, strings.Join(globalValueFlags, "|"), sh.words, strings.Join(w.dirFlags, "|"), sh.dirs)
	for _, f := range globalValueFlags {
		if v, ok := globalValues[f]; ok {
			fmt.Fprintf(out, "        %s) %s; return ;;\n", f, sh.offer(v))
		}
	}
	fmt.Fprintf(out, "        %s) return ;;\n    esac\n    case \"$cmd $prev\" in\n", strings.Join(valueOnly(), "|"))
	for _, k := range slices.Sorted(maps.Keys(w.values)) {
		fmt.Fprintf(out, "        %q) %s; return ;;\n", k, sh.offer(w.values[k]))
	}
	fmt.Fprint(out, "    esac\n")
}

// shellWords is what shellCases needs of a shell.
type shellWords struct {
	words, first, current, dirs string
	offer                       func([]string) string
}

func bashCompletion(out io.Writer, w compWords) {
	fmt.Fprint(out, `# bash completion for kessho, printed by `+"`kessho completion bash`"+`.
# Load it with: source <(kessho completion bash)
_kessho() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
`)
	shellCases(out, w, shellWords{words: "COMP_WORDS", first: "1", current: "COMP_CWORD", dirs: `COMPREPLY=($(compgen -d -- "$cur"))`,
		offer: func(v []string) string {
			return fmt.Sprintf(`COMPREPLY=($(compgen -W %q -- "$cur"))`, strings.Join(v, " "))
		}})
	fmt.Fprintf(out, "    local words\n    case \"$cmd\" in\n        \"\") words=%q ;;\n", strings.Join(w.commands, " "))
	for _, c := range w.commands {
		if f := w.flags[c]; len(f) > 0 {
			fmt.Fprintf(out, "        %s) words=%q ;;\n", c, strings.Join(f, " "))
		}
	}
	fmt.Fprintf(out, `    esac
    COMPREPLY=($(compgen -W "$words %s --help" -- "$cur"))
}
complete -o default -F _kessho kessho
`, strings.Join(globalValueFlags, " "))
}

func zshCompletion(out io.Writer, w compWords) {
	fmt.Fprint(out, `#compdef kessho
# zsh completion for kessho, printed by `+"`kessho completion zsh`"+`.
# Load it with: source <(kessho completion zsh)   (after compinit)
_kessho() {
    local prev="${words[CURRENT-1]}"
`)
	shellCases(out, w, shellWords{words: "words", first: "2", current: "CURRENT", dirs: "_files -/",
		offer: func(v []string) string { return "compadd -- " + strings.Join(v, " ") }})
	fmt.Fprint(out, "    case \"$cmd\" in\n        \"\")\n            local -a cmds\n            cmds=(\n")
	for _, c := range w.commands {
		fmt.Fprintf(out, "                %s\n", zshQuote(c+":"+w.about[c]))
	}
	fmt.Fprint(out, "            )\n            _describe command cmds ;;\n")
	for _, c := range w.commands {
		if f := w.flags[c]; len(f) > 0 {
			fmt.Fprintf(out, "        %s) compadd -- %s ;;\n", c, strings.Join(f, " "))
		}
	}
	fmt.Fprintf(out, `    esac
    compadd -- %s --help
}
if [ "$funcstack[1]" = "_kessho" ]; then
    _kessho "$@"
else
    compdef _kessho kessho
fi
`, strings.Join(globalValueFlags, " "))
}

func fishCompletion(out io.Writer, w compWords, lang string) {
	fmt.Fprintln(out, "# fish completion for kessho, printed by `kessho completion fish`.")
	fmt.Fprintln(out, "# Save it as ~/.config/fish/completions/kessho.fish")
	fmt.Fprintln(out, "complete -c kessho -f")
	for _, f := range globalValueFlags {
		name := strings.TrimPrefix(f, "--")
		switch v, ok := globalValues[f]; {
		case ok:
			fmt.Fprintf(out, "complete -c kessho -l %s -x -a %s\n", name, fishQuote(strings.Join(v, " ")))
		case slices.Contains(w.dirFlags, f):
			fmt.Fprintf(out, "complete -c kessho -l %s -x -a '(__fish_complete_directories)'\n", name)
		default:
			fmt.Fprintf(out, "complete -c kessho -l %s -x\n", name)
		}
	}
	fmt.Fprintln(out, "complete -c kessho -l help -d help")
	about := w.about
	if lang == "fr" { // the tools' titles in French; the commands' lines are English
		about = map[string]string{}
		for k, v := range w.about {
			about[k] = v
		}
		for _, t := range tools.Specs() {
			if _, own := findCommand(t.CLI.Command); !own {
				about[t.CLI.Command] = t.Title.In("fr") + " (" + t.Name + ")"
			}
		}
	}
	for _, c := range w.commands {
		fmt.Fprintf(out, "complete -c kessho -n __fish_use_subcommand -a %s -d %s\n", c, fishQuote(about[c]))
	}
	for _, c := range w.commands {
		for _, f := range w.flags[c] {
			cond := fishQuote("__fish_seen_subcommand_from " + c)
			name, isFlag := strings.CutPrefix(f, "--")
			switch v, ok := w.values[c+" "+f]; {
			case !isFlag:
				fmt.Fprintf(out, "complete -c kessho -n %s -a %s\n", cond, f)
			case ok:
				fmt.Fprintf(out, "complete -c kessho -n %s -l %s -x -a %s\n", cond, name, fishQuote(strings.Join(v, " ")))
			case slices.Contains(w.dirFlags, f):
				fmt.Fprintf(out, "complete -c kessho -n %s -l %s -x -a '(__fish_complete_directories)'\n", cond, name)
			default:
				fmt.Fprintf(out, "complete -c kessho -n %s -l %s\n", cond, name)
			}
		}
	}
}

// valueOnly are the global flags whose value nothing completes.
func valueOnly() []string {
	var out []string
	for _, f := range globalValueFlags {
		if _, ok := globalValues[f]; !ok && f != "--vault" {
			out = append(out, f)
		}
	}
	return out
}

func findCommand(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// zshQuote and fishQuote single-quote s for the shell.
func zshQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func fishQuote(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}
