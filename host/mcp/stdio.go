package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLine bounds one JSON-RPC message read by [ServeStdio]: the SDK's
// own default.
const maxLine = sdk.DefaultMaxLineLength

// ServeStdio serves srv to one client over in and out (newline-delimited
// JSON-RPC, as MCP clients speak to the servers they start) until the
// client closes in or ctx is done.
//
// A line that is not a JSON-RPC message (broken JSON, a truncated write,
// a stray log line, a line over the SDK's longest) is answered with a JSON-RPC
// error (id null) and skipped: the SDK's stdio transport would end the
// session on it, and a client rarely restarts the servers it started.
func ServeStdio(ctx context.Context, srv *sdk.Server, in io.Reader, out io.Writer) error {
	w := &lockedWriter{w: out}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(screen(in, pw, w)) }()
	return srv.Run(ctx, &sdk.IOTransport{Reader: pr, Writer: w})
}

// screen copies each JSON-RPC message of in, one a line, to msgs, and
// answers every other non-blank line on out with an error.
func screen(in io.Reader, msgs io.Writer, out io.Writer) error {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		switch {
		case tooLong:
			reject(out, jsonrpc.CodeInvalidRequest, "message longer than the server accepts")
		case len(bytes.TrimSpace(line)) == 0:
		case !isMessage(line):
			if !json.Valid(line) {
				reject(out, jsonrpc.CodeParseError, "parse error: the line is not valid JSON")
			} else {
				reject(out, jsonrpc.CodeInvalidRequest, "invalid request: the line is not a JSON-RPC 2.0 message")
			}
		default:
			if _, err := msgs.Write(append(line, '\n')); err != nil {
				return err // the session is over
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads one line without its end; over maxLine, it reads on to
// the end of the line and reports the line too long.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if tooLong || len(line)+len(chunk) > maxLine {
			tooLong, line = true, nil
		} else {
			line = append(line, chunk...)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return bytes.TrimRight(line, "\r\n"), tooLong, err
		}
	}
}

// isMessage reports whether line is a JSON-RPC message, or a batch of
// them. A message alone, what clients send, is decoded once (decoding
// checks that it is JSON); a line that is none goes on to json.Valid,
// for its error's code.
func isMessage(line []byte) bool {
	if t := bytes.TrimLeft(line, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		_, err := jsonrpc.DecodeMessage(line)
		return err == nil
	}
	var batch []json.RawMessage
	if json.Unmarshal(line, &batch) != nil {
		batch = []json.RawMessage{line}
	}
	for _, m := range batch {
		if _, err := jsonrpc.DecodeMessage(m); err != nil {
			return false
		}
	}
	return len(batch) > 0
}

// reject writes a JSON-RPC error response with a null id.
func reject(out io.Writer, code int64, message string) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil,
		"error": map[string]any{"code": code, "message": message}})
	out.Write(append(b, '\n'))
}

// lockedWriter serialises the SDK's writes and the rejections.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }
