package mcp

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Path is where the streamable HTTP endpoint is served:
// http://127.0.0.1:7777/mcp for `kessho mcp --http :7777`.
const Path = "/mcp"

// ListenAddr resolves the address given to `kessho mcp --http`. A missing
// host means loopback (":7777" is "127.0.0.1:7777"). An address that is
// not loopback (0.0.0.0, a LAN address, a host name other than localhost)
// is refused without a token: the vault would be open to the network.
func ListenAddr(addr, token string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--http %q is not HOST:PORT (e.g. 127.0.0.1:7777 or :7777): %v", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if !loopback(host) && token == "" {
		return "", fmt.Errorf("--http %s is not a loopback address: pass --token (clients then send Authorization: Bearer <token>), or listen on 127.0.0.1", addr)
	}
	return net.JoinHostPort(host, port), nil
}

func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Handler serves srv as MCP's streamable HTTP transport at [Path]. When
// token is not empty, every request must carry "Authorization: Bearer
// <token>" and is answered 401 otherwise. Cross-origin browser requests
// are refused (a web page must not drive a loopback server), and the SDK
// refuses requests to a loopback address whose Host header is not
// loopback (DNS rebinding).
func Handler(srv *sdk.Server, token string) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(Path, sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	h := http.NewCrossOriginProtection().Handler(mux)
	if token != "" {
		h = bearer(token, h)
	}
	return h
}

// bearer checks the request's bearer token against token in constant
// time (both are hashed first, so that not even the length leaks).
func bearer(token string, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		sum := sha256.Sum256([]byte(got))
		if !ok || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="kessho"`)
			http.Error(w, "missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// ServeHTTP serves srv on ln (see [Handler]) until ctx is done, then
// shuts down: calls in flight get up to five seconds to finish, then the
// connections left (clients' idle event streams) are closed.
func ServeHTTP(ctx context.Context, srv *sdk.Server, ln net.Listener, token string) error {
	hs := &http.Server{Handler: Handler(srv, token), ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shut); err != nil {
		hs.Close()
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
