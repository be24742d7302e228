package cli

import "strings"

// flagKind says whether an argument is a flag of a command, and how it
// takes its value.
type flagKind int

const (
	notFlag    flagKind = iota // not a flag of this command
	valueFlag                  // --name VALUE or --name=VALUE; VALUE may start with a dash
	switchFlag                 // --name alone; --name=VALUE is an unexpected argument
	boolFlag                   // --name (true), --name true|false, or --name=VALUE
)

// commandLine is how one command reads its arguments; parse applies it.
// Every command of the CLI (the global flags, call, the friendly forms,
// hygiene, mcp, script) reads its arguments through it, so that they all
// take `--flag value` and `--flag=value`, in any order with the
// positional arguments, the last of a repeated flag winning unless the
// flag's setter collects them.
type commandLine struct {
	// doubleDash: only an argument starting with "--" is a flag (so -3 is
	// a positional argument), and dashes in its name read as underscores
	// (--dry-run is dry_run). Otherwise any number of dashes starts a
	// flag: -json, --json and ---json are the same.
	doubleDash bool
	// end is what a lone "--" does.
	end endMark
	// flags names the command's flags and their kinds; kind, when set,
	// says instead what the flag name, spelled arg on the command line, is.
	flags map[string]flagKind
	kind  func(arg, name string) flagKind
	// set receives each flag with its value ("true" for a switch or a
	// bare boolean), in order.
	set func(name, value string) error
	// positional receives each other argument, in order.
	positional func(arg string) error
	// unknown refuses an argument that looks like a flag but is none of
	// the command's (or a switch given a value). Nil passes it to
	// positional.
	unknown func(arg, name string) error
	// needsValue refuses a value flag last on the line.
	needsValue func(name string) error
}

// endMark is what a lone "--" does on a command line.
type endMark int

const (
	endIsArgument endMark = iota // an argument like any other: a flag named "", unknown
	endDropped                   // ends the flags; the arguments after it are positional
	endKept                      // ends the flags; it and the arguments after it are positional
)

// parse reads args left to right.
func (c commandLine) parse(args []string) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" && c.end != endIsArgument {
			if c.end == endDropped {
				i++
			}
			for _, p := range args[i:] {
				if err := c.positional(p); err != nil {
					return err
				}
			}
			return nil
		}
		name, val, hasVal, isFlag := c.split(a)
		kind := notFlag
		switch {
		case !isFlag:
		case c.kind != nil:
			kind = c.kind(a, name)
		default:
			kind = c.flags[name]
		}
		if kind == notFlag || (kind == switchFlag && hasVal) {
			if isFlag && c.unknown != nil {
				return c.unknown(a, name)
			}
			if err := c.positional(a); err != nil {
				return err
			}
			continue
		}
		if !hasVal {
			switch next := i + 1; {
			case kind == switchFlag:
				val = "true"
			case kind == boolFlag && (next >= len(args) || (args[next] != "true" && args[next] != "false")):
				val = "true"
			case next >= len(args):
				return c.needsValue(name)
			default:
				i = next
				val = args[i]
			}
		}
		if err := c.set(name, val); err != nil {
			return err
		}
	}
	return nil
}

// split reads a as a flag: its name, its =value if any, and whether it is
// spelled as a flag at all.
func (c commandLine) split(a string) (name, val string, hasVal, isFlag bool) {
	if c.doubleDash {
		rest, ok := strings.CutPrefix(a, "--")
		if !ok {
			return "", "", false, false
		}
		name, val, hasVal = strings.Cut(rest, "=")
		return strings.ReplaceAll(name, "-", "_"), val, hasVal, true
	}
	if !strings.HasPrefix(a, "-") {
		return "", "", false, false
	}
	name, val, hasVal = strings.Cut(strings.TrimLeft(a, "-"), "=")
	return name, val, hasVal, true
}
