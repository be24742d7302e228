package hostlogic

import (
	"testing"

	"github.com/kessho/kessho/core/i18n"
)

// TestMessagesFile checks messages.yaml: it decodes (no key that no
// refusal takes), and every refusal has English and French with the same
// printf verbs.
func TestMessagesFile(t *testing.T) {
	files := i18n.Files()
	if len(files) == 0 {
		t.Fatal("no text file loaded")
	}
	for _, f := range files {
		v, err := f.Texts()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range i18n.Check(v) {
			t.Errorf("%s: %v", f.Name, e)
		}
	}
}
