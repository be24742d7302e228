package tools

import (
	"slices"
	"testing"

	"github.com/kessho/kessho/core/search"
)

// TestIndexKeepsRecallsLinks: the index keeps the links of exactly the
// folders whose notes mem_recall lists when they link to a project.
func TestIndexKeepsRecallsLinks(t *testing.T) {
	if !slices.Equal(search.LinkDirs, linkDirs) {
		t.Errorf("the index keeps the links of %v, mem_recall lists %v", search.LinkDirs, linkDirs)
	}
}
