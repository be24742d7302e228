package mcp

import (
	"context"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kessho/kessho/core/hostlogic"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/host/vaultfs"
)

// recording is the vault as a call of this server sees it: the same
// vault, whose Recover also says what it finished. call.Run recovers
// under the vault's lock before anything else (vaultfs.RecoverFunc); a
// recovery that finished plans calls recovered with the journals' ids
// and the files their plans touch, read from the journals it decoded
// (no second read of them).
type recording struct {
	*vaultfs.Vault
	recovered func(ids, files []string)
}

// Recover recovers as the vault does and reports, once it succeeded,
// the journals it finished and the files their plans touch, sorted.
func (r recording) Recover(l *vaultfs.Lock) error {
	var ids, files []string
	err := r.Vault.RecoverFunc(l, func(j *hostlogic.Journal) {
		ids = append(ids, j.ID)
		for _, op := range j.Plan {
			if op.Op != plan.Check {
				files = append(files, hostlogic.Target(op))
			}
			if op.Op == plan.Move {
				files = append(files, op.To)
			}
		}
	})
	if err != nil || len(ids) == 0 {
		return err
	}
	slices.Sort(files)
	r.recovered(ids, slices.Compact(files))
	return nil
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
