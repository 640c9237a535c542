#!/usr/bin/env bash
# Run 50, call 6 (one H200): the lean merge path's tile shapes near the default (128 x 8), on
# the merge-path graphs, twice (tune_pull_merge_shapes with TROPIC_TUNE_LEAN_SHAPES, HEAD's
# library).
source build-carry/setup.sh
tar -xJf build-carry/tune.tar.xz -C build-carry
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
graphs="data/cnr-2000.el.gz kron:20:16 data/soc-Slashdot0902.txt.gz kron:22:16 kron:24:16"
for round in 1 2; do
  TROPIC_TUNE_LEAN_SHAPES=1 timeout 200 build-carry/tune_pull_merge_shapes.new $graphs \
    > $OUT/call6-shapes-$round.log 2>&1; echo "rc $?" >> $OUT/call6-shapes-$round.log
done
for f in $OUT/call6-shapes-?.log; do echo "== $f"; grep "^[dk]\|cusparse\|resident blocks\|rc " $f | sed 's/, 0 B local//; s/resident blocks: //'; done
