package cli

import (
	"fmt"
	"strings"
	"testing"
)

// TestCommandLine reads the same kinds of lines every command takes
// through the one parser: both spellings of a value, a value starting
// with a dash, repeated flags, switches and booleans, "--", and the
// refusals.
func TestCommandLine(t *testing.T) {
	parse := func(c commandLine, args ...string) string {
		var got []string
		c.set = func(name, val string) error {
			got = append(got, name+"="+val)
			return nil
		}
		c.positional = func(a string) error {
			got = append(got, a)
			return nil
		}
		c.needsValue = func(name string) error { return fmt.Errorf("needs %s", name) }
		if err := c.parse(args); err != nil {
			got = append(got, "error: "+err.Error())
		}
		return strings.Join(got, " ")
	}
	anyDash := commandLine{flags: map[string]flagKind{"root": valueFlag, "json": switchFlag}}
	strict := anyDash
	strict.unknown = func(arg, name string) error { return fmt.Errorf("unexpected %s", arg) }
	friendly := commandLine{doubleDash: true, end: endDropped,
		flags:   map[string]flagKind{"dry_run": boolFlag, "tag": valueFlag},
		unknown: func(_, name string) error { return fmt.Errorf("unknown --%s", name) }}
	kept := anyDash
	kept.end = endKept
	for _, c := range []struct {
		line commandLine
		args []string
		want string
	}{
		{anyDash, []string{"a", "--root", "x", "-root=y", "---json", "b"}, "a root=x root=y json=true b"},
		{anyDash, []string{"--root", "-x"}, "root=-x"},
		{anyDash, []string{"--root"}, "error: needs root"},
		{anyDash, []string{"--other", "-", "--json=1"}, "--other - --json=1"},
		{strict, []string{"--json=1"}, "error: unexpected --json=1"},
		{strict, []string{"a", "--other", "b"}, "a error: unexpected --other"},
		{strict, []string{"--"}, "error: unexpected --"},
		{kept, []string{"x", "--", "--root", "y"}, "x -- --root y"},
		{friendly, []string{"--dry-run", "p", "--dry_run", "false", "--dry-run=no", "-3"}, "dry_run=true p dry_run=false dry_run=no -3"},
		{friendly, []string{"--tag", "a", "--tag=b", "--", "--tag"}, "tag=a tag=b --tag"},
		{friendly, []string{"-tag", "--dry-run"}, "-tag dry_run=true"},
		{friendly, []string{"--nope"}, "error: unknown --nope"},
	} {
		if got := parse(c.line, c.args...); got != c.want {
			t.Errorf("parse(%q) = %q; want %q", c.args, got, c.want)
		}
	}
	g, rest, err := splitGlobals([]string{"-h", "phase", "--vault=v", "a", "--engine", "native", "--x", "--", "--now", "n"})
	if got, want := fmt.Sprintf("%v %q %q %q %q %v", g.help, g.vault, g.engine, g.now, rest, err), `true "v" "native" "" ["phase" "a" "--x" "--" "--now" "n"] <nil>`; got != want {
		t.Errorf("splitGlobals = %s; want %s", got, want)
	}
}
