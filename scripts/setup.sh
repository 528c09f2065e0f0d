#!/usr/bin/env bash
# Installs what building and testing Novel Agent needs on Debian 12, skipping what is already
# there: system packages (apt, as root or with sudo), Rust components, npm packages,
# tauri-driver for the end-to-end tests, and the local embedding model (from PyPI wheels).
# `setup.sh --app` skips what only the tests need (tauri-driver, chromium for UI tests).
set -euo pipefail
for_tests=1
[ "${1:-}" = "--app" ] && for_tests=0
cd "$(dirname "$0")/.."

packages=(build-essential pkg-config file libssl-dev libgtk-3-dev libwebkit2gtk-4.1-dev
  libayatana-appindicator3-dev librsvg2-dev libxdo-dev xvfb xauth webkit2gtk-driver
  imagemagick chromium dbus gnome-keyring xdotool libclang-dev)
# The export tests validate with the tools readers' software is built on: epubcheck (a Java
# jar), LibreOffice converting the DOCX, poppler reading its PDF back. python3 runs llama.cpp's
# own JSON-Schema-to-grammar converter on the engine's schemas (tests/grammar); cmake and pip
# build llama.cpp's llama-server from its PyPI source package for the real-server stage
# (scripts/llama-server.sh).
[ "$for_tests" = 1 ] && packages+=(epubcheck default-jre-headless libreoffice-writer-nogui
  poppler-utils python3 python3-pip python3-venv cmake)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing system packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

rustup component add rustfmt clippy >/dev/null 2>&1 || true

if [ ! -x node_modules/.bin/tauri ] || [ package.json -nt node_modules/.package-lock.json ]; then
  echo "== npm install"
  npm install --no-audit --no-fund --loglevel=error
fi

if [ $for_tests -eq 1 ] && ! command -v tauri-driver >/dev/null && [ ! -x "$HOME/.cargo/bin/tauri-driver" ]; then
  echo "== cargo install tauri-driver"
  cargo install tauri-driver --locked --quiet
fi

if [ -x scripts/fetch-embedding-model.sh ]; then
  scripts/fetch-embedding-model.sh
fi
