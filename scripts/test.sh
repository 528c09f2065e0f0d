#!/usr/bin/env bash
# Every test of the project: the Rust workspace (engine, CLI against the OpenAI-format test
# server, desktop shell and its bindings), the UI in headless Chromium with mocked IPC, and the
# real built desktop app end to end under Xvfb with tauri-driver. Sets up what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
# One-shot builds gain nothing from incremental caches, which would take gigabytes of disk.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
scripts/setup.sh

echo "== Rust tests"
cargo test --workspace --locked
echo "== UI tests (headless Chromium, mocked IPC)"
npm run --silent test:ui
echo "== building the desktop app (debug, UI embedded)"
npm run --silent app:build >/dev/null
echo "== end-to-end tests (real app under Xvfb)"
xvfb-run -a --server-args="-screen 0 1400x900x24" npm run --silent test:e2e
