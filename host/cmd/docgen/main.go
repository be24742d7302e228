// Command docgen prints docs/reference.md from the catalogue (`make docs`).
package main

import (
	"fmt"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/tools"
)

func main() { fmt.Print(catalog.Reference(tools.Specs())) }
