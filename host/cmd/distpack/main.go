// Command distpack packs the kessho binaries `make dist` cross-compiled
// into the CLI's release archives, and their checksums:
//
//	go run ./host/cmd/distpack -version 0.1.0 -bin .work/dist -out dist README.md LICENSE
//
// For each folder <os>_<arch> of -bin, holding kessho (kessho.exe for
// windows), it writes out/kessho_<version>_<os>_<arch>.tar.gz (a .zip for
// windows) holding the binary and the named files, side by side at the
// archive's top; then out/SHA256SUMS, one "<sha256>  <archive>" line per
// archive, as sha256sum prints and `sha256sum -c` reads. The archives
// are the same bytes for the same inputs: fixed modes (0755 for the
// binary, 0644 for the rest) and times, no owner.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	version := flag.String("version", "", "the release version, as in the archives' names")
	bin := flag.String("bin", ".work/dist", "the folder holding one <os>_<arch> folder per build")
	out := flag.String("out", "dist", "where to write the archives and SHA256SUMS")
	flag.Parse()
	names, err := packAll(*version, *bin, *out, flag.Args())
	if err != nil {
		fmt.Fprintf(os.Stderr, "distpack: %v\n", err)
		os.Exit(1)
	}
	for _, n := range names {
		fmt.Println(n)
	}
}
