package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	hostcall "github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/mcp"
)

func TestListenAddr(t *testing.T) {
	for _, tc := range []struct {
		addr, token, want string
		err               string
	}{
		{":7777", "", "127.0.0.1:7777", ""},
		{"127.0.0.1:7777", "", "127.0.0.1:7777", ""},
		{"localhost:0", "", "localhost:0", ""},
		{"[::1]:7777", "", "[::1]:7777", ""},
		{"0.0.0.0:7777", "", "", "--token"},
		{"0.0.0.0:7777", "s3cret", "0.0.0.0:7777", ""},
		{"[::]:7777", "", "", "--token"},
		{"192.168.1.20:7777", "", "", "--token"},
		{"kessho.example:7777", "", "", "--token"},
		{"7777", "", "", "HOST:PORT"},
	} {
		got, err := mcp.ListenAddr(tc.addr, tc.token)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ListenAddr(%q, %q) = %q, %v; want an error naming %s", tc.addr, tc.token, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ListenAddr(%q, %q) = %q, %v; want %q", tc.addr, tc.token, got, err, tc.want)
		}
	}
}

// bearerTransport adds a bearer token to every request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// httpSession connects a client to the streamable HTTP endpoint at url,
// sending token when it is not empty.
func httpSession(t *testing.T, url, token string) (*sdk.ClientSession, error) {
	t.Helper()
	client := http.DefaultClient
	if token != "" {
		client = &http.Client{Transport: bearerTransport{token}}
	}
	tr := &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: client, MaxRetries: -1}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), tr, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

// TestHTTP serves a vault over streamable HTTP, with and without a token:
// calls land, and a request without the right token is refused with 401.
func TestHTTP(t *testing.T) {
	dir := newVault(t, "alpha")
	srv := mcp.NewServer(openVault(t, dir), engine.Native(), mcp.Options{})

	t.Run("loopback without token", func(t *testing.T) {
		hs := httptest.NewServer(mcp.Handler(srv, mcp.HTTPOptions{}))
		t.Cleanup(hs.Close) // after the session's cleanup, which ends its event stream
		if code := postBody(t, hs.URL+mcp.Path, "", `{"jsonrpc":"2.0","id":1,"method":`); code != http.StatusBadRequest {
			t.Errorf("POST of broken JSON: status %d; want 400", code)
		}
		cs, err := httpSession(t, hs.URL+mcp.Path, "")
		if err != nil {
			t.Fatal(err)
		}
		if _, a := call(t, cs, "mem_update_phase", map[string]any{"slug": "alpha", "phase": "over-http"}); !a.OK {
			t.Fatalf("call refused: %+v", a.Error)
		}
		if got := phaseOf(contextOf(t, dir, "alpha")); got != "over-http" {
			t.Errorf("phase = %q; want over-http", got)
		}
	})

	t.Run("token", func(t *testing.T) {
		hs := httptest.NewServer(mcp.Handler(srv, mcp.HTTPOptions{Token: "s3cret"}))
		t.Cleanup(hs.Close)
		for _, auth := range []string{"", "Bearer wrong", "Bearer s3cret2", "Basic s3cret", "s3cret"} {
			if code := post(t, hs.URL+mcp.Path, auth); code != http.StatusUnauthorized {
				t.Errorf("POST with Authorization %q: status %d; want 401", auth, code)
			}
		}
		if code := post(t, hs.URL+mcp.Path, "Bearer s3cret"); code != http.StatusOK {
			t.Errorf("POST with the token: status %d; want 200", code)
		}
		if _, err := httpSession(t, hs.URL+mcp.Path, "wrong"); err == nil {
			t.Error("a client with the wrong token connected")
		}
		cs, err := httpSession(t, hs.URL+mcp.Path, "s3cret")
		if err != nil {
			t.Fatal(err)
		}
		if _, a := call(t, cs, "mem_set_summary", map[string]any{"slug": "alpha", "summary": "Over HTTP."}); !a.OK {
			t.Fatalf("call refused: %+v", a.Error)
		}
		if got := field(contextOf(t, dir, "alpha"), "summary"); got != "Over HTTP." {
			t.Errorf("summary = %q; want Over HTTP.", got)
		}
	})
}

// post sends an initialize request with the given Authorization header
// and returns the status.
func post(t *testing.T, url, auth string) int {
	t.Helper()
	return postBody(t, url, auth, initialize)
}

