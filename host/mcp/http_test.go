package mcp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"kessho/host/engine"
	"kessho/host/mcp"
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
		hs := httptest.NewServer(mcp.Handler(srv, ""))
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
		hs := httptest.NewServer(mcp.Handler(srv, "s3cret"))
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
	return postBody(t, url, auth, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`)
}

// postBody posts body as JSON with the given Authorization header and
// returns the status.
func postBody(t *testing.T, url, auth, body string) int {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
