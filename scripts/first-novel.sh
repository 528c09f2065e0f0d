#!/usr/bin/env bash
# Builds the `novel` command and starts a first novel from examples/seed.toml in ./my-story
# (or the directory given as $1), then shows where it stands.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-my-story}"
cargo build --release --locked -p novel-cli
novel=target/release/novel
if [ ! -e "$dir/novel.toml" ]; then
  "$novel" new "$dir" --seed examples/seed.toml
fi
"$novel" -C "$dir" status
echo
echo "Try: $novel -C $dir list characters   |   $novel -C $dir inspect C0   |   $novel -C $dir export --format md"
