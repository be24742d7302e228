package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kessho/kessho/core/tools"
)

// The end-to-end tests run the kessho binary as MCP clients do: a
// subprocess speaking MCP on its standard input and output.

var (
	binDir    string // holds the binary built for this test run
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

func TestMain(m *testing.M) {
	var err error
	binDir, err = os.MkdirTemp("", "kessho-mcp-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(binDir)
	os.Exit(code)
}

// kessho builds the kessho command once per test run and returns its path.
// The binary embeds the wasm module `make build` compiles, or, on a fresh
// clone, builds it on first use (see host/engine/module.go).
func kessho(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		binPath = filepath.Join(binDir, "kessho")
		out, err := exec.Command("go", "build", "-o", binPath, "github.com/kessho/kessho/host/cmd/kessho").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build ./host/cmd/kessho: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// kesshoCmd returns `kessho mcp` on the vault in dir with args, its
// standard error copied to the test log.
func kesshoCmd(t testing.TB, dir string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(kessho(t), append([]string{"mcp", "--vault", dir}, args...)...)
	cmd.Stderr = testLog{t}
	// The wasm engine's compilation cache, shared by this run's servers
	// (on Linux; os.UserCacheDir reads XDG_CACHE_HOME).
	// GOCACHE kept: on a fresh clone the binary builds the wasm core with
	// the go command, whose cache would otherwise move with XDG_CACHE_HOME.
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(binDir, "cache"), "GOCACHE="+goCache(t))
	return cmd
}

type testLog struct{ t testing.TB }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Logf("kessho: %s", bytes.TrimRight(p, "\n"))
	return len(p), nil
}

// stdioSession starts `kessho mcp` on dir and connects a client to it.
func stdioSession(t testing.TB, dir string, args ...string) *sdk.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hang)
	defer cancel()
	cmd := kesshoCmd(t, dir, args...)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("starting kessho mcp: %v", err)
	}
	t.Cleanup(func() {
		if err := cs.Close(); err != nil {
			t.Errorf("closing the session: %v", err)
		}
		if code := cmd.ProcessState.ExitCode(); code != 0 {
			t.Errorf("kessho mcp exited with %d; want 0 when the client closes", code)
		}
	})
	return cs
}

// TestStdio runs the binary over stdio: it lists every catalogue tool
// with its schema, sets a phase, and refuses an unknown slug.
func TestStdio(t *testing.T) {
	dir := newVault(t, "alpha")
	cs := stdioSession(t, dir, "--now", "2026-11-30T10:15:00+01:00", "--tz", "Europe/Paris", "--lang", "fr")
	listed, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(listed.Tools) != len(tools.Specs()) {
		t.Errorf("%d tools listed, the catalogue holds %d", len(listed.Tools), len(tools.Specs()))
	}
	for _, tool := range listed.Tools {
		want, ok := tools.Spec(tool.Name)
		if !ok {
			t.Errorf("tool %s is not in the catalogue", tool.Name)
			continue
		}
		if got, want := mustJSON(t, tool.InputSchema), mustJSON(t, roundTrip(t, want.Schema("fr"))); !bytes.Equal(got, want) {
			t.Errorf("%s: inputSchema\n got %s\nwant %s", tool.Name, got, want)
		}
		if tool.Description != want.Description.In("fr") {
			t.Errorf("%s: description %q; want the French one", tool.Name, tool.Description)
		}
	}

	if _, a := call(t, cs, "mem_update_phase", map[string]any{"slug": "alpha", "phase": "relecture"}); !a.OK {
		t.Fatalf("call refused: %+v", a.Error)
	}
	if got := phaseOf(contextOf(t, dir, "alpha")); got != "relecture" {
		t.Errorf("phase = %q; want relecture", got)
	}
	res, a := call(t, cs, "mem_update_phase", map[string]any{"slug": "beta", "phase": "x"})
	if !res.IsError || a.Error == nil || a.Error.Code != "UNKNOWN_SLUG" {
		t.Errorf("answer %+v; want UNKNOWN_SLUG", a.Error)
	}
}

// TestStdioMalformed writes raw JSON-RPC lines, some of them broken: the
// server answers each as it can and stays up.
func TestStdioMalformed(t *testing.T) {
	dir := newVault(t, "alpha")
	cmd := kesshoCmd(t, dir, "--engine", "native")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"mem_update_phase","arguments":{"slug":`,
		`{"hello":"world"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"mem_update_phase","arguments":"alpha"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"mem_nothing","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"mem_update_phase","arguments":{"slug":"alpha","phase":"still-up"}}}`,
	}
	type response struct {
		ID     any             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	got := map[string]response{}
	var rejected []string // the errors answered with a null id
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	readUntil := func(id string) {
		t.Helper()
		for got[id].ID == nil && sc.Scan() {
			var r response
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("the server wrote a line that is not JSON: %s", sc.Bytes())
			}
			if r.ID == nil {
				rejected = append(rejected, string(r.Error))
				continue
			}
			got[fmt.Sprint(r.ID)] = r
		}
		if got[id].ID == nil {
			t.Fatalf("no answer to request %s (the server stopped?): %v", id, sc.Err())
		}
	}
	for i, l := range lines {
		if _, err := io.WriteString(stdin, l+"\n"); err != nil {
			t.Fatalf("writing line %d: %v (the server stopped?)", i, err)
		}
		if i == 0 {
			readUntil("1")
		}
	}
	readUntil("5")
	readUntil("4")
	readUntil("3")
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("kessho mcp: %v", err)
	}

	if len(rejected) != 2 || !strings.Contains(rejected[0], "-32700") || !strings.Contains(rejected[1], "-32600") {
		t.Errorf("errors with a null id: %q; want a parse error, then an invalid request", rejected)
	}
	var r3 struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(got["3"].Result, &r3); err != nil || !r3.IsError || !strings.Contains(r3.Content[0].Text, "INVALID_ARGUMENT") {
		t.Errorf("arguments not an object: %s %s; want an INVALID_ARGUMENT tool error", got["3"].Result, got["3"].Error)
	}
	if got["4"].Error == nil {
		t.Errorf("unknown tool: result %s; want a protocol error", got["4"].Result)
	}
	if !strings.Contains(string(got["5"].Result), `\"previous_phase\":\"start\"`) {
		t.Errorf("the call after the broken ones: %s %s", got["5"].Result, got["5"].Error)
	}
	if got := phaseOf(contextOf(t, dir, "alpha")); got != "still-up" {
		t.Errorf("phase = %q; want still-up", got)
	}
}

