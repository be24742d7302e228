// Command docgen prints docs/reference.md from the catalogue (`make docs`).
package main

import (
	"fmt"

	"kessho/core/catalog"
	"kessho/core/tools"
)

func main() { fmt.Print(catalog.Reference(tools.Specs())) }
