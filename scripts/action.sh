#!/usr/bin/env bash
# The steps of baton's GitHub Action (action.yml at the repository's root):
#
#   action.sh install   puts baton on PATH: the release archive for the runner's
#                       OS and architecture, checked against the release's
#                       SHA256SUMS; `go install` when asked (INPUT_INSTALL=go) or
#                       when the release has no archive for this runner
#   action.sh check     runs baton check: SARIF into INPUT_SARIF_FILE, then the
#                       INPUT_FORMAT output into the log; the exit status goes to
#                       the step's exit-code output, and only bad usage (2) fails
#                       the step, so that the SARIF is uploaded before the job fails
#
# It reads what Actions gives a step: the action's inputs as INPUT_* (action.yml
# passes them), RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_PATH, GITHUB_OUTPUT,
# and ACTION_REF (the ref the workflow named the action at). BATON_RELEASES is
# where releases are fetched from (default https://github.com/baton-md/baton/releases).
set -euo pipefail

RELEASES=${BATON_RELEASES:-https://github.com/baton-md/baton/releases}
MODULE=github.com/baton-md/baton/cmd/baton

fail() {
	echo "::error title=baton::$*"
	exit 1
}
output() { echo "$1=$2" >>"${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set: run as an Actions step}"; }

# version_wanted sets v: INPUT_VERSION; else the action's own ref when it is
# a release tag (uses: baton-md/baton@v1.2.3 installs baton v1.2.3); else
# latest. (It sets a variable rather than printing, so that fail exits the
# step, not a command substitution.)
version_wanted() {
	v=${INPUT_VERSION:-}
	if [ -z "$v" ]; then
		if [[ ${ACTION_REF:-} =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
			v=$ACTION_REF
		else
			v=latest
		fi
	fi
	case $v in
	latest) ;;
	v[0-9]*) ;;
	[0-9]*) v=v$v ;;
	*) fail "version \"$v\": want latest or a release such as v1.2.3" ;;
	esac
	case $v in *[!A-Za-z0-9._+-]*) fail "version \"$v\": want latest or a release such as v1.2.3" ;; esac
}

# resolve_latest sets v to the tag the releases' "latest" link redirects to.
resolve_latest() {
	local url
	url=$(curl -fsSL --retry 3 -o /dev/null -w '%{url_effective}' "$RELEASES/latest") ||
		fail "cannot reach $RELEASES/latest"
	case $url in
	*/tag/v*) v=${url##*/tag/} ;;
	*) fail "$RELEASES/latest led to $url, not a release tag" ;;
	esac
}

sha256() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d' ' -f1
	else
		shasum -a 256 "$1" | cut -d' ' -f1
	fi
}

go_install() {
	local v=$1 why=$2 bindir=$3
	command -v go >/dev/null 2>&1 ||
		fail "$why, and go is not on PATH for go install: add actions/setup-go before this action"
	echo "baton: $why: go install $MODULE@$v"
	GOBIN=$bindir go install "$MODULE@$v" || fail "go install $MODULE@$v failed"
}

