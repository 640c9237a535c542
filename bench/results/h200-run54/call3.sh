#!/usr/bin/env bash
# Run 54, call 3 (one H200): what one hop of the closure's local rounds costs (tune_delta_stepping
# 'hop latency': paths of unit arcs at Δ = ∞, 1, 64 and 1,024 of them side by side).
source build-carry/setup.sh
tar -xJf build-carry/b3.tar.xz
exec > $OUT/call3.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
timeout 300 build/bench/tune/tune_delta_stepping 'hop latency'
echo "hop latency rc $?"
