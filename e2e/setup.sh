#!/usr/bin/env bash
# Installs the editors the e2e tests drive. Safe to run repeatedly; prints
# nothing when everything is already present.
set -euo pipefail

# Root needs no sudo; otherwise use it when available and let apt fail loudly if not.
SUDO=()
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then
	SUDO=(sudo)
fi

if ! command -v nvim >/dev/null 2>&1; then
	echo "e2e/setup.sh: installing neovim" >&2
	export DEBIAN_FRONTEND=noninteractive
	"${SUDO[@]}" apt-get update -qq
	"${SUDO[@]}" apt-get install -y -qq --no-install-recommends neovim >/dev/null
fi
