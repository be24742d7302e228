#!/usr/bin/env bash
# make demo: run Kessho's tools on a copy of the demo vault (never the
# vault in the repo) and show, after each step, exactly what changed.
set -euo pipefail
kessho=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$here/vault" "$work/vault"
cp -R "$here/vault" "$work/before"
export KESSHO_VAULT="$work/vault"
flags=(--tz Europe/Paris --now 2026-11-30T10:15:00+01:00)

step() { # step TITLE CMD…: run one kessho command, print its output and the diff
  local title=$1; shift
  printf '\n\033[1m== %s\033[0m\n$ kessho' "$title"
  local a; for a in "$@"; do
    if [[ $a =~ [^A-Za-z0-9_./=-] ]]; then printf " '%s'" "${a//\'/\'\\\'\'}"; else printf ' %s' "$a"; fi
  done; printf '\n'

  set +e
  "$kessho" "${flags[@]}" "$@"
  local code=$?
  set -e
  echo "(exit $code)"
  (cd "$work" && diff -ruN -x .kessho before vault | sed -E 's/\t[0-9]{4}-[0-9]{2}-[0-9]{2} .*$//') || true
  rm -rf "$work/before" && cp -R "$work/vault" "$work/before"
}

echo "Demo vault copied to a temporary folder; the repo's copy is never edited."
step "Set the phase: only the value's bytes change (quotes and comment kept)" phase kessho-docs review
step "Set the summary: line breaks joined, other keys untouched" summary kessho-docs "The install chapter is done;
the CLI chapter is half written."
step "The same call as JSON, as agents and scripts make it" call mem_update_phase --json '{"slug":"garden-sensor","phase":"field test"}'
step "A refusal: bad slug, nothing written" call mem_set_summary --json '{"slug":"../etc","summary":"x"}'
step "A refusal: archived project, nothing written" phase old-blog review
step "A refusal: too long a summary, never cut" summary kessho-docs "$(printf 'word %.0s' {1..70})"
archive=(archive kessho-docs --mode full --phase review
  --archive-subject "CLI chapter"
  --archive-body-md "Wrote the CLI chapter from /home/ada/src/kessho/host/cli/cli.go.

## Next steps
- Obsidian chapter."
  --archive-aliases "the command line"
  --derive '[{"fact":"Every CLI example names its vault","body":"Readers copy examples; an example without --vault edits whatever folder they stand in.","kind":"principle"}]')
step "Archive the session in full: archive note, history line, a derived atom, new phase" "${archive[@]}"
step "The same archive again, as an agent retrying: already archived, nothing written" "${archive[@]}"
step "Roll the archive back whole: the note and its line go, the atom it made goes, the context it replaced comes back byte for byte" \
  rollback kessho-docs --archive 2026-11-30-10h15-kessho-docs-cli-chapter.md --restore-context
step "Roll back again with the same name: refused, the older archive is safe" \
  rollback kessho-docs --archive 2026-11-30-10h15-kessho-docs-cli-chapter.md
step "Roll back again without a name, as an agent whose client timed out: refused, the older archive is safe" \
  rollback kessho-docs
step "The week's worklog, collected (read-only): sessions and hours by project" worklog --week-of 2026-11-27
echo
echo "Done. The same calls run in Obsidian and over MCP through the same wasm module."
