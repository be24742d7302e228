package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/mcp"
)

// TestStdioNotUTF8 sends tool calls whose arguments are not UTF-8 (a raw
// invalid byte, an escaped lone surrogate): each is refused with
// INVALID_ARGUMENT naming the parameter, and nothing is written; the SDK
// must not have replaced the bytes with U+FFFD on the way.
func TestStdioNotUTF8(t *testing.T) {
	dir := newVault(t, "alpha")
	before := contextOf(t, dir, "alpha")
	srv := mcp.NewServer(openVault(t, dir), engine.Native(),
		mcp.Options{TZ: "Europe/Paris", Now: func() time.Time { return fixedNow }})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mcp.ServeStdio(ctx, srv, inR, outW); outW.Close() }()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		<-done
	})
	calls := map[string]string{
		"2": "{\"slug\":\"alpha\",\"phase\":\"caf\xe9\"}",
		"3": `{"slug":"alpha","phase":"x\ud800"}`,
		"4": "{\"slug\":\"alpha\",\"summary\":\"ok \xed\xa0\x80\"}",
		"5": `{"slug":"alpha","summary":"\udfff"}`,
	}
	tools := map[string]string{"2": "mem_update_phase", "3": "mem_update_phase", "4": "mem_set_summary", "5": "mem_set_summary"}
	params := map[string]string{"2": "phase", "3": "phase", "4": "summary", "5": "summary"}
	go func() {
		io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`+"\n")
		io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`+"\n")
		for _, id := range []string{"2", "3", "4", "5"} {
			fmt.Fprintf(inW, `{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"%s","arguments":%s}}`+"\n", id, tools[id], calls[id])
		}
	}()
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	got := map[string]string{}
	for len(got) < 5 && sc.Scan() {
		var r struct {
			ID     json.RawMessage `json:"id"`
			Result struct {
				IsError bool `json:"isError"`
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"result"`
			Error json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("the server wrote a line that is not JSON: %q", sc.Bytes())
		}
		text := string(r.Error)
		if len(r.Result.Content) > 0 {
			text = r.Result.Content[0].Text
		}
		got[string(r.ID)] = text
	}
	for _, id := range []string{"2", "3", "4", "5"} {
		want := fmt.Sprintf(`"code":"INVALID_ARGUMENT","message":"parameter \"%s\": is not valid UTF-8`, params[id])
		if !strings.Contains(got[id], want) {
			t.Errorf("call %s (%s %q): answer %s; want INVALID_ARGUMENT naming %s", id, tools[id], calls[id], got[id], params[id])
		}
	}
	if after := contextOf(t, dir, "alpha"); after != before {
		t.Errorf("context.md changed:\n%s", after)
	}
}

// badBytes is an HTTP transport that puts bytes that are not UTF-8 into
// request bodies, where a client's JSON holds the marker BADBYTE.
type badBytes struct{}

func (badBytes) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		b = bytes.ReplaceAll(b, []byte("BADBYTE"), []byte{0xe9})
		r = r.Clone(r.Context())
		r.Body = io.NopCloser(bytes.NewReader(b))
		r.ContentLength = int64(len(b))
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestHTTPNotUTF8: over streamable HTTP too, arguments that are not UTF-8
// reach the core as they were sent and are refused naming the parameter.
func TestHTTPNotUTF8(t *testing.T) {
	dir := newVault(t, "alpha")
	before := contextOf(t, dir, "alpha")
	srv := mcp.NewServer(openVault(t, dir), engine.Native(), mcp.Options{})
	hs := httptest.NewServer(mcp.Handler(srv, mcp.HTTPOptions{}))
	t.Cleanup(hs.Close)
	tr := &sdk.StreamableClientTransport{Endpoint: hs.URL + mcp.Path, HTTPClient: &http.Client{Transport: badBytes{}}, MaxRetries: -1}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	for _, tc := range []struct{ tool, param, value string }{
		{"mem_update_phase", "phase", "cafBADBYTE"},
		{"mem_set_summary", "summary", `\ud800`},
	} {
		args := json.RawMessage(fmt.Sprintf(`{"slug":"alpha",%q:"%s"}`, tc.param, tc.value))
		res, a := call(t, cs, tc.tool, args)
		if !res.IsError || a.Error == nil || a.Error.Code != "INVALID_ARGUMENT" || a.Error.Details["parameter"] != tc.param {
			t.Errorf("%s %s=%q: answer %+v; want INVALID_ARGUMENT naming %s", tc.tool, tc.param, tc.value, a, tc.param)
		}
	}
	if after := contextOf(t, dir, "alpha"); after != before {
		t.Errorf("context.md changed:\n%s", after)
	}
}
