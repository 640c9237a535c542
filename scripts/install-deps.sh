#!/usr/bin/env bash
# Installs tropic's build and test dependencies from Debian packages (run as root, or with sudo).
# Used by the README's quick start and by .ci/run, so both stay in step.
#   --bench   also python3-matplotlib, for bench/plot.py (CI does not need it)
#   --fuzz    also clang and its runtime libraries (libFuzzer), for scripts/fuzz.sh
set -euo pipefail
packages=(cmake g++ make pkg-config doctest-dev libgraphblas-dev zlib1g-dev)
# The Python module (python/): headers for the extension, and a venv for its pip packages.
packages+=(python3-dev python3-venv python3-pip)
for arg in "$@"; do
  case "$arg" in
    --bench) packages+=(python3-matplotlib) ;;
    --fuzz) packages+=(clang libclang-rt-dev) ;;
    -h | --help)
      echo "usage: scripts/install-deps.sh [--bench] [--fuzz]"
      exit 0
      ;;
    *)
      echo "install-deps.sh: unknown argument '$arg' (usage: scripts/install-deps.sh [--bench] [--fuzz])" >&2
      exit 2
      ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  # Another apt (unattended-upgrades on a fresh cloud machine) may hold the lock: wait for it
  # up to five minutes instead of failing at once.
  lock=(-o DPkg::Lock::Timeout=300)
  $sudo apt-get "${lock[@]}" update -qq
  $sudo apt-get "${lock[@]}" install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "tropic dependencies present: ${packages[*]}"

# The Python module's build and test packages, from PyPI into a venv beside the sources (Debian's
# python3 refuses system-wide pip installs); scripts/test.sh and quickstart.sh use it.
venv="${TROPIC_VENV:-$(cd "$(dirname "$0")/.." && pwd)/.venv}"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q scikit-build-core nanobind numpy scipy pytest
# Optional: the python-graphblas input of tropic.sssp is tested only where it installs.
"$venv/bin/python" -m pip install -q python-graphblas ||
  echo "note: python-graphblas did not install; its test will skip and say so"
echo "tropic Python packages present in $venv"
