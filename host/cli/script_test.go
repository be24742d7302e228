package cli_test

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"kessho/host/cli"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"kessho": func() { os.Exit(cli.Main()) },
	})
}

// TestScripts runs testdata/script/*.txtar: the CLI driven exactly as a
// user drives it, the way cmd/go tests itself.
func TestScripts(t *testing.T) {
	// One compilation cache for every script of the run (compiling the
	// module takes seconds; a warm cache, milliseconds), never the user's.
	cache := t.TempDir()
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("XDG_CACHE_HOME", cache)
			env.Setenv("HOME", env.WorkDir)
			return nil
		},
	})
}
