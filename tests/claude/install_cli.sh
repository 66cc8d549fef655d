#!/usr/bin/env bash
# Installs the pinned Claude Code CLI into <repo>/.cache/claude-code for the end-to-end tests.
# A no-op when that version is already there. Prints the path of the `claude` executable.
# Usage: bash tests/claude/install_cli.sh   (env: CLAUDE_CODE_VERSION, CLAUDE_CODE_CACHE)
set -euo pipefail

VERSION="${CLAUDE_CODE_VERSION:-2.1.328}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PREFIX="${CLAUDE_CODE_CACHE:-$ROOT/.cache/claude-code}"
BIN="$PREFIX/node_modules/.bin/claude"

installed_version() {
  local pkg="$PREFIX/node_modules/@anthropic-ai/claude-code/package.json"
  [ -f "$pkg" ] || return 0
  node -e 'process.stdout.write(require(process.argv[1]).version)' "$pkg" 2>/dev/null || true
}

if [ "$(installed_version)" != "$VERSION" ] || ! "$BIN" --version >/dev/null 2>&1; then
  echo "install_cli: installing @anthropic-ai/claude-code@$VERSION into $PREFIX" >&2
  mkdir -p "$PREFIX"
  [ -f "$PREFIX/package.json" ] || echo '{"private":true}' >"$PREFIX/package.json"
  npm install --prefix "$PREFIX" --prefer-offline --no-audit --no-fund --loglevel=error \
    "@anthropic-ai/claude-code@$VERSION" >&2
  "$BIN" --version >&2
else
  echo "install_cli: @anthropic-ai/claude-code@$VERSION already in $PREFIX" >&2
fi
echo "$BIN"
