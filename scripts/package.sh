#!/usr/bin/env bash
# Builds the desktop app's installable package: a .deb with the embedding model and ONNX
# Runtime inside (src-tauri/tauri.bundle.conf.json), so semantic search works out of the box.
#
#   scripts/package.sh              release build → target/release/bundle/deb/*.deb
#   scripts/package.sh --appimage   also an AppImage (Tauri downloads linuxdeploy from GitHub
#                                   for it, so it needs a machine that reaches github.com)
#   scripts/package.sh --debug      a debug build of the same package (CI's install test)
#
# Install with `sudo apt install ./target/release/bundle/deb/Novel\ Agent_*_amd64.deb`; apt
# brings WebKitGTK and GTK. The AppImage runs on any recent Linux without installing.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
bundles=deb
mode=()
for arg in "$@"; do
  case "$arg" in
    --appimage) bundles=deb,appimage ;;
    --debug) mode=(--debug) ;;
    *) echo "package.sh: unknown option $arg (expected --appimage or --debug)" >&2; exit 2 ;;
  esac
done
scripts/setup.sh --app
# setup.sh fetches the model when it can; a package without it would have semantic search off.
for f in models/onnxruntime/libonnxruntime.so.1.31.1 models/all-MiniLM-L6-v2/model.onnx; do
  [ -f "$f" ] || { echo "package.sh: $f is missing; run scripts/fetch-embedding-model.sh" >&2; exit 1; }
done
npm run --silent tauri -- build "${mode[@]}" --bundles "$bundles" --config src-tauri/tauri.bundle.conf.json
dir="${CARGO_TARGET_DIR:-target}/$([ ${#mode[@]} -gt 0 ] && echo debug || echo release)/bundle"
echo "== packages:"
find "$dir" -maxdepth 2 -type f \( -name '*.deb' -o -name '*.AppImage' \) -print
