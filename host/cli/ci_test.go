package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// ciWorkflow is docs/ci/kessho-vault.yml as far as the test reads it.
type ciWorkflow struct {
	Jobs map[string]struct {
		Strategy struct {
			Matrix map[string][]string
		}
		Steps []struct {
			Name string
			Run  string
		}
	}
}

// TestCIRecipeRuns runs the commands of docs/ci/kessho-vault.yml (each
// job's kessho steps, once per engine of the check's matrix) against a
// copy of the demo vault, with the kessho this test binary is: the recipe
// shows only commands that work. The steps that install kessho or commit
// are the runner's, left out.
func TestCIRecipeRuns(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatal("the recipe's steps are bash: install bash")
	}
	b, err := os.ReadFile("../../docs/ci/kessho-vault.yml")
	if err != nil {
		t.Fatal(err)
	}
	var wf ciWorkflow
	if err := yaml.Unmarshal(b, &wf); err != nil {
		t.Fatalf("docs/ci/kessho-vault.yml: %v", err)
	}
	work := t.TempDir()
	vault := filepath.Join(work, "vault")
	if err := os.CopyFS(vault, os.DirFS("../../testdata/demo/vault")); err != nil {
		t.Fatal(err)
	}
	// The nightly trim needs the hygiene pair; the demo vault has none.
	runStep(t, work, "kessho --vault vault hygiene init")
	ran := 0
	for _, job := range []string{"check", "hygiene", "worklog"} {
		j, ok := wf.Jobs[job]
		if !ok {
			t.Fatalf("the workflow has no job %q", job)
		}
		engines := j.Strategy.Matrix["engine"]
		if job == "check" && (len(engines) != 2 || engines[0] != "wasm" || engines[1] != "native") {
			t.Errorf("the check's matrix engines are %v; want [wasm native]", engines)
		}
		for _, s := range j.Steps {
			if s.Run == "" || !strings.Contains(s.Run, "kessho ") || strings.Contains(s.Run, "go install") {
				continue
			}
			for _, e := range append(engines, "")[:max(1, len(engines))] {
				runStep(t, work, strings.ReplaceAll(s.Run, "${{ matrix.engine }}", e))
				ran++
			}
		}
	}
	if ran != 4 {
		t.Errorf("ran %d steps; want 4 (check twice, trim, worklog)", ran)
	}
	if m, _ := filepath.Glob(filepath.Join(vault, "10-episodes/domains/worklogs/archives/*worklog*.md")); len(m) == 0 {
		t.Error("the worklog step wrote no worklog note")
	}
}

// runStep runs a step's script with bash -e in dir, the vault's folder
// in KESSHO_VAULT, and fails the test on a non-zero exit.
func runStep(t *testing.T, dir, script string) {
	t.Helper()
	cmd := exec.Command("bash", "-e", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "KESSHO_VAULT=vault", "KESSHO_TZ=Europe/Paris", "XDG_CACHE_HOME="+filepath.Join(dir, ".cache"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("step\n%s\nfailed: %v\n%s", script, err, out)
	}
}
