package genvault

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Vault is a generated vault kept in a cache folder.
type Vault struct {
	Dir      string // the vault's folder
	Manifest Manifest
	stamp    string
	seed     uint64
}

// stamp is what a cached vault was made from, written once it is whole.
type stamp struct {
	Version  int      `json:"version"`
	Seed     uint64   `json:"seed"`
	Notes    int      `json:"notes"`
	Manifest Manifest `json:"manifest"`
}

// Cached returns the vault c describes, kept under root: the one made
// before when its stamp names the same Version, seed and size, else a new
// one (the old folder removed first). The stamp is written only once the
// vault is whole, so a vault half made, or left dirty by [Vault.Dirty],
// is made again.
func Cached(root string, c Config) (Vault, error) {
	base := filepath.Join(root, fmt.Sprintf("%d-seed%d", c.Notes, c.Seed))
	v := Vault{Dir: filepath.Join(base, "vault"), stamp: filepath.Join(base, "stamp.json"), seed: c.Seed}
	want := stamp{Version: Version, Seed: c.Seed, Notes: c.Notes}
	if b, err := os.ReadFile(v.stamp); err == nil {
		var got stamp
		if json.Unmarshal(b, &got) == nil && got.Version == want.Version && got.Seed == want.Seed && got.Notes == want.Notes {
			v.Manifest = got.Manifest
			return v, nil
		}
	}
	if err := os.RemoveAll(base); err != nil {
		return Vault{}, err
	}
	m, err := Generate(v.Dir, c)
	if err != nil {
		return Vault{}, err
	}
	v.Manifest = m
	want.Manifest = m
	b, _ := json.MarshalIndent(want, "", "  ")
	return v, os.WriteFile(v.stamp, b, 0o644)
}

// Dirty marks the vault as possibly changed (a benchmark is about to write
// in it and revert what it wrote): until [Vault.Clean], the next Cached
// makes it again.
func (v Vault) Dirty() error {
	if err := os.Remove(v.stamp); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}

// Clean marks the vault as the generator made it again.
func (v Vault) Clean() error {
	b, _ := json.MarshalIndent(stamp{Version: Version, Seed: v.seed, Notes: v.Manifest.Notes, Manifest: v.Manifest}, "", "  ")
	return os.WriteFile(v.stamp, b, 0o644)
}
