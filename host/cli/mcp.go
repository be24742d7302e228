package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/mcp"
	"github.com/kessho/kessho/host/vaultfs"
)

const mcpUsage = `usage: kessho [global flags] mcp [--http ADDR [--token TOKEN | --no-auth] [--session-idle D]]

Serves every Kessho tool over MCP (Model Context Protocol) on the vault:
on standard input and output by default, the way MCP clients start the
servers they use; with --http, as streamable HTTP at http://ADDR/mcp.

  --http ADDR    listen on ADDR; a missing host is loopback (:7777 is
                 127.0.0.1:7777). Any other address needs --token.
  --token TOKEN  require "Authorization: Bearer TOKEN" on every HTTP
                 request (default $KESSHO_MCP_TOKEN; without either, a
                 token generated once and kept, readable by you alone, in
                 your config directory's kessho/mcp-token).
  --no-auth      on a loopback address, ask no token: then any program of
                 any user of this machine can read and change the vault.
  --session-idle D  close a session after D without a request (default
                 30m; e.g. 10m, 2h); its client then starts a new one.

Calls run in the WebAssembly sandbox, which starts in the background;
until it has (a first start compiles it: seconds, a minute on a busy
machine), they run on the native engine, the same core with the same
answers, and standard error says so. --engine wasm waits for the
sandbox instead; --engine native never starts it.

--lang picks the language of the tools' descriptions and messages; --tz
the vault's zone (default the host's); --now fixes the time (for tests).`

// runMCP is `kessho mcp`: an MCP server over stdio or streamable HTTP.
// The engine starts in the background, so that the client's initialize
// is answered at once. Without --engine, calls run natively until the
// sandbox has started; with --engine wasm, the first tool call waits
// for it.
func runMCP(g globals, rest []string, env Env) int {
	f, err := mcpFlags(rest, env)
	if err != nil {
		return usage(env, err)
	}
	if err := f.checkAddr(); err != nil {
		return usage(env, err)
	}
	opts, err := mcpOptions(g, env)
	if err != nil {
		return usage(env, err)
	}
	if err := checkEngine(g.engine); err != nil {
		return usage(env, err)
	}
	if g.engine == "wasm" {
		if err := engine.Sandbox(); err != nil {
			return usage(env, usageError{err.Error()})
		}
	}
	dir, err := findVault(g, env)
	if err != nil {
		return usage(env, err)
	}
	v, err := vaultfs.Open(dir)
	if err != nil {
		return usage(env, usagef("vault %s: %v", dir, err))
	}
	defer v.Close()

	eng := startEngine(g.engine, opts.Timeout)
	defer eng.Close(context.Background())
	opts.Log = env.Stderr
	srv := mcp.NewServer(v, eng, opts)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if f.addr == "" {
		err = mcp.ServeStdio(ctx, srv, env.Stdin, env.Stdout)
	} else {
		err = serveHTTP(ctx, srv, f, env)
	}
	if err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		fmt.Fprintf(env.Stderr, "kessho mcp: %v\n", err)
		return ExitToolError
	}
	return ExitOK
}

// checkAddr checks the address --http gives (none: stdio) and its
// authentication, and puts the address in its final form.
func (f *mcpArgs) checkAddr() error {
	if f.addr == "" {
		return nil
	}
	addr, err := mcp.ListenAddr(f.addr, f.http.Token)
	if err != nil {
		if f.noAuth {
			return usagef("--no-auth is for loopback addresses only (127.0.0.1, [::1], localhost); %s needs --token", addr)
		}
		return usageError{err.Error()}
	}
	f.addr = addr
	if f.noAuth && f.http.Token != "" {
		return usagef("--no-auth asks no token, but one is given (--token or $KESSHO_MCP_TOKEN): keep one of the two")
	}
	return nil
}