// initialize is a client's first request.
const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`

// postBody posts body as JSON with the given Authorization header and
// returns the status.
func postBody(t *testing.T, url, auth, body string) int {
	t.Helper()
	resp := send(t, "POST", url, body, "Authorization", auth)
	resp.Body.Close()
	return resp.StatusCode
}

// TestHTTPSessionsExpire abandons 2,000 sessions, twice, on a server
// whose idle sessions expire after a moment: once expired, they are gone
// from the server, and the second round leaves the heap where the first
// left it (what stays after the first is the tables' grown capacity, not
// the sessions). No session expires before they are all counted, however
// slow the machine: each initialize is held in its answer's write, and a
// session does not idle while a request of its own runs (the SDK starts
// its timer just before it pauses it for the initialize, hence one
// initialize at a time and an idle time far longer than that gap). The
// handler is called in the process, so that 2,000 requests held at once
// need no socket.
func TestHTTPSessionsExpire(t *testing.T) {
	const abandoned = 2000
	srv := mcp.NewServer(openVault(t, newVault(t, "alpha")), engine.Native(), mcp.Options{})
	h := mcp.Handler(srv, mcp.HTTPOptions{SessionIdle: 2 * time.Second})
	sessions := func() int {
		n := 0
		for range srv.Sessions() {
			n++
		}
		return n
	}
	start := heap()
	var before, during, after uint64
	for round := 1; round <= 2; round++ {
		before = heap()
		reached, gate := make(chan struct{}), make(chan struct{})
		codes := make(chan int, abandoned)
		for i := 0; i < abandoned; i++ {
			go func() {
				w := &heldWriter{header: http.Header{}, reached: reached, gate: gate}
				req := httptest.NewRequest("POST", mcp.Path, strings.NewReader(initialize))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				h.ServeHTTP(w, req)
				codes <- w.code
			}()
			select {
			case <-reached:
			case code := <-codes:
				t.Fatalf("initialize %d ended before its answer was written: status %d", i, code)
			}
		}
		if n := sessions(); n != abandoned {
			t.Fatalf("%d sessions open with %d initializations held; want %d", n, abandoned, abandoned)
		}
		during = heap()
		close(gate)
		for i := 0; i < abandoned; i++ {
			if code := <-codes; code != http.StatusOK {
				t.Fatalf("initialize: status %d", code)
			}
		}
		waitFor(t, "the abandoned sessions to expire", func() bool { return sessions() == 0 })
		after = heap()
		t.Logf("round %d: heap %d KiB before, %d KiB with %d sessions, %d KiB after expiry (%d KiB at the start)", round, before>>10, during>>10, abandoned, after>>10, start>>10)
	}
	if after > before+(during-before)/10 {
		t.Errorf("heap after the second expiry %d KiB; want near %d KiB (it was %d KiB with the sessions)", after>>10, before>>10, during>>10)
	}
}

// heldWriter is a response writer whose first write says so on reached,
// then waits for gate to close.
type heldWriter struct {
	header  http.Header
	code    int
	once    sync.Once
	reached chan<- struct{}
	gate    <-chan struct{}
}

func (w *heldWriter) Header() http.Header { return w.header }

func (w *heldWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

func (w *heldWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.once.Do(func() {
		w.reached <- struct{}{}
		<-w.gate
	})
	return len(p), nil
}

func (w *heldWriter) Flush() {}

// TestHTTPSessionIdleDefault: without SessionIdle, sessions expire after
// DefaultSessionIdle, 30 minutes.
func TestHTTPSessionIdleDefault(t *testing.T) {
	if mcp.DefaultSessionIdle != 30*time.Minute {
		t.Errorf("DefaultSessionIdle = %v; want 30m", mcp.DefaultSessionIdle)
	}
}

// heap is the live heap after a full collection.
func heap() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// waitFor polls cond until it holds, failing after hang (a bound on a
// hang, not on the time it takes).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(hang); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}

// slowEngine answers each call after a delay (a cold start, a big
// worklog), or not at all when the call is cancelled first.
type slowEngine struct{ delay time.Duration }

func (s slowEngine) Call(ctx context.Context, request []byte) ([]byte, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(s.delay):
	}
	return engine.Native().Call(ctx, request)
}

// serve runs ServeHTTP with o on a loopback port, on a vault with the
// project alpha, until the test ends and returns the port's address.
func serve(t *testing.T, eng hostcall.Engine, o mcp.HTTPOptions) string {
	t.Helper()
	srv := mcp.NewServer(openVault(t, newVault(t, "alpha")), eng, mcp.Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mcp.ServeHTTP(ctx, srv, ln, o) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ServeHTTP: %v", err)
		}
	})
	return ln.Addr().String()
}

// trickle writes start then msg to a new connection to addr, msg one
// byte every 50 ms, and reports whether the server cut the connection or
// answered before the end (the request is never whole).
func trickle(t *testing.T, addr, start, msg string) bool {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, start); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(msg); i++ {
		if _, err := conn.Write([]byte{msg[i]}); err != nil {
			return true
		}
		time.Sleep(50 * time.Millisecond)
		conn.SetReadDeadline(time.Now().Add(time.Millisecond))
		if _, err := conn.Read(make([]byte, 1)); err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			return true // closed
		} else if err == nil {
			return true // answered (408 or 400) before the request was whole
		}
	}
	return false
}

// TestHTTPTrickle: a client that sends its headers or its body a byte at
// a time is cut after the read-header or read timeout, and an idle
// keep-alive connection is closed after the idle timeout; a call that
// takes longer than all three, and a session's event stream, are not cut.
func TestHTTPTrickle(t *testing.T) {
	const short = 300 * time.Millisecond
	addr := serve(t, slowEngine{3 * short}, mcp.HTTPOptions{ReadHeaderTimeout: short, ReadTimeout: short, IdleTimeout: short})
	body := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	headers := "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
	if !trickle(t, addr, "", headers+"X-Padding: "+strings.Repeat("x", 40)+"\r\n") {
		t.Error("a client trickling its headers was not cut")
	}
	if !trickle(t, addr, fmt.Sprintf("%sContent-Length: %d\r\n\r\n", headers, len(body)+1), body) {
		t.Error("a client trickling its body was not cut")
	}

	// An idle keep-alive connection is closed.
	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	fmt.Fprintf(idle, "GET /nothing HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
	br := bufio.NewReader(idle)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	idle.SetReadDeadline(time.Now().Add(20 * time.Second))
	if _, err := br.ReadByte(); err != io.EOF {
		t.Errorf("idle keep-alive connection: read %v; want EOF (closed by the server)", err)
	}

	// A call that takes longer than the read timeout gets its answer.
	url := "http://" + addr + mcp.Path
	cs, err := httpSession(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, a := call(t, cs, "mem_update_phase", map[string]any{"slug": "alpha", "phase": "slow"}); !a.OK {
		t.Errorf("a call of %v: %+v", 3*short, a.Error)
	}

	// A session's event stream (a GET, of a revision with sessions)
	// outlives the read timeout: the server does not end it.
	init := send(t, "POST", url, initialize)
	init.Body.Close()
	id := init.Header.Get("Mcp-Session-Id")
	send(t, "POST", url, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, inSession(id)...).Body.Close()
	stream := send(t, "GET", url, "", inSession(id)...)
	defer stream.Body.Close()
	if stream.StatusCode != http.StatusOK {
		t.Fatalf("GET event stream: status %d", stream.StatusCode)
	}
	ended := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, stream.Body)
		ended <- err
	}()
	select {
	case err := <-ended:
		t.Errorf("the event stream ended before %v (%v); want it open", 4*short, err)
	case <-time.After(4 * short):
	}
}

// send sends an MCP request (method, body) to url with the headers
// given as name, value pairs (an empty value sends none) and returns the
// response.
func send(t *testing.T, method, url, body string, headers ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] != "" {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// inSession are the headers of a request in session id.
func inSession(id string) []string {
	return []string{"Mcp-Session-Id", id, "Mcp-Protocol-Version", "2025-06-18"}
}

// TestHTTPOrigin: a request from a foreign web page is refused whatever
// its method, a GET event stream included; the page's own origin and
// non-browser clients (no Origin) are served.
func TestHTTPOrigin(t *testing.T) {
	srv := mcp.NewServer(openVault(t, newVault(t, "alpha")), engine.Native(), mcp.Options{})
	hs := httptest.NewServer(mcp.Handler(srv, mcp.HTTPOptions{}))
	t.Cleanup(hs.Close)
	for _, tc := range []struct {
		method, origin string
		want           int
	}{
		{"GET", "https://evil.example", http.StatusForbidden},
		{"HEAD", "https://evil.example", http.StatusForbidden},
		{"OPTIONS", "https://evil.example", http.StatusForbidden},
		{"DELETE", "https://evil.example", http.StatusForbidden},
		{"POST", "https://evil.example", http.StatusForbidden},
		{"GET", "null", http.StatusForbidden},
		{"POST", hs.URL, http.StatusOK},
		{"POST", "", http.StatusOK},
	} {
		req, err := http.NewRequest(tc.method, hs.URL+mcp.Path, strings.NewReader(initialize))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s with Origin %q: status %d; want %d", tc.method, tc.origin, resp.StatusCode, tc.want)
		}
	}
}

// TestHTTPBearerScheme: the scheme is case-insensitive (RFC 9110 §11.1).
func TestHTTPBearerScheme(t *testing.T) {
	srv := mcp.NewServer(openVault(t, newVault(t, "alpha")), engine.Native(), mcp.Options{})
	hs := httptest.NewServer(mcp.Handler(srv, mcp.HTTPOptions{Token: "s3cret"}))
	t.Cleanup(hs.Close)
	for _, auth := range []string{"Bearer s3cret", "bearer s3cret", "BEARER s3cret", "bEaReR  s3cret"} {
		if code := post(t, hs.URL+mcp.Path, auth); code != http.StatusOK {
			t.Errorf("POST with Authorization %q: status %d; want 200", auth, code)
		}
	}
	for _, auth := range []string{"bearer S3CRET", "bearers3cret", "Bearer"} {
		if code := post(t, hs.URL+mcp.Path, auth); code != http.StatusUnauthorized {
			t.Errorf("POST with Authorization %q: status %d; want 401", auth, code)
		}
	}
}

// TestHTTPUnauthorized: a 401 names the Bearer scheme and a realm but no
// OAuth resource metadata, and the OAuth discovery documents clients look
// for are plainly absent (404, not 401): a client reports that it needs
// a token instead of starting an authorization flow it cannot finish.
func TestHTTPUnauthorized(t *testing.T) {
	srv := mcp.NewServer(openVault(t, newVault(t, "alpha")), engine.Native(), mcp.Options{})
	hs := httptest.NewServer(mcp.Handler(srv, mcp.HTTPOptions{Token: "s3cret", TokenPath: "CONFIG/kessho/mcp-token"}))
	t.Cleanup(hs.Close)
	for _, auth := range []string{"", "Bearer wrong"} {
		req, _ := http.NewRequest("POST", hs.URL+mcp.Path, strings.NewReader(initialize))
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		msg, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		www := resp.Header.Get("WWW-Authenticate")
		if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(www, `Bearer realm="kessho"`) || strings.Contains(www, "resource_metadata") {
			t.Errorf("Authorization %q: %d, WWW-Authenticate %q; want 401, Bearer realm=\"kessho\" without resource_metadata", auth, resp.StatusCode, www)
		}
		if !strings.Contains(string(msg), "Authorization: Bearer") {
			t.Errorf("Authorization %q: body %q; want it to say which header to send", auth, msg)
		}
	}
	for _, c := range []struct {
		method, path string
		status       int
		code         string
	}{
		{"GET", "/.well-known/oauth-protected-resource", 404, "invalid_request"},
		{"GET", "/.well-known/oauth-protected-resource/mcp", 404, "invalid_request"},
		{"GET", "/.well-known/oauth-authorization-server", 404, "invalid_request"},
		{"GET", "/.well-known/oauth-authorization-server/mcp", 404, "invalid_request"},
		{"GET", "/.well-known/openid-configuration", 404, "invalid_request"},
		{"POST", "/register", 400, "invalid_client_metadata"},
		{"POST", "/token", 400, "unsupported_grant_type"},
	} {
		req, _ := http.NewRequest(c.method, hs.URL+c.path, strings.NewReader(`{"redirect_uris":["http://localhost:1/cb"]}`))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body map[string]string
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		json.Unmarshal(b, &body)
		if why := body["error_description"]; resp.StatusCode != c.status || body["error"] != c.code || !strings.Contains(why, "Authorization: Bearer <token>") || !strings.Contains(why, "CONFIG/kessho/mcp-token") {
			t.Errorf("%s %s: %d %s; want %d, an OAuth error %q whose description names the header and the token's file", c.method, c.path, resp.StatusCode, b, c.status, c.code)
		}
		if !strings.Contains(string(b), "Bearer <token>") {
			t.Errorf("%s %s: body %s; want \"<token>\" as it reads, not escaped (a client may show the body as it came)", c.method, c.path, b)
		}
	}
	// Any other path stays a plain 404.
	if resp, err := http.Get(hs.URL + "/elsewhere"); err != nil || resp.StatusCode != http.StatusNotFound || resp.Header.Get("Content-Type") == "application/json" {
		t.Errorf("GET /elsewhere: %v %v; want a plain 404", resp, err)
	}
}

// startHTTP starts `kessho mcp --http 127.0.0.1:0 args…` on dir and
// returns the endpoint's URL and the server's standard error so far.
func startHTTP(t *testing.T, dir string, env []string, args ...string) (url, stderr string) {
	t.Helper()
	cmd := kesshoCmd(t, dir, append([]string{"--http", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = nil
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	sc := bufio.NewScanner(errPipe)
	var lines []string
	for url == "" && sc.Scan() {
		lines = append(lines, sc.Text())
		_, url, _ = strings.Cut(sc.Text(), "serving ")
	}
	if url == "" {
		t.Fatalf("kessho mcp --http never said where it listens: %v\n%s", sc.Err(), strings.Join(lines, "\n"))
	}
	go io.Copy(io.Discard, errPipe)
	return url, strings.Join(lines, "\n")
}

// TestHTTPSessionIdleFlag: `kessho mcp --session-idle D` closes a session
// after D without a request (its id then gets 404, as the transport
// specifies); a bad duration is a usage error naming the flag.
func TestHTTPSessionIdleFlag(t *testing.T) {
	dir := newVault(t, "alpha")
	var stderr strings.Builder
	cmd := kesshoCmd(t, dir, "--http", "127.0.0.1:0", "--session-idle", "soon")
	cmd.Stderr = &stderr
	cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(stderr.String(), "--session-idle") {
		t.Errorf("--session-idle soon: exit %d, stderr %q; want 2 and a message naming --session-idle", code, stderr.String())
	}

	url, _ := startHTTP(t, dir, nil, "--token", "s3cret", "--session-idle", "500ms")
	resp := send(t, "POST", url, initialize, "Authorization", "Bearer s3cret")
	resp.Body.Close()
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: status %d, session %q", resp.StatusCode, id)
	}
	waitFor(t, "the session to expire", func() bool {
		resp := send(t, "POST", url, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, append(inSession(id), "Authorization", "Bearer s3cret")...)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			time.Sleep(time.Second) // a request keeps it alive: leave it be
		}
		return resp.StatusCode == http.StatusNotFound
	})
}

// TestHTTPNewestProtocol: a client asking for the newest protocol
// revision gets it (served statelessly, each request on its own), and its
// calls land; a client of an older revision still gets a session.
func TestHTTPNewestProtocol(t *testing.T) {
	newest := sdk.SupportedProtocolVersions()[0]
	dir := newVault(t, "alpha")
	srv := mcp.NewServer(openVault(t, dir), engine.Native(), mcp.Options{})
	hs := httptest.NewServer(mcp.Handler(srv, mcp.HTTPOptions{Token: "s3cret"}))
	t.Cleanup(hs.Close)
	for _, version := range []string{newest, "2025-11-25", "2025-06-18"} {
		tr := &sdk.StreamableClientTransport{Endpoint: hs.URL + mcp.Path, HTTPClient: &http.Client{Transport: bearerTransport{"s3cret"}}, MaxRetries: -1}
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), tr, &sdk.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatalf("%s: %v", version, err)
		}
		if got := cs.InitializeResult().ProtocolVersion; got != version {
			t.Errorf("client asking for %s got %s", version, got)
		}
		if hasSession := cs.ID() != ""; hasSession != (version != newest) {
			t.Errorf("%s: session id %q", version, cs.ID())
		}
		if _, a := call(t, cs, "mem_update_phase", map[string]any{"slug": "alpha", "phase": "v" + version}); !a.OK {
			t.Errorf("%s: call refused: %+v", version, a.Error)
		}
		if got := phaseOf(contextOf(t, dir, "alpha")); got != "v"+version {
			t.Errorf("%s: phase = %q", version, got)
		}
		cs.Close()
	}
}

// TestTokenFile: the generated token is stored in <config>/kessho/mcp-token,
// readable by its owner alone, and reused by the next server; a file that
// others could read is replaced by a new token.
func TestTokenFile(t *testing.T) {
	config := t.TempDir()
	token, path, err := mcp.TokenFile(config)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(config, "kessho", "mcp-token") || len(token) != 64 {
		t.Errorf("TokenFile = %q, %q; want 64 hex digits in kessho/mcp-token", token, path)
	}
	if fi, err := os.Stat(path); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600) {
		t.Errorf("token file: %v, %v; want mode 0600", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(path); strings.TrimSpace(string(b)) != token {
		t.Errorf("token file holds %q; want %q", b, token)
	}
	again, _, err := mcp.TokenFile(config)
	if err != nil || again != token {
		t.Errorf("second TokenFile = %q, %v; want the same token %q", again, err, token)
	}
	if runtime.GOOS != "windows" {
		os.Chmod(path, 0o644)
		fresh, _, err := mcp.TokenFile(config)
		if err != nil || fresh == token || len(fresh) != 64 {
			t.Errorf("TokenFile after chmod 644 = %q, %v; want a new token", fresh, err)
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
			t.Errorf("token file mode %v after renewal; want 0600", fi.Mode())
		}
	}
}

// TestHTTPDefaultToken: without --token, `kessho mcp --http` on loopback
// generates a token, says where it is and how to send it, and requires
// it; --no-auth serves without one, on loopback only, and says what that
// allows.
func TestHTTPDefaultToken(t *testing.T) {
	dir := newVault(t, "alpha")
	config := t.TempDir()
	env := []string{"XDG_CONFIG_HOME=" + config, "KESSHO_MCP_TOKEN="}
	url, stderr := startHTTP(t, dir, env)
	path := filepath.Join(config, "kessho", "mcp-token")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no token file: %v (stderr %q)", err, stderr)
	}
	token := strings.TrimSpace(string(b))
	if !strings.Contains(stderr, path) || !strings.Contains(stderr, "Authorization: Bearer") {
		t.Errorf("stderr %q; want the token file's path and the header to send", stderr)
	}
	if code := post(t, url, ""); code != http.StatusUnauthorized {
		t.Errorf("POST without the token: %d; want 401", code)
	}
	if code := post(t, url, "Bearer "+token); code != http.StatusOK {
		t.Errorf("POST with the generated token: %d; want 200", code)
	}

	url, stderr = startHTTP(t, dir, env, "--no-auth")
	if code := post(t, url, ""); code != http.StatusOK {
		t.Errorf("--no-auth: POST without a token: %d; want 200", code)
	}
	if !strings.Contains(stderr, "--no-auth") || !strings.Contains(stderr, "any user") {
		t.Errorf("--no-auth: stderr %q; want it to say that any user of the machine can use the vault", stderr)
	}

	for _, args := range [][]string{{"--http", "0.0.0.0:0", "--no-auth"}, {"--http", "127.0.0.1:0", "--no-auth", "--token", "s3cret"}} {
		var out strings.Builder
		cmd := kesshoCmd(t, dir, args...)
		cmd.Env = append(cmd.Env, env...)
		cmd.Stderr = &out
		cmd.Run()
		if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(out.String(), "--no-auth") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message naming --no-auth", args, code, out.String())
		}
	}
}

// TestHTTPBodyBound: a request body over 4 MiB is refused with 413 (the
// SDK's bound, kept), and nothing of it is run.
func TestHTTPBodyBound(t *testing.T) {
	srv := mcp.NewServer(openVault(t, newVault(t, "alpha")), engine.Native(), mcp.Options{})
	hs := httptest.NewServer(mcp.Handler(srv, mcp.HTTPOptions{}))
	t.Cleanup(hs.Close)
	big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"pad":"` + strings.Repeat("x", sdk.DefaultMaxRequestBodyBytes) + `"}}}`
	if code := postBody(t, hs.URL+mcp.Path, "", big); code != http.StatusRequestEntityTooLarge {
		t.Errorf("POST of %d bytes: status %d; want 413", len(big), code)
	}
}
