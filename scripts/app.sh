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
exec target/release/novel-agent "$@"
