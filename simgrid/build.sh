#!/usr/bin/env bash
# Builds the engine's SimGrid: version 3.32 from its source distribution on the Python
# package index (the full C++ tree), pinned by hash, with the patches of simgrid/patches/
# applied in order, installed into <root>/prefix (default root: build/simgrid).
#
# Why our own build and not Debian's libsimgrid-dev: SimGrid 3.32's ptask solver ignores
# activity weights and builds an n-host all-to-all in O(n^3); the patches fix both
# (simgrid/README.md says what each one does and why).
#
# Incremental: the archive is downloaded once; the patched tree is compared with the
# previous one and only changed files are touched, so editing a patch recompiles only
# what it changes. Usage: simgrid/build.sh [root]
set -euo pipefail

readonly VERSION=3.32
readonly URL="https://files.pythonhosted.org/packages/a0/72/a42e5172ae0ef7633a97487cb99021901cf42931340cbb8c37605f608221/simgrid-${VERSION}.tar.gz"
readonly SHA256=3cc752a28deb2ae42cd51cc835a572f13201702dc94545ced0e77c657231cd76
readonly JOBS="${JOBS:-2}"

here="$(cd "$(dirname "$0")" && pwd)"
root="$(mkdir -p "${1:-build/simgrid}" && cd "${1:-build/simgrid}" && pwd)"
archive="$root/simgrid-${VERSION}.tar.gz"
say() { echo "[simgrid] $*"; }

if [ ! -f "$archive" ] || ! echo "$SHA256  $archive" | sha256sum -c --status; then
  say "downloading the SimGrid ${VERSION} source distribution"
  curl -fsSL --retry 3 -o "$archive.part" "$URL"
  if ! echo "$SHA256  $archive.part" | sha256sum -c --status; then
    echo "simgrid/build.sh: $URL does not have the pinned sha256 $SHA256 (got $(sha256sum "$archive.part" | cut -d' ' -f1))" >&2
    rm -f "$archive.part"
    exit 1
  fi
  mv "$archive.part" "$archive"
fi

# A fresh patched tree, then only its differences copied over the tree that was built.
rm -rf "$root/src.new"
mkdir -p "$root/src.new"
tar -xzf "$archive" -C "$root/src.new" --strip-components=1
for p in "$here"/patches/*.patch; do
  say "applying $(basename "$p")"
  patch -s -p1 -d "$root/src.new" --no-backup-if-mismatch < "$p"
done
if [ -d "$root/src" ]; then
  (cd "$root/src.new" && find . -type f) | while read -r f; do
    cmp -s "$root/src.new/$f" "$root/src/$f" || { mkdir -p "$(dirname "$root/src/$f")"; cp -p "$root/src.new/$f" "$root/src/$f"; touch "$root/src/$f"; }
  done
  (cd "$root/src" && find . -type f) | while read -r f; do
    [ -e "$root/src.new/$f" ] || rm -f "$root/src/$f"
  done
  rm -rf "$root/src.new"
else
  mv "$root/src.new" "$root/src"
fi

# Only the library: no SMPI, bindings, model checker or documentation. No LTO: it
# doubles the link time for no measured gain on the engine.
cmake -S "$root/src" -B "$root/build" -G Ninja -Wno-dev \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$root/prefix" \
  -DCMAKE_INSTALL_LIBDIR=lib \
  -Denable_compile_optimizations=ON -Denable_compile_warnings=OFF -Denable_lto=OFF \
  -Denable_smpi=OFF -Denable_python=OFF -Denable_java=OFF -Denable_msg=OFF \
  -Denable_model-checking=OFF -Denable_documentation=OFF -Denable_ns3=OFF \
  -Denable_fortran=OFF > "$root/configure.log"
say "building the library (the first time: about 11 CPU minutes, 6 minutes on 2 idle cores)"
# The default target: the library and the few small tools its install rules expect.
cmake --build "$root/build" -j "$JOBS" | { grep -v '^ninja: no work to do' || true; }
cmake --install "$root/build" > "$root/install.log"
test -f "$root/prefix/lib/pkgconfig/simgrid.pc"
# The engine's CMake refuses a SimGrid prefix without this list (sim/CMakeLists.txt).
mkdir -p "$root/prefix/share/datasched"
(cd "$here/patches" && sha256sum ./*.patch) > "$root/prefix/share/datasched/simgrid-patches.txt"
say "installed into $root/prefix"
