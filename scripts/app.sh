#!/usr/bin/env bash
# Sets up what is missing, builds the Novel Agent desktop app (release, UI embedded) and starts
# it. The first build takes about fifteen minutes on two cores; later starts are immediate.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --app
if [ ! -x target/release/novel-agent ] || [ -n "$(find src-tauri crates ui/src ui/index.html -newer target/release/novel-agent -print -quit 2>/dev/null)" ]; then
  echo "== building the desktop app (release)"
  npm run --silent tauri -- build --no-bundle
fi
# A release build looks for the embedding model only in its bundled and data folders and in
# NOVEL_MODELS_DIR (never beside itself): point it at the checkout's models/ that setup fetched.
if [ -z "${NOVEL_MODELS_DIR:-}" ] && [ -d models ]; then export NOVEL_MODELS_DIR="$PWD/models"; fi
exec target/release/novel-agent "$@"
