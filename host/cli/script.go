package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

const scriptUsage = `usage: kessho [global flags] script [FILE]

Runs a script of calls, one JSON object a line, {"tool":"…","args":{…}},
read from FILE or standard input, on one engine (started once, so a call
costs milliseconds, not a process start). Blank lines and lines starting
with # are skipped. Each call is all or nothing by itself; the script goes
on after a refusal. Prints one answer a line, as kessho call does; exit 0
when every call succeeded, 1 when any was refused, 2 on a malformed line
(nothing after it runs).`

// runScript is `kessho script [FILE]` (SPEC section 8: "one call or a
// script of calls").
func runScript(g globals, rest []string, env Env) int {
	if len(rest) > 1 {
		return usage(env, usagef("script: one file at most, not %q", rest))
	}
	in := env.Stdin
	name := "standard input"
	if len(rest) == 1 && rest[0] != "-" {
		f, err := os.Open(rest[0])
		if err != nil {
			return usage(env, usagef("script: %v", err))
		}
		defer f.Close()
		in, name = f, rest[0]
	}
	r, code := openRunner(g, env)
	if r == nil {
		return code
	}
	defer r.close()
	return script(r, in, name, env)
}

func script(r *runner, in io.Reader, name string, env Env) int {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	code := ExitOK
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var step struct {
			Tool string          `json:"tool"`
			Args json.RawMessage `json:"args"`
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&step); err != nil || step.Tool == "" {
			if err == nil {
				err = fmt.Errorf(`no "tool"`)
			}
			return usage(env, usagef(`%s line %d: want {"tool":"…","args":{…}}: %v`, name, n, err))
		}
		out, c := r.call(step.Tool, step.Args)
		if out.Answer != nil {
			env.Stdout.Write(out.Answer)
			fmt.Fprintln(env.Stdout)
		}
		if c != ExitOK {
			code = ExitToolError
		}
	}
	if err := sc.Err(); err != nil {
		return usage(env, usagef("script: reading %s: %v", name, err))
	}
	return code
}
