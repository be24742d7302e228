package core

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/tools"
)

// TestArgsKeptForTheCallsRounds checks that a core validates a call's
// arguments once for its rounds, and hands them only to a request of the
// same tool with the same bytes: a poisoned entry is seen by the exact
// bytes alone, and a call with other arguments or another tool replaces
// it.
func TestArgsKeptForTheCallsRounds(t *testing.T) {
	m := memVault{"10-episodes/projects/a/context.md": "---\nslug: a\nkind: project\nphase: draft\n---\n# a\n"}
	run := func(c *Core, tool, args string) string {
		req := Request{Tool: tool, Args: json.RawMessage(args), Now: "2026-11-30T10:15:00+01:00"}
		for range 8 {
			b, _ := json.Marshal(req)
			out := c.Handle(b)
			var ans Answer
			if err := json.Unmarshal(out, &ans); err != nil {
				t.Fatal(err)
			}
			if ans.Need == nil {
				return string(out)
			}
			m.answer(*ans.Need, &req.Snapshot)
		}
		t.Fatalf("%s %s: still needing", tool, args)
		return ""
	}
	c := New()
	args := `{"slug":"a","phase":"review"}`
	if out := run(c, "mem_update_phase", args); !strings.Contains(out, `"phase":"review"`) {
		t.Fatalf("the call answered %s", out)
	}
	if c.args.tool != "mem_update_phase" || string(c.args.raw) != args {
		t.Fatalf("the core kept %s %s", c.args.tool, c.args.raw)
	}
	// Poisoned: the same bytes get what the core kept, not a new decode.
	tool, _ := tools.Lookup("mem_update_phase")
	poison, err := tool.Spec.Validate(json.RawMessage(`{"slug":"a","phase":"poisoned"}`))
	if err != nil {
		t.Fatal(err)
	}
	c.args.args = poison
	if out := run(c, "mem_update_phase", args); !strings.Contains(out, `"phase":"poisoned"`) {
		t.Errorf("the kept arguments were not used: %s", out)
	}
	// Another call: other bytes (the same arguments, reordered), another
	// tool (the same bytes kept for mem_read_context), another tool and
	// other bytes.
	for _, other := range []struct{ kept, tool, args string }{
		{"mem_update_phase", "mem_update_phase", `{"phase":"review","slug":"a"}`},
		{"mem_read_context", "mem_update_phase", args},
		{"mem_update_phase", "mem_read_context", `{"slug":"a"}`},
	} {
		c.args.tool, c.args.raw, c.args.args = other.kept, []byte(args), poison
		if out := run(c, other.tool, other.args); strings.Contains(out, "poisoned") || !strings.HasPrefix(out, `{"ok":true`) {
			t.Errorf("%s %s got another call's arguments: %s", other.tool, other.args, out)
		}
		if c.args.tool != other.tool || string(c.args.raw) != other.args {
			t.Errorf("%s %s: the core kept %s %s", other.tool, other.args, c.args.tool, c.args.raw)
		}
	}
}
