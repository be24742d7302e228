package tools

import (
	"github.com/kessho/kessho/core/atom"
	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/vault"
)

// What the memory-kit's own procedures send that Kessho takes with the
// kit's meaning but does not teach its model (docs/CONVENTIONS.md,
// "Parameters the memory-kit's agents send"): parameters no host
// advertises (catalog.Tool.Unlisted) and the kit's folder names of zones
// (catalog.Param.Synonyms). Each costs the model's view of the catalogue
// nothing (host/mcp's TestCatalogueBudget).

// kitAccepts returns t accepting, besides its parameters, the unlisted
// ones ps.
func kitAccepts(t *catalog.Tool, ps ...catalog.Param) *catalog.Tool {
	t.Unlisted = ps
	return t
}

// zoneFolders maps each folder name of a zone a search can filter by
// (`10-episodes`, `20-knowledge`, `40-principles`, `50-goals`, with or
// without a final `/`) to the zone's name: the memory-kit's procedures
// name a zone by its folder.
var zoneFolders = func() map[string]string {
	out := map[string]string{vault.Episodes: "episodes", vault.Episodes + "/": "episodes"}
	for _, z := range atom.Zones {
		out[z.Dir], out[z.Dir+"/"] = z.Zone, z.Zone
	}
	return out
}()

// kitVault reports whether the vault is the memory-kit's: its
// 10-episodes/index.md, which the kit's scaffolder writes and Kessho never
// does (as the zones' index.md tell atomKeys). It is what a new
// note follows where nothing else tells the vault's form: mem_init_project's
// kit forms, a new context's date-only `last-session`.
func kitVault(env *Env) (bool, error) {
	f, err := env.View.ReadText(vault.Episodes + "/index.md")
	return err == nil && f.Exists, err
}