// TestTwoServersHammer runs two server processes on one vault (as two
// agents would) and makes each call in parallel, alternately setting the
// phase and the summary of one project. Every call must succeed, and no
// update may be lost: each call reports the value it replaced, so the
// phase values must form one chain from the first to the file's last (a
// lost update would show as a value replaced twice, or never), and so
// must the summaries.
func TestTwoServersHammer(t *testing.T) {
	const (
		perWorker = 20
		workers   = 4
	)
	dir := newVault(t, "shared")
	type change struct{ prev, next string }
	var (
		mu        sync.Mutex
		phases    []change
		summaries []change
	)
	sessions := map[string]*sdk.ClientSession{}
	for _, name := range []string{"A", "B"} {
		sessions[name] = stdioSession(t, dir)
	}
	var wg sync.WaitGroup
	for name, cs := range sessions {
		for w := range workers {
			wg.Go(func() {
				for i := range perWorker {
					tool, key, val := "mem_update_phase", "phase", fmt.Sprintf("%s-%d-%d", name, w, i)
					if i%2 == 1 {
						tool, key, val = "mem_set_summary", "summary", fmt.Sprintf("Server %s, worker %d, call %d.", name, w, i)
					}
					res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: map[string]any{"slug": "shared", key: val}})
					if err != nil {
						t.Errorf("%s %s: %v", name, tool, err)
						return
					}
					text := res.Content[0].(*sdk.TextContent).Text
					if res.IsError {
						t.Errorf("%s %s=%q refused: %s", name, key, val, text)
						continue
					}
					var result map[string]any // a success's text is its result
					json.Unmarshal([]byte(text), &result)
					prev, _ := result["previous_"+key].(string)
					mu.Lock()
					if key == "phase" {
						phases = append(phases, change{prev, val})
					} else {
						summaries = append(summaries, change{prev, val})
					}
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	final := contextOf(t, dir, "shared")
	for _, c := range []struct {
		key, first string
		changes    []change
	}{{"phase", "start", phases}, {"summary", "Start.", summaries}} {
		next := map[string]string{}
		for _, ch := range c.changes {
			if other, dup := next[ch.prev]; dup {
				t.Errorf("%s %q was replaced twice, by %q and %q: an update was lost", c.key, ch.prev, other, ch.next)
			}
			next[ch.prev] = ch.next
		}
		last, n := c.first, 0
		for v, ok := next[last]; ok; v, ok = next[last] {
			last = v
			n++
		}
		if n != len(c.changes) {
			t.Errorf("%s: the chain of replaced values holds %d of %d calls: an update was lost", c.key, n, len(c.changes))
		}
		if got := field(final, c.key); got != last {
			t.Errorf("%s in the file = %q; want the last write, %q", c.key, got, last)
		}
	}
	if want := 2 * workers * perWorker / 2; len(phases) != want || len(summaries) != want {
		t.Errorf("%d phase and %d summary calls succeeded; want %d each", len(phases), len(summaries), want)
	}
}

// TestHTTPFlags checks `--http` against the binary: a non-loopback address
// without a token is a usage error; with a token the server listens, says
// where, and refuses requests without it.
func TestHTTPFlags(t *testing.T) {
	dir := newVault(t, "alpha")
	var stderr bytes.Buffer
	cmd := kesshoCmd(t, dir, "--http", "0.0.0.0:0")
	cmd.Stderr = &stderr
	err := cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(stderr.String(), "--token") {
		t.Errorf("kessho mcp --http 0.0.0.0:0 without --token: exit %d (%v), stderr %q; want 2 and a message naming --token", code, err, stderr.String())
	}

	cmd = kesshoCmd(t, dir, "--http", "127.0.0.1:0", "--token", "s3cret")
	cmd.Stderr = nil
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	sc := bufio.NewScanner(errPipe)
	var url string
	for url == "" && sc.Scan() {
		_, url, _ = strings.Cut(sc.Text(), "serving ")
	}
	if url == "" {
		t.Fatalf("kessho mcp --http never said where it listens: %v", sc.Err())
	}
	go io.Copy(io.Discard, errPipe)
	if code := post(t, url, ""); code != 401 {
		t.Errorf("POST without a token: %d; want 401", code)
	}
	cs, err := httpSession(t, url, "s3cret")
	if err != nil {
		t.Fatal(err)
	}
	if _, a := call(t, cs, "mem_update_phase", map[string]any{"slug": "alpha", "phase": "http"}); !a.OK {
		t.Errorf("call refused: %+v", a.Error)
	}
	cs.Close()
	cmd.Process.Signal(os.Interrupt)
	if err := cmd.Wait(); err != nil {
		t.Errorf("kessho mcp --http after SIGINT: %v; want exit 0", err)
	}
	if got := phaseOf(contextOf(t, dir, "alpha")); got != "http" {
		t.Errorf("phase = %q; want http", got)
	}
}

// goCache is the go command's build cache.
func goCache(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}
