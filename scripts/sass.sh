#!/usr/bin/env bash
# The machine code of the kernels in an object file or executable built for sm_90, for reading
# what a kernel waits for (which loads are in flight together, which wait on a branch or a
# shuffle). The CUDA toolkit here has no binary utilities: cuobjdump and nvdisasm come from
# NVIDIA's PyPI wheels into a private cache the first time.
#
#   scripts/sass.sh FILE [REGEX]       every kernel of FILE whose mangled name matches REGEX
#   scripts/sass.sh --memory FILE [REGEX]   only its loads, stores, atomics, shuffles, barriers
#                                           and branches, one line each
#
# e.g. scripts/sass.sh --memory build/CMakeFiles/tropic_algorithms.dir/algorithms/\
# delta_stepping_device.cu.o 'bucket_loopIjLi4E'
set -euo pipefail
memory=0
if [ "${1:-}" = "--memory" ]; then memory=1; shift; fi
[ $# -ge 1 ] || { sed -n 7,12p "$0"; exit 2; }
file=$1 pattern=${2:-.}

tools=${XDG_CACHE_HOME:-$HOME/.cache}/tropic-sass
if ! [ -x "$tools/bin/cuobjdump" ] || ! [ -x "$tools/bin/nvdisasm" ]; then
  mkdir -p "$tools/bin" "$tools/wheels"
  python3 -m pip download --quiet --no-deps -d "$tools/wheels" nvidia-cuda-cuobjdump \
    nvidia-cuda-nvdisasm
  for wheel in "$tools"/wheels/*.whl; do
    python3 -m zipfile -e "$wheel" "$tools/unpacked"
  done
  for tool in cuobjdump nvdisasm; do
    ln -sf "$(find "$tools/unpacked" -type f -name "$tool" | head -1)" "$tools/bin/$tool"
    chmod +x "$tools/bin/$tool"
  done
fi

# One kernel after another: a "Function :" line opens each.
PATH=$tools/bin:$PATH cuobjdump -sass "$file" |
  awk -v pattern="$pattern" '/Function : /{keep = $0 ~ pattern} keep' |
  if ((memory)); then
    grep -E "Function :|LDG|LD\.|STG|ST\.|LDS|STS|ATOM|RED|SHFL|BAR|BRA|CCTL" |
      sed -E 's@ +/\* 0x[0-9a-f]+ \*/@@; s@^ +/\*([0-9a-f]+)\*/ +@\1  @'
  else
    cat
  fi
