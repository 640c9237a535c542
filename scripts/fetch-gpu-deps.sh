#!/usr/bin/env bash
# The GPU machine we measure on has no package registry and no SuiteSparse:GraphBLAS. This
# downloads the Debian packages tropic builds against into .deps/debs (git-ignored), so that a
# run there can carry that folder; scripts/gpu-check.sh unpacks them into a private prefix.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .deps/debs
cd .deps/debs
# apt-get download writes into the current folder; _apt cannot always write here, so run the
# download as the invoking user (root on our machines) without the sandbox warning mattering.
apt-get download libgraphblas7 libgraphblas-dev doctest-dev zlib1g-dev 2>&1 | grep -v "^W: Download is performed unsandboxed" || true
ls -1 *.deb
