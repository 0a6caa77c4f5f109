#!/usr/bin/env bash
# Install the Debian packages listed in scripts/apt-packages.txt (or in the list file given
# as the argument, e.g. scripts/apt-packages-slurm.txt for scripts/local-slurm).
# Skips apt entirely when everything is already installed, so a second run is instant.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
list="${1:-$here/apt-packages.txt}"
if [ ! -f "$list" ]; then
  echo "install-system-deps: package list not found: $list" >&2
  exit 2
fi
mapfile -t pkgs < <(grep -v '^\s*#' "$list" | sed '/^\s*$/d')
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "[setup] installing Debian packages: ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
