package call_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/vaultfs"
)

// TestConcurrentIndexBuilds: searches on several vaults at once, through
// one engine, each building its index over many batches. A call's rounds
// run on the core that answered its first round (the wasm engine's pool
// holds several, each with its own warm index; the native engine one),
// so no build loses its partial index to another call's and every search
// answers.
func TestConcurrentIndexBuilds(t *testing.T) {
	const vaults, notes, searches = 4, 300, 10
	w, err := engine.NewWasm(context.Background(), engine.WasmOptions{PoolSize: vaults})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(context.Background()) })
	for name, eng := range map[string]engine.Engine{"native": engine.Native(), "wasm": w} {
		t.Run(name, func(t *testing.T) {
			vs := make([]*vaultfs.Vault, vaults)
			for i := range vs {
				files := map[string]string{}
				for n := range notes {
					files[fmt.Sprintf("20-knowledge/v%d-n%03d.md", i, n)] = fmt.Sprintf("note %d of vault %d about topic%d and a longer body to index\n", n, i, n%7)
				}
				_, vs[i] = newVault(t, files)
			}
			var wg sync.WaitGroup
			errs := make(chan string, vaults*searches)
			for i, v := range vs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for s := range searches {
						q := fmt.Sprintf(`{"query":"topic%d","limit":3}`, s%7)
						out, err := call.Run(context.Background(), v, eng, "mem_search", json.RawMessage(q), call.Options{IndexBatch: 1024, Timeout: -1})
						switch {
						case err != nil:
							errs <- fmt.Sprintf("vault %d search %d: %v", i, s, err)
						case !out.OK:
							errs <- fmt.Sprintf("vault %d search %d: %s", i, s, out.Answer)
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for e := range errs {
				t.Error(e)
			}
		})
	}
}
