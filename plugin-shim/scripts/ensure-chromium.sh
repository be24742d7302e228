#!/usr/bin/env bash
# Installs Debian's chromium for the plugin's headless browser tests, when
# it is missing (the repository's scripts/ensure-debian.sh).
exec bash "$(dirname "$0")/../../scripts/ensure-debian.sh" /usr/bin/chromium chromium
