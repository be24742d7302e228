package hostlogic

import (
	"testing"

	"github.com/kessho/kessho/core/i18n/i18ntest"
)

// TestMessagesFile checks messages.yaml: it decodes (no key that no
// refusal takes), and every refusal has English and French with the same
// printf verbs.
func TestMessagesFile(t *testing.T) {
	for _, e := range i18ntest.Errors(say) {
		t.Errorf("messages.yaml: %v", e)
	}
}