install() {
	local v os arch ext name bindir exe dl
	version_wanted
	case ${RUNNER_OS:-} in
	Linux) os=linux ;;
	macOS) os=darwin ;;
	Windows) os=windows ;;
	*) os= ;;
	esac
	case ${RUNNER_ARCH:-} in
	X64) arch=amd64 ;;
	ARM64) arch=arm64 ;;
	*) arch= ;;
	esac
	exe=baton
	[ "$os" = windows ] && exe=baton.exe
	bindir=${RUNNER_TEMP:?RUNNER_TEMP is not set: run as an Actions step}/baton-bin
	rm -rf "$bindir"
	mkdir -p "$bindir"

	if [ "${INPUT_INSTALL:-release}" = go ]; then
		go_install "$v" "install: go" "$bindir"
	elif [ "${INPUT_INSTALL:-release}" != release ]; then
		fail "install \"$INPUT_INSTALL\": want release or go"
	elif [ -z "$os" ] || [ -z "$arch" ]; then
		go_install "$v" "no release archive for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?}" "$bindir"
	else
		[ "$v" = latest ] && resolve_latest
		ext=tar.gz
		[ "$os" = windows ] && ext=zip
		name=baton_${v#v}_${os}_${arch}.$ext
		dl=$(mktemp -d "$RUNNER_TEMP/baton-dl.XXXXXX")
		local status
		status=$(curl -sSL --retry 3 -o "$dl/$name" -w '%{http_code}' "$RELEASES/download/$v/$name") ||
			fail "cannot download $RELEASES/download/$v/$name"
		if [ "$status" = 404 ]; then
			go_install "$v" "release $v has no $name" "$bindir"
		else
			[ "$status" = 200 ] || fail "$RELEASES/download/$v/$name: HTTP $status"
			curl -fsSL --retry 3 -o "$dl/SHA256SUMS" "$RELEASES/download/$v/SHA256SUMS" ||
				fail "cannot download $RELEASES/download/$v/SHA256SUMS: the archive cannot be checked"
			local want got
			want=$(awk -v n="$name" '$2 == n { print $1 }' "$dl/SHA256SUMS")
			[ -n "$want" ] || fail "SHA256SUMS of $v does not list $name"
			got=$(sha256 "$dl/$name")
			[ "$got" = "$want" ] || fail "$name: SHA-256 $got, but SHA256SUMS says $want: not installing it"
			if [ "$ext" = zip ]; then
				if command -v unzip >/dev/null 2>&1; then
					unzip -q -o "$dl/$name" "$exe" -d "$bindir"
				else
					pwsh -NoProfile -Command "Expand-Archive -Force -Path '$dl/$name' -DestinationPath '$bindir'"
				fi
			else
				tar -xzf "$dl/$name" -C "$bindir" "$exe"
			fi
			echo "baton: installed $name (SHA-256 $got)"
		fi
		rm -rf "$dl"
	fi
	[ -x "$bindir/$exe" ] || fail "no $exe in $bindir after installing"
	local line
	line=$("$bindir/$exe" version | head -n 1) || fail "$bindir/$exe does not run"
	if [ "$v" != latest ] && [ "$line" != "baton $v" ]; then
		fail "the installed binary says \"$line\", want \"baton $v\""
	fi
	echo "$bindir" >>"${GITHUB_PATH:?GITHUB_PATH is not set: run as an Actions step}"
	output version "${line#baton }"
	output path "$bindir/$exe"
	echo "baton: $line"
}

check() {
	local args=(check) paths=() status
	[ -n "${INPUT_CONFIG:-}" ] && args+=(--config "$INPUT_CONFIG")
	# Paths split on white space, unexpanded: baton expands quoted globs itself.
	set -f
	# shellcheck disable=SC2206
	paths=(${INPUT_PATHS:-.})
	set +f
	[ ${#paths[@]} -gt 0 ] || paths=(.)
	local baton=${BATON:-baton}
	if [ -n "${INPUT_SARIF_FILE:-}" ]; then
		status=0
		"$baton" "${args[@]}" --format sarif "${paths[@]}" >"$INPUT_SARIF_FILE" || status=$?
		[ "$status" -le 1 ] || fail "baton check --format sarif exited $status"
		output sarif-file "$INPUT_SARIF_FILE"
	fi
	status=0
	"$baton" "${args[@]}" --format "${INPUT_FORMAT:-github}" "${paths[@]}" || status=$?
	output exit-code "$status"
	[ "$status" -le 1 ] || fail "baton check exited $status"
	[ "$status" -eq 0 ] || echo "baton: error findings (exit status 1)"
}

case ${1:-} in
install) install ;;
check) check ;;
*)
	echo "usage: action.sh install|check" >&2
	exit 2
	;;
esac
