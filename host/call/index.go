package call

import (
	"context"
	"encoding/json"

	"kessho/core"
	"kessho/core/search"
)

// Indexer is a Vault that keeps mem_search's index (*vaultfs.Vault is
// one): Run sends the core the notes' versions and the stored index with
// a search, and stores the index the core answers back. A Vault that is
// not one loses nothing but speed: the core reads the notes itself.
type Indexer interface {
	SearchCarry(ctx context.Context) *search.Carry
	StoreIndex(data []byte) error
}

// carry returns the search index and the notes' versions for a mem_search
// call on a vault that keeps them, else nil.
func carry(ctx context.Context, v any, tool string) *search.Carry {
	if ix, ok := v.(Indexer); ok && tool == search.Tool {
		return ix.SearchCarry(ctx)
	}
	return nil
}

// storeIndex stores the index a successful answer carries, and returns
// raw without it (Outcome.Raw: the index holds the notes' mtimes, which
// differ from one run to the next, while the rest of the answer may not).
// A failure to store it is no failure of the call: the index is a cache,
// and the next search rebuilds what it lacks.
func storeIndex(v any, ans core.Answer, raw []byte) []byte {
	if ans.Search == nil {
		return raw
	}
	if ix, ok := v.(Indexer); ok && len(ans.Search.Index) > 0 {
		_ = ix.StoreIndex(ans.Search.Index)
	}
	ans.Search = nil
	if b, err := json.Marshal(ans); err == nil {
		return b
	}
	return raw
}
