package cli

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/tools"
)

// runFriendly is a tool's friendly form: `kessho <command> <positional…>
// [--param value…]`, both drawn from the catalogue. String arrays take a
// repeated flag or a JSON array; objects take JSON. It prints the result's
// summary and warnings for people.
func runFriendly(g globals, t *catalog.Tool, rest []string, env Env) int {
	args, err := friendlyArgs(t, rest)
	if err != nil {
		fmt.Fprintf(env.Stderr, "kessho %s: %v\nRun `kessho %s --help` for usage.\n", t.CLI.Command, err, t.CLI.Command)
		return ExitUsage
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return usage(env, err)
	}
	out, code := execute(g, t.Name, raw, env)
	if out.Answer == nil {
		return code
	}
	if out.Error != nil {
		fmt.Fprintf(env.Stderr, "kessho: %s: %s\n", out.Error.Code, out.Error.Message)
		return code
	}
	var common tools.Common // every tool's result holds it
	if out.Result != nil && json.Unmarshal(out.Result, &common) != nil {
		env.Stdout.Write(out.Answer)
		return code
	}
	fmt.Fprintln(env.Stdout, common.SummaryMD)
	for _, w := range common.Warnings {
		fmt.Fprintf(env.Stdout, "warning: %s\n", w)
	}
	return code
}

func friendlyArgs(t *catalog.Tool, rest []string) (map[string]any, error) {
	args := map[string]any{}
	var positional []string
	err := commandLine{
		doubleDash: true,
		end:        endDropped,
		kind: func(_, name string) flagKind {
			switch p, ok := t.Param(name); {
			case !ok:
				return notFlag
			case p.Type == catalog.Boolean:
				return boolFlag
			}
			return valueFlag
		},
		set: func(name, val string) error {
			p, _ := t.Param(name)
			return setArg(args, p, val)
		},
		positional: func(a string) error {
			positional = append(positional, a)
			return nil
		},
		unknown:    func(_, name string) error { return fmt.Errorf("unknown flag --%s", name) },
		needsValue: func(name string) error { return fmt.Errorf("flag --%s needs a value", name) },
	}.parse(rest)
	if err != nil {
		return nil, err
	}
	if len(positional) > len(t.CLI.Args) {
		return nil, fmt.Errorf("too many arguments: %q (expected %s)", positional[len(t.CLI.Args):], strings.Join(t.CLI.Args, " "))
	}
	for i, v := range positional {
		p, _ := t.Param(t.CLI.Args[i])
		if _, dup := args[p.Name]; dup && p.Type != catalog.Array {
			return nil, fmt.Errorf("%s given twice", p.Name)
		}
		if err := setArg(args, p, v); err != nil {
			return nil, err
		}
	}
	return args, nil
}

// setArg converts a command-line string to the parameter's JSON type.
func setArg(args map[string]any, p *catalog.Param, val string) error {
	switch p.Type {
	case catalog.String:
		args[p.Name] = rawString(val)
	case catalog.Integer, catalog.Number:
		if _, err := strconv.ParseFloat(val, 64); err != nil {
			return fmt.Errorf("--%s must be a number, not %q", p.Name, val)
		}
		args[p.Name] = json.Number(val)
	case catalog.Boolean:
		b, err := strconv.ParseBool(val)
		if err != nil {
			return fmt.Errorf("--%s must be true or false, not %q", p.Name, val)
		}
		args[p.Name] = b
	case catalog.Array:
		if strings.HasPrefix(strings.TrimSpace(val), "[") {
			var v []any
			if err := json.Unmarshal([]byte(val), &v); err != nil {
				return fmt.Errorf("--%s: %v", p.Name, err)
			}
			args[p.Name] = v
			return nil
		}
		if p.Items != nil && p.Items.Type != catalog.String {
			return fmt.Errorf("--%s takes a JSON array", p.Name)
		}
		list, _ := args[p.Name].([]any)
		args[p.Name] = append(list, rawString(val))
	case catalog.Object:
		var v map[string]any
		if err := json.Unmarshal([]byte(val), &v); err != nil {
			return fmt.Errorf("--%s takes a JSON object: %v", p.Name, err)
		}
		args[p.Name] = v
	}
	return nil
}

// rawString is a command-line string as JSON, its bytes kept: json.Marshal
// would turn bytes that are not UTF-8 into U+FFFD unseen, where the core
// refuses them naming the parameter (INVALID_ARGUMENT), as for --json.
func rawString(s string) json.RawMessage {
	var b []byte
	for len(s) > 0 {
		n := 0
		for n < len(s) {
			r, w := utf8.DecodeRuneInString(s[n:])
			if r == utf8.RuneError && w == 1 {
				break
			}
			n += w
		}
		q, _ := json.Marshal(s[:n])
		b = append(b, q[1:len(q)-1]...)
		if n < len(s) {
			b = append(b, s[n]) // an invalid byte, as it came
			n++
		}
		s = s[n:]
	}
	return json.RawMessage(append(append([]byte{'"'}, b...), '"'))
}
