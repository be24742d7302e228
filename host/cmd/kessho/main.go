// Command kessho runs Kessho's tools on a vault: `kessho help` for usage.
package main

import (
	"os"

	"github.com/kessho/kessho/host/cli"
)

func main() { os.Exit(cli.Main()) }
