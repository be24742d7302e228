// Command pluginrelease packs the built Obsidian plugin for a release:
// dist/kessho-<version>/kessho/{main.js,manifest.json,styles.css} and
// dist/kessho-<version>.zip holding the folder kessho/ (the plugin's id,
// the folder Obsidian installs it in), the id and version read from
// the plugin's manifest.json. `make release` runs it after `make plugin`.
//
//	go run ./host/cmd/pluginrelease [-plugin plugin-shim] [-out dist]
//
// It refuses to pack when the repository root's manifest.json or
// versions.json differ from the plugin's (Obsidian's community list and
// BRAT read the root's), or when versions.json has no entry for the
// manifest's version.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	plugin := flag.String("plugin", "plugin-shim", "the plugin's folder (holding main.js, manifest.json, styles.css, versions.json)")
	root := flag.String("root", ".", "the repository root (holding the copies of manifest.json and versions.json)")
	out := flag.String("out", "dist", "where to write the release folder and zip")
	flag.Parse()
	zip, err := pack(*plugin, *root, *out)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pluginrelease: %v\n", err)
		os.Exit(1)
	}
	fmt.Println(zip)
}
