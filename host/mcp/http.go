package mcp

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
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

// HTTPOptions configures the streamable HTTP transport. The zero value
// serves without authentication and with the default time limits.
type HTTPOptions struct {
	// Token, when not empty, must come with every request as
	// "Authorization: Bearer <token>".
	Token string
	// TokenPath is the file the token is kept in, which the answers to
	// OAuth's probes name ("" when the token was given another way).
	TokenPath string
	// SessionIdle closes a session that has had no request for this long
	// (DefaultSessionIdle when zero).
	SessionIdle time.Duration
	// ReadHeaderTimeout, ReadTimeout and IdleTimeout replace the default
	// connection time limits (10 s, 30 s and 2 min) when not zero (the
	// tests shorten them).
	ReadHeaderTimeout, ReadTimeout, IdleTimeout time.Duration
}

// DefaultSessionIdle is how long a session lives without a request
// before the server closes it and frees what it holds. A client that
// comes back later gets 404 for the old session and starts a new one, as
// the transport specifies. Thirty minutes outlasts a person reading
// between two prompts; `kessho mcp --session-idle` changes it.
const DefaultSessionIdle = 30 * time.Minute

// The connection time limits, so that slow or stalled clients cannot hold
// connections (and their goroutines) open at will.
const (
	// defaultReadHeaderTimeout bounds the time to receive a request's
	// headers: a client on a working connection sends them in one go.
	defaultReadHeaderTimeout = 10 * time.Second
	// defaultReadTimeout bounds the time to receive a whole request, its
	// body included (at most sdk.DefaultMaxRequestBodyBytes, 4 MiB). It
	// does not bound the answer: net/http lifts the read deadline once the
	// body is read, so event streams and long calls (a cold start, a big
	// worklog) take the time they need (TestHTTPTrickle checks both).
	defaultReadTimeout = 30 * time.Second
	// defaultIdleTimeout closes a keep-alive connection with no request in
	// flight. Clients reconnect transparently.
	defaultIdleTimeout = 2 * time.Minute
)

func (o HTTPOptions) or(v, def time.Duration) time.Duration {
	if v > 0 {
		return v
	}
	return def
}

// Handler serves srv as MCP's streamable HTTP transport at [Path];
// every other path is 404, with or without a token. When o.Token is not
// empty, every request to [Path] must carry "Authorization: Bearer
// <token>" (the scheme in any case) and is answered 401 otherwise.
// Requests from a web page of another origin are refused whatever their
// method (a web page must not drive a loopback server, nor read its event
// stream), and the SDK refuses requests to a loopback address whose Host
// header is not loopback (DNS rebinding). A request's body is bounded to
// 4 MiB (the SDK's default); idle sessions close after o.SessionIdle. A client of the newest protocol revision is served
// without a session (see [byRevision]).
func Handler(srv *sdk.Server, o HTTPOptions) http.Handler {
	server := func(*http.Request) *sdk.Server { return srv }
	var h http.Handler = byRevision(
		sdk.NewStreamableHTTPHandler(server, &sdk.StreamableHTTPOptions{SessionTimeout: o.or(o.SessionIdle, DefaultSessionIdle)}),
		sdk.NewStreamableHTTPHandler(server, &sdk.StreamableHTTPOptions{Stateless: true, PropagateRequestCancellation: true}))
	if o.Token != "" {
		h = bearer(o.Token, h)
	}
	h = sameOrigin(h)
	mux := http.NewServeMux()
	mux.Handle(Path, h)
	if o.Token != "" {
		probe := noOAuth(o.TokenPath)
		for _, p := range []string{"/.well-known/", "/register", "/token", "/authorize"} {
			mux.Handle(p, probe)
		}
	}
	return mux
}

// noOAuth answers the requests of a client that met the 401 and looks
// for an OAuth server (RFC 9728's and RFC 8414's documents, then the
// default endpoints: registration, token, authorization), in the shape
// of OAuth's error responses (RFC 6749 section 5.2, RFC 7591 section
// 3.2.2), so that the client shows Kessho's words, not a bare 404: there
// is no OAuth here, send the token (kept in tokenPath). The documents
// are absent (404), so that discovery ends at once; registration is
// refused as invalid client metadata (400), which clients report with
// its description.
func noOAuth(tokenPath string) http.Handler {
	where := "the token given to kessho mcp --token"
	if tokenPath != "" {
		where = "the token kept in " + tokenPath
	}
	why := "Kessho serves no OAuth: send the header Authorization: Bearer <token>, with " + where
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		status, code := http.StatusNotFound, "invalid_request"
		switch r.URL.Path {
		case "/register":
			status, code = http.StatusBadRequest, "invalid_client_metadata"
		case "/token":
			status, code = http.StatusBadRequest, "unsupported_grant_type"
		case "/authorize":
			status = http.StatusBadRequest
		}
		// Without HTML escaping: a client that shows the body as it came
		// (the TypeScript SDK 2's registration error does) shows
		// "<token>", not "\u003ctoken\u003e".
		var body bytes.Buffer
		enc := json.NewEncoder(&body)
		enc.SetEscapeHTML(false)
		enc.Encode(map[string]string{"error": code, "error_description": why})
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(status)
		w.Write(body.Bytes())
	})
}