// startEngine starts the server's engine in the background: the one
// --engine names (name), or by default the sandbox with the native engine
// serving until it has started.
func startEngine(name string, timeout time.Duration) *mcp.Pending {
	open := func(ctx context.Context) (mcp.Engine, error) {
		return openEngine(ctx, name, serverEngine, timeout)
	}
	if name != "" {
		return mcp.Background(open)
	}
	if why := engine.Missing(); why != nil {
		// A binary without the sandbox (`go install`) serves natively,
		// and says so and how to get it.
		return mcp.Without(engine.Native(), why)
	}
	// The sandbox, and the native engine until it has started: a cold
	// cache's compilation takes seconds, a minute on a busy machine. A
	// sandbox that turns out impossible to build leaves the native engine
	// serving for good.
	return mcp.Interim(func(ctx context.Context) (mcp.Engine, error) {
		e, err := open(ctx)
		if errors.Is(err, engine.ErrNoSandbox) {
			return nil, mcp.Unavailable{Err: err}
		}
		return e, err
	}, engine.Native())
}

// serveHTTP listens on f.addr and says where on standard error, and
// what clients must send: without --token nor --no-auth, the token of
// [mcp.TokenFile] in the user's config directory.
func serveHTTP(ctx context.Context, srv *sdk.Server, f mcpArgs, env Env) error {
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return err
	}
	url := fmt.Sprintf("http://%s%s", ln.Addr(), mcp.Path)
	switch {
	case f.noAuth:
		fmt.Fprintf(env.Stderr, "kessho mcp: --no-auth: no token asked; any program run by any user of this machine can read and change the vault at %s\n", url)
	case f.http.Token == "":
		config, err := os.UserConfigDir()
		if err == nil {
			f.http.Token, config, err = mcp.TokenFile(config)
			f.http.TokenPath = config
		}
		if err != nil {
			ln.Close()
			return fmt.Errorf("no token to ask of clients (%v): pass --token, or --no-auth", err)
		}
		fmt.Fprintf(env.Stderr, "kessho mcp: clients must send the header \"Authorization: Bearer <token>\", the token in %s (readable by you alone), e.g.\n"+
			"  claude mcp add --transport http kessho %s --header \"Authorization: Bearer $(cat '%s')\"\n", config, url, config)
	}
	fmt.Fprintf(env.Stderr, "kessho mcp: serving %s\n", url)
	return mcp.ServeHTTP(ctx, srv, ln, f.http)
}

// mcpArgs are `kessho mcp`'s own flags.
type mcpArgs struct {
	addr   string          // --http, "" for stdio
	http   mcp.HTTPOptions // --token, --session-idle
	noAuth bool            // --no-auth
}

// mcpFlags reads `--http ADDR`, `--token TOKEN`, `--no-auth` and
// `--session-idle D` (each also as --flag=value).
func mcpFlags(rest []string, env Env) (f mcpArgs, err error) {
	f.http.Token = env.Getenv("KESSHO_MCP_TOKEN")
	unexpected := func(arg, _ string) error { return usagef("mcp: unexpected argument %q", arg) }
	err = commandLine{
		flags: map[string]flagKind{"http": valueFlag, "token": valueFlag, "session-idle": valueFlag, "no-auth": boolFlag},
		set: func(name, val string) error {
			switch name {
			case "http":
				f.addr = val
			case "token":
				f.http.Token = val
			case "no-auth":
				if val != "true" && val != "false" {
					return usagef("--no-auth takes no value (or true or false), not %q", val)
				}
				f.noAuth = val == "true"
			default:
				d, err := time.ParseDuration(val)
				if err != nil || d <= 0 {
					return usagef("--session-idle %q is not a duration above zero (e.g. 30m, 2h)", val)
				}
				f.http.SessionIdle = d
			}
			return nil
		},
		positional: func(a string) error { return unexpected(a, "") },
		unknown:    unexpected,
		needsValue: func(name string) error { return usagef("--%s needs a value", name) },
	}.parse(rest)
	return f, err
}

// mcpOptions turns the global flags into the server's options: each call
// runs at time.Now() unless --now fixes it, in --tz (default the host's
// zone), in --lang.
func mcpOptions(g globals, env Env) (mcp.Options, error) {
	now, tz, err := timeFlags(g, env)
	if err != nil {
		return mcp.Options{}, err
	}
	timeout, err := timeoutFlag(g)
	if err != nil {
		return mcp.Options{}, err
	}
	opts := mcp.Options{Lang: g.lang, TZ: tz, Timeout: timeout}
	if !now.IsZero() {
		opts.Now = func() time.Time { return now }
	}
	return opts, nil
}
