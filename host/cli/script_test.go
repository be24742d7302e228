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
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			// Each script gets its own compilation cache under its work dir.
			env.Setenv("XDG_CACHE_HOME", env.WorkDir+"/.cache")
			env.Setenv("HOME", env.WorkDir)
			return nil
		},
	})
}
