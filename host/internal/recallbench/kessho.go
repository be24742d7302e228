package recallbench

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/vaultfs"
)

// Kessho ranks with the mem_search tool through the call loop every Go
// host uses (call.Run, the native engine), on a copy of the benchmark
// vault (a search may keep its index under .kessho/). It knows nothing of
// how mem_search ranks.
type Kessho struct {
	v   *vaultfs.Vault
	eng call.Engine
	now time.Time
}

// OpenKessho opens the vault folder dir (a copy: Kessho writes its lock,
// and maybe an index, into it).
func OpenKessho(dir string) (*Kessho, error) {
	v, err := vaultfs.Open(dir)
	if err != nil {
		return nil, err
	}
	// After the vault's last note; pinned, so that runs compare.
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	return &Kessho{v: v, eng: engine.Native(), now: now}, nil
}

// Close closes the vault.
func (k *Kessho) Close() error { return k.v.Close() }

// Refused is a refusal of mem_search: before the tool exists (an
// unknown tool) or for a query it rejects. The report shows it; it never
// counts as an empty ranking.
type Refused struct{ Answer string }

func (r *Refused) Error() string { return "mem_search refused: " + r.Answer }

// Rank asks mem_search for the query's 10 best notes.
func (k *Kessho) Rank(ctx context.Context, q string, includeArchived bool) ([]Hit, error) {
	a, err := k.Ask(ctx, q, includeArchived)
	return a.Hits, err
}

// Ask is Rank with the answer's top-level confident field, when the
// answer has one (nil otherwise: no signal).
func (k *Kessho) Ask(ctx context.Context, q string, includeArchived bool) (Answer, error) {
	args := map[string]any{"query": q, "limit": Limit}
	if includeArchived {
		args["include_archived"] = true
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return Answer{}, err
	}
	out, err := call.Run(ctx, k.v, k.eng, "mem_search", raw, call.Options{Now: k.now, TZ: Zone, Lang: "en"})
	if err != nil {
		return Answer{}, err
	}
	if !out.OK {
		return Answer{}, &Refused{Answer: string(out.Answer)}
	}
	var res struct {
		Hits []struct {
			Path  string  `json:"path"`
			Score float64 `json:"score"`
		} `json:"hits"`
		Confident *bool `json:"confident"`
	}
	if err := json.Unmarshal(out.Result, &res); err != nil {
		return Answer{}, fmt.Errorf("mem_search answered no hits list: %w", err)
	}
	hits := make([]Hit, len(res.Hits))
	for i, h := range res.Hits {
		hits[i] = Hit{h.Path, h.Score}
	}
	return Answer{hits, res.Confident}, nil
}

// Build runs the steps, in order, on the vault folder dir (which must
// exist) with the native engine, each at its own time. Any refusal stops
// it: the script must describe a vault Kessho accepts.
func Build(ctx context.Context, dir string, steps []Step) error {
	v, err := vaultfs.Open(dir)
	if err != nil {
		return err
	}
	defer v.Close()
	eng := engine.Native()
	for _, s := range steps {
		args, err := json.Marshal(s.Args)
		if err != nil {
			return err
		}
		out, err := call.Run(ctx, v, eng, s.Tool, args, call.Options{Now: s.At, TZ: Zone, Lang: "en"})
		if err != nil {
			return fmt.Errorf("script line %d: %w", s.Line, err)
		}
		if !out.OK {
			return fmt.Errorf("script line %d: %s refused: %s", s.Line, s.Tool, out.Answer)
		}
	}
	return nil
}
