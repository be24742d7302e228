package mcp

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"kessho/core/hostlogic"
	"kessho/core/plan"
	"kessho/host/vaultfs"
)

// recording is the vault as a call of this server sees it: the same
// vault, whose Recover also says what it finished. call.Run recovers
// under the vault's lock before anything else (host/vaultfs, Recover); a
// recovery that finished plans calls recovered with the journals' ids
// and the files their plans touch.
type recording struct {
	*vaultfs.Vault
	recovered func(ids, files []string)
}

// Recover reads the journals a crash left (under the lock l, as Recover
// does), then recovers; only a recovery that succeeded is reported.
func (r recording) Recover(l *vaultfs.Lock) error {
	ids, files := pendingJournals(r.Dir())
	if err := r.Vault.Recover(l); err != nil {
		return err
	}
	if len(ids) > 0 {
		r.recovered(ids, files)
	}
	return nil
}

// pendingJournals returns the ids of the journals in the vault at dir
// (hostlogic.Sweep) and the files their plans touch, sorted. A journal it
// cannot read or decode is counted without its files: Recover refuses it
// anyway, and then nothing is reported.
func pendingJournals(dir string) (ids, files []string) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil
	}
	defer root.Close()
	f, err := root.Open(hostlogic.JournalDir)
	if err != nil {
		return nil, nil
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return nil, nil
	}
	ids, _ = hostlogic.Sweep(names)
	for _, id := range ids {
		data, err := root.ReadFile(hostlogic.JournalPath(id))
		if err != nil {
			continue
		}
		j, err := hostlogic.Decode(id, data)
		if err != nil {
			continue
		}
		for _, op := range j.Plan {
			if op.Op != plan.Check {
				files = append(files, hostlogic.Target(op))
			}
			if op.Op == plan.Move {
				files = append(files, op.To)
			}
		}
	}
	slices.Sort(files)
	return ids, slices.Compact(files)
}

// logRecovered tells the client, as a log message of level warning from
// the logger "kessho", that a call finished plans a crash had left half
// applied: the tool whose call did it, the journals and the files. The
// SDK sends it only to a client that asked for messages of that level.
func (c *caller) logRecovered(ctx context.Context, ss *sdk.ServerSession, tool string) func(ids, files []string) {
	return func(ids, files []string) {
		if ss == nil {
			return
		}
		text := fmt.Sprintf(serverText().Recovered.In(c.opts.Lang), len(ids), strings.Join(files, ", "))
		//lint:ignore SA1019 see NewServer: logging is served through its deprecation window
		ss.Log(ctx, &sdk.LoggingMessageParams{Level: "warning", Logger: "kessho",
			Data: map[string]any{"tool": tool, "recovered": ids, "files": files, "message": text}})
	}
}
