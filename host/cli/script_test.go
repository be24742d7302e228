package cli_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/kessho/kessho/host/cli"
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
	// Go's own caches, passed on: on a fresh clone (no make) the engine
	// builds the wasm core with the go command, which would otherwise start
	// them afresh under the scripts' HOME.
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatal(err)
	}
	goEnv := strings.Split(strings.TrimSpace(string(out)), "\n")
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("XDG_CACHE_HOME", cache)
			env.Setenv("HOME", env.WorkDir)
			for i, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
				env.Setenv(k, goEnv[i])
			}
			return nil
		},
	})
}