// statelessRevision is the first protocol revision without sessions
// (SEP-2575): each request carries the protocol version, the client's
// information and capabilities, and the SDK serves it on an HTTP server
// only in its stateless mode.
const statelessRevision = "2026-07-28"

// byRevision sends a request that names a revision from
// statelessRevision on (its Mcp-Protocol-Version header; revisions are
// dates, so they compare as strings) to stateless, and every other
// request, an initialize of an older client included, to sessions. A
// client asking for the newest revision thus gets it, and older clients
// keep their sessions, on the same endpoint.
//
// Without a session there is no notifications/cancelled to send: a
// client of the newest revision cancels a call by closing its POST. The
// stateless handler therefore ends the call's work when its request ends
// (PropagateRequestCancellation), as a cancelled call must (no answer,
// the vault untouched or complete; the clients' test found it went on).
func byRevision(sessions, stateless http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Protocol-Version") >= statelessRevision && r.Header.Get("Mcp-Session-Id") == "" {
			stateless.ServeHTTP(w, r)
			return
		}
		sessions.ServeHTTP(w, r)
	})
}

// sameOrigin refuses, with 403, a request that a browser sent from a page
// of another origin, whatever its method. http.CrossOriginProtection
// alone lets GET, HEAD and OPTIONS through (safe methods, by HTTP's
// rules), but here a GET opens a session's event stream: its check is
// applied as if every request were a POST.
func sameOrigin(next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asPost := *r // Check only reads it: a shallow copy
		asPost.Method = http.MethodPost
		if err := cop.Check(&asPost); err != nil {
			http.Error(w, err.Error(), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// bearer checks the request's bearer token against token in constant
// time (both are hashed first, so that not even the length leaks). The
// scheme is case-insensitive (RFC 9110 §11.1). A 401 names the scheme
// and a realm and nothing else: no resource_metadata, and no OAuth
// document anywhere on the server, so that a client asks its user for the
// token instead of starting an OAuth flow that cannot end (RATIONALE.md,
// "Why does a 401 name no OAuth server?").
func bearer(token string, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		scheme, got, _ := strings.Cut(auth, " ")
		sum := sha256.Sum256([]byte(strings.TrimLeft(got, " ")))
		if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			challenge := `Bearer realm="kessho"`
			if auth != "" {
				challenge += `, error="invalid_token"`
			}
			w.Header().Set("WWW-Authenticate", challenge)
			http.Error(w, "missing or wrong token: send the header Authorization: Bearer <token> with the token kessho mcp printed when it started", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// ServeHTTP serves srv on ln (see [Handler]) with the read-header, read
// and idle time limits of o until ctx is done, then
// shuts down: calls in flight get up to five seconds to finish, then the
// connections left (clients' idle event streams) are closed.
func ServeHTTP(ctx context.Context, srv *sdk.Server, ln net.Listener, o HTTPOptions) error {
	hs := &http.Server{
		Handler:           Handler(srv, o),
		ReadHeaderTimeout: o.or(o.ReadHeaderTimeout, defaultReadHeaderTimeout),
		ReadTimeout:       o.or(o.ReadTimeout, defaultReadTimeout),
		IdleTimeout:       o.or(o.IdleTimeout, defaultIdleTimeout),
	}
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

// TokenFile returns the bearer token kept in configDir/kessho/mcp-token
// (configDir is os.UserConfigDir()) and the file's path. The first call
// generates 32 random bytes, written in hexadecimal to a file that only
// its owner can read (0600, in a 0700 directory); later servers reuse it,
// so that clients configured once keep working. A file that others can
// read (or that holds no token) is replaced by a new token: it may have
// been read.
func TokenFile(configDir string) (token, path string, err error) {
	dir := filepath.Join(configDir, "kessho")
	path = filepath.Join(dir, "mcp-token")
	if fi, err := os.Stat(path); err == nil && (runtime.GOOS == "windows" || fi.Mode().Perm()&0o077 == 0) {
		if b, err := os.ReadFile(path); err == nil && len(strings.TrimSpace(string(b))) >= 32 {
			return strings.TrimSpace(string(b)), path, nil
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", "", err
	}
	var random [32]byte
	rand.Read(random[:]) // never fails (crypto/rand)
	token = hex.EncodeToString(random[:])
	f, err := os.CreateTemp(dir, "mcp-token-*") // mode 0600
	if err != nil {
		return "", "", err
	}
	_, err = f.WriteString(token + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", "", err
	}
	return token, path, nil
}
