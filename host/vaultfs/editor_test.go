//go:build unix

package vaultfs

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
)

// The outside-editor test: another process rewrites context.md and
// SESSION_LOG.md in a loop, as editors save (in place: truncate and
// write; or a temporary file renamed over the file), each write adding a
// unique marker, while Kessho calls run. No marker may be lost.

const (
	editorDirEnv  = "KESSHO_EDITOR_DIR"  // the vault the editor edits
	editorLogEnv  = "KESSHO_EDITOR_LOG"  // where it lists the markers it wrote
	editorStopEnv = "KESSHO_EDITOR_STOP" // it stops once this file exists
)

const (
	editorContext = "10-episodes/projects/alpha/context.md"
	editorLog     = "memory/SESSION_LOG.md"
)

// TestEditorProcess is the editor: the test binary run again with
// editorDirEnv set. It does nothing in a normal test run.
func TestEditorProcess(t *testing.T) {
	dir := os.Getenv(editorDirEnv)
	if dir == "" {
		return
	}
	logf, err := os.OpenFile(os.Getenv(editorLogEnv), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	rng := rand.New(rand.NewPCG(uint64(os.Getpid()), uint64(time.Now().UnixNano())))
	for i := 0; ; i++ {
		if _, err := os.Stat(os.Getenv(editorStopEnv)); err == nil {
			break
		}
		rel := editorContext
		if i%2 == 1 {
			rel = editorLog
		}
		p := filepath.Join(dir, filepath.FromSlash(rel))
		marker := fmt.Sprintf("editor-marker-%05d", i)
		b, err := os.ReadFile(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		s := string(b)
		if rel == editorContext {
			if s != "" && !strings.HasSuffix(s, "\n") {
				s += "\n"
			}
			s += "- " + marker + "\n"
		} else {
			// A new session block on top, as an agent logs a session.
			block := "## 2026-11-30 — " + marker + "\n" + raceFields
			if k := strings.Index(s, "\n## "); k >= 0 {
				s = s[:k+1] + block + s[k+1:]
			} else {
				s += "\n" + block
			}
		}
		if (i/2)%2 == 0 {
			err = os.WriteFile(p, []byte(s), 0o644) // in place
		} else {
			tmp := filepath.Join(filepath.Dir(p), ".editor-save.tmp")
			if err = os.WriteFile(tmp, []byte(s), 0o644); err == nil {
				err = os.Rename(tmp, p)
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Fprintf(logf, "%s %s\n", rel, marker)
		time.Sleep(time.Duration(5000+rng.IntN(20000)) * time.Microsecond)
	}
	logf.Close()
	os.Exit(0)
}

// TestOutsideEditor runs 500 calls (mem_update_phase, mem_set_summary,
// mem_archive incremental, mem_context_hygiene trim: the editor's session
// blocks make the log need a trim now and then) while the editor process
// writes, then looks for every marker the editor wrote: in its file, or
// in the trim's archive where a trim moved its block. Calls that met the
// editor's write answer CONFLICT or CONTEXT_HYGIENE_RACE; none may lose a
// marker.
func TestOutsideEditor(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 500 calls against another process")
	}
	dir := t.TempDir()
	makeTree(t, dir, map[string]string{
		editorContext:                 "---\nkind: project\nphase: build\nsummary: The alpha project.\n---\n# Alpha\n\n## Notes\n",
		editorLog:                     raceLog("2026-11-29", "2026-11-28", "2026-11-27"),
		"memory/ACTIVE_PRIORITIES.md": "## Operating Mode: ship\n\n## Tier 1\n- one\n\nLast reviewed: 2026-11-29\n",
	})
	side := t.TempDir()
	markers, stop := filepath.Join(side, "markers"), filepath.Join(side, "stop")
	cmd := exec.Command(os.Args[0], "-test.run=^TestEditorProcess$")
	cmd.Env = append(os.Environ(), editorDirEnv+"="+dir, editorLogEnv+"="+markers, editorStopEnv+"="+stop)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stopEditor := func() {
		if !stopped {
			stopped = true
			os.WriteFile(stop, nil, 0o644)
			if err := cmd.Wait(); err != nil {
				t.Errorf("editor: %v", err)
			}
		}
	}
	defer stopEditor()

	v := openVault(t, dir)
	eng := engine.Native()
	day := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	codes := map[string]int{}
	const calls = 500
	for i := range calls {
		var tool, args string
		switch i % 4 {
		case 0:
			tool, args = "mem_update_phase", fmt.Sprintf(`{"slug":"alpha","phase":"phase %d"}`, i)
		case 1:
			tool, args = "mem_set_summary", fmt.Sprintf(`{"slug":"alpha","summary":"Summary %d."}`, i)
		case 2:
			tool, args = "mem_archive", fmt.Sprintf(`{"slug":"alpha","phase":"archived phase %d"}`, i)
		case 3:
			tool, args = "mem_context_hygiene", `{"action":"trim"}`
		}
		out, err := call.Run(context.Background(), v, eng, tool, json.RawMessage(args), call.Options{Now: day.Add(time.Duration(i) * time.Minute)})
		if err != nil {
			t.Fatalf("call %d %s: %v", i, tool, err)
		}
		code := "ok"
		if !out.OK {
			var ans struct{ Error struct{ Code string } }
			json.Unmarshal(out.Answer, &ans)
			code = ans.Error.Code
		}
		codes[tool+" "+code]++
		if tool == "mem_context_hygiene" && code == "ok" && os.Getenv("DEBUG_EDITOR") != "" {
			t.Logf("%s", out.Answer)
		}
	}
	stopEditor()

	f, err := os.Open(markers)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var haystack strings.Builder
	for _, p := range []string{editorContext, editorLog} {
		b, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		haystack.Write(b)
	}
	archives, _ := filepath.Glob(filepath.Join(dir, "memory", "SESSION_LOG_ARCHIVE_*.md"))
	for _, p := range archives {
		b, _ := os.ReadFile(p)
		haystack.Write(b)
	}
	all := haystack.String()
	written, lost := map[string]int{}, map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		file, marker, _ := strings.Cut(sc.Text(), " ")
		written[file]++
		if !strings.Contains(all, marker+"\n") {
			lost[file] = append(lost[file], marker)
		}
	}
	var summary []string
	for k, n := range codes {
		summary = append(summary, fmt.Sprintf("%s: %d", k, n))
	}
	sort.Strings(summary)
	t.Logf("%d calls (%s); the editor wrote %d markers in %s and %d in %s (%d trim archives); lost: %d in %s, %d in %s",
		calls, strings.Join(summary, ", "), written[editorContext], editorContext, written[editorLog], editorLog, len(archives),
		len(lost[editorContext]), editorContext, len(lost[editorLog]), editorLog)
	if written[editorContext] == 0 || written[editorLog] == 0 {
		t.Errorf("the editor wrote nothing to one of the files")
	}
	if len(lost[editorContext])+len(lost[editorLog]) > 0 {
		t.Errorf("lost markers: %v", lost)
	}
}
