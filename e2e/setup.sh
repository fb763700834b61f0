#!/usr/bin/env bash
# Installs the editors the e2e tests drive. Safe to run repeatedly; quick
# and quiet when everything is already present.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
"$here/setup-nvim.sh"
