#!/usr/bin/env bash
# Installs the desktop app's .deb on a clean Debian 12 root and drives the installed app under
# Xvfb: a minimal Debian (debootstrap from the Debian mirror), `apt install ./package.deb`
# bringing WebKitGTK and GTK as a novelist's machine would, then tests/install/ through
# tauri-driver with the app running inside that root (chroot). Needs root (or sudo), the Debian
# mirror, and the package (default: the newest under target/*/bundle/deb).
#
#   scripts/install-test.sh [path/to/package.deb]
set -euo pipefail
cd "$(dirname "$0")/.."
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
deb="${1:-$(ls -t "${CARGO_TARGET_DIR:-target}"/*/bundle/deb/*.deb 2>/dev/null | head -1)}"
[ -f "$deb" ] || { echo "install-test.sh: no .deb found; build one with scripts/package.sh" >&2; exit 1; }
command -v debootstrap >/dev/null || $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

# Outside /tmp: the host's /tmp is bound inside the root (the X socket, the test's temp
# folders and the test server's config are then at the same paths on both sides).
root="$(mktemp -d /var/tmp/novel-clean-root.XXXXXX)"
unmount_all() {
  # Innermost first; everything must be unmounted before the root is deleted, or rm would
  # reach the host's /tmp and /dev through the binds.
  for m in $(findmnt -rn -o TARGET | grep -F "$root" | sort -r); do
    $sudo umount -l "$m" 2>/dev/null || true
  done
}
cleanup() {
  pids=$($sudo find /proc -maxdepth 1 -regex '/proc/[0-9]+' -printf '%f\n' 2>/dev/null | while read -r p; do
    [ "$($sudo readlink "/proc/$p/root" 2>/dev/null)" = "$root" ] && echo "$p"; done || true)
  [ -n "$pids" ] && $sudo kill -9 $pids 2>/dev/null || true
  unmount_all
  if findmnt -rn -o TARGET | grep -qF "$root"; then
    echo "install-test.sh: $root still has mounts; left in place" >&2
  else
    $sudo rm -rf --one-file-system "$root"
  fi
}
trap cleanup EXIT

echo "== a clean Debian 12 root (debootstrap, minbase) in $root"
$sudo debootstrap --variant=minbase bookworm "$root" "$mirror" >/dev/null
$sudo cp /etc/resolv.conf "$root/etc/resolv.conf"
$sudo mount -t proc proc "$root/proc"
$sudo mount --rbind /sys "$root/sys"
$sudo mount --rbind /dev "$root/dev"
$sudo mount --bind /tmp "$root/tmp"

echo "== apt install $(basename "$deb") in it"
$sudo cp "$deb" "$root/root/novel-agent.deb"
in_root() { $sudo chroot "$root" env DEBIAN_FRONTEND=noninteractive "$@"; }
in_root apt-get update -qq
in_root apt-get install -y -qq --no-install-recommends /root/novel-agent.deb >/dev/null
for f in /usr/bin/novel-agent "/usr/share/applications/Novel Agent.desktop" \
  "/usr/lib/Novel Agent/models/onnxruntime/libonnxruntime.so.1.31.1" \
  "/usr/lib/Novel Agent/models/all-MiniLM-L6-v2/model.onnx"; do
  [ -f "$root$f" ] || { echo "install-test.sh: the package did not install $f" >&2; exit 1; }
done
echo "installed: $(in_root dpkg-query -W -f '${Package} ${Version}, ${Installed-Size} kB' novel-agent)"

# The scene is written by the local OpenAI-format test server, run on the host side (the
# root shares its network); on a fresh clone it is not built yet.
cargo build --locked --quiet -p novel-test-server

# tauri-driver starts the app through this launcher: the installed binary, inside the root.
launcher="$(mktemp /tmp/novel-installed-app.XXXXXX)"
printf '#!/bin/sh\nexec %s chroot %q /usr/bin/novel-agent "$@"\n' "$sudo" "$root" > "$launcher"
chmod +x "$launcher"
echo "== the installed app under Xvfb (tests/install)"
NOVEL_AGENT_APP="$launcher" NOVEL_INSTALL_ROOT="$root" \
  xvfb-run -a --server-args="-screen 0 1400x900x24" node --test --test-concurrency=1 tests/install/
rm -f "$launcher"
