#!/usr/bin/env bash
# Installs tropic's build and test dependencies from Debian packages (run as root, or with sudo).
# Used by the README's quick start and by .ci/run, so both stay in step.
#   --bench   also python3-matplotlib, for bench/plot.py (CI does not need it)
set -euo pipefail
packages=(cmake g++ make pkg-config doctest-dev libgraphblas-dev zlib1g-dev)
for arg in "$@"; do
  case "$arg" in
    --bench) packages+=(python3-matplotlib) ;;
    -h | --help)
      echo "usage: scripts/install-deps.sh [--bench]"
      exit 0
      ;;
    *)
      echo "install-deps.sh: unknown argument '$arg' (usage: scripts/install-deps.sh [--bench])" >&2
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
