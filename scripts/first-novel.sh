#!/usr/bin/env bash
# Builds the `novel` command, starts a first novel from examples/seed.toml in ./my-story (or the
# directory given as $1) and writes its first scene.
#
# The scene needs an LLM. Point it at any OpenAI-compatible server once, for example:
#   NOVEL_BASE_URL=http://127.0.0.1:8080/v1 NOVEL_MODEL=my-model ./scripts/first-novel.sh
# (llama.cpp, Ollama at http://127.0.0.1:11434/v1, LM Studio, vLLM, OpenRouter, OpenAI). For a
# hosted API also set NOVEL_API_KEY_ENV to the NAME of the variable that holds your key, or keep
# the key in the OS keychain instead: target/release/novel providers set-key default
# Safe to run again: the profile is replaced, an existing novel is kept and gets its next scene.
set -euo pipefail
dir="${1:-}"
# A directory given as $1 is relative to where the script was started, not to the repository.
if [ -n "$dir" ] && [ "${dir#/}" = "$dir" ]; then dir="$PWD/$dir"; fi
cd "$(dirname "$0")/.."
dir="${dir:-my-story}"
cargo build --release --locked -p novel-cli
novel=target/release/novel
# A release build looks for the embedding model only where it is told (never beside itself):
# the checkout's models/, when scripts/fetch-embedding-model.sh put it there.
if [ -z "${NOVEL_MODELS_DIR:-}" ] && [ -d models ]; then export NOVEL_MODELS_DIR="$PWD/models"; fi

if [ -n "${NOVEL_BASE_URL:-}" ]; then
  key_args=()
  if [ -n "${NOVEL_API_KEY_ENV:-}" ]; then key_args=(--api-key-env "$NOVEL_API_KEY_ENV"); fi
  # ${a[@]+...} because bash 3.2 (macOS) calls an empty array unbound under `set -u`.
  "$novel" providers add --name default --base-url "$NOVEL_BASE_URL" --model "${NOVEL_MODEL:?set NOVEL_MODEL too}" ${key_args[@]+"${key_args[@]}"} --default
fi
if [ ! -e "$dir/novel.toml" ]; then
  "$novel" new "$dir" --seed examples/seed.toml
fi
"$novel" -C "$dir" tick
"$novel" -C "$dir" status
echo
echo "Next: $novel -C $dir run --n 5   |   $novel -C $dir summarize   |   $novel -C $dir export --format md"
