// Command docgen prints docs/reference.md from the catalogue (`make docs`).
package main

import (
	"fmt"

	"kessho/core/catalog"
)

func main() { fmt.Print(catalog.Reference()) }
