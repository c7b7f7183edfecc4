#!/usr/bin/env bash
# Fetches Mesa's source for `lathe rules import-nir`: Debian trixie's `mesa` source package
# (its upstream tarball, checked against its SHA-256), unpacked under $W (default
# /tmp/mesa-ir3, the directory ../shared/peers/ir3/build.sh uses, so either script finds the
# other's download). Prints the path of nir_opt_algebraic.py. Never commit what it fetches.
#
#   scripts/fetch-mesa.sh                      # Mesa 25.0.7, the version docs/NIR.md measures
#   ./lathe rules import-nir "$(scripts/fetch-mesa.sh | tail -1)" -o nir-rules
#
# A private apt configuration under $W/apt is used: the machine's own deb sources with the
# suite set to trixie and the type to deb-src, so the machine's apt setup is not changed.
# Needs apt-get and dpkg-source (dpkg-dev) only for the download; python3 for the import.
set -euo pipefail
W="${W:-/tmp/mesa-ir3}"
MESA_VER=25.0.7
MESA_DEB=25.0.7-2+deb13u1
MESA_SHA256=592272df3cf01e85e7db300c449df5061092574d099da275d19e97ef0510f8a6
mkdir -p "$W" && cd "$W"
rules="$W/mesa-$MESA_VER/src/compiler/nir/nir_opt_algebraic.py"
if [ ! -f "$rules" ]; then
  if [ ! -f "mesa_$MESA_VER.orig.tar.xz" ]; then
    mkdir -p apt/lists/partial apt/sources.list.d
    sed -e 's/^Types: deb$/Types: deb-src/' -e 's/^Suites: bookworm bookworm-updates$/Suites: trixie/' \
        /etc/apt/sources.list.d/debian.sources |
      awk 'BEGIN{RS=""; ORS="\n\n"} /Suites: trixie/' > apt/sources.list.d/trixie-src.sources
    APTO=(-o Dir::Etc::SourceParts="$W/apt/sources.list.d" -o Dir::Etc::SourceList=/dev/null
          -o Dir::State::Lists="$W/apt/lists")
    apt-get "${APTO[@]}" update >&2
    apt-get "${APTO[@]}" source --download-only "mesa=$MESA_DEB" >&2
  fi
  echo "$MESA_SHA256  mesa_$MESA_VER.orig.tar.xz" | sha256sum -c >&2
  tar xJf "mesa_$MESA_VER.orig.tar.xz" "mesa-$MESA_VER/src/compiler/nir"
fi
echo "$rules"
