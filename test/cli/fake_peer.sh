#!/bin/sh
# A stand-in for a peer driver (protocol: bench/peers/peer_driver.h) for the bench.peers_fake
# test, which checks how tropic_bench reads, checks and reports a peer's answers without
# building GAP or LAGraph. Usage: fake_peer.sh MODE GRAPH --sources S1,S2 ... --distances PREFIX
#   good   answers with tropic's own Dijkstra ($TROPIC_CLI sssp --output)
#   wrong  the same, with one distance (the second line's) one too large: a FAILURE row
#   short  the same, without the last vertex's line: a FAILURE that names the count
#   crash  dies of SIGSEGV after loading: error rows that say so
set -eu
mode=$1
graph=$2
shift 2
sources="" runs=1 prefix=""
while [ $# -ge 2 ]; do
  case $1 in
    --sources) sources=$2 ;;
    --runs) runs=$2 ;;
    --distances) prefix=$2 ;;
  esac
  shift 2
done
echo "@peer threads=1 n=0 arcs=0 load_ms=0.5"
if [ "$mode" = crash ]; then kill -SEGV $$; fi
echo "@sweep delta=65536 ms=2.0"
echo "@sweep delta=32768 ms=1.0"
echo "@delta 32768"
for s in $(echo "$sources" | tr , ' '); do
  "$TROPIC_CLI" sssp "$graph" --source "$s" --algorithm dijkstra --output "$prefix.$s" --quiet \
    >/dev/null
  if [ "$mode" = wrong ]; then
    awk 'NR == 2 && $2 != "inf" { $2 = $2 + 1 } { print }' "$prefix.$s" >"$prefix.$s.tmp"
    mv "$prefix.$s.tmp" "$prefix.$s"
  elif [ "$mode" = short ]; then
    sed '$d' "$prefix.$s" >"$prefix.$s.tmp"
    mv "$prefix.$s.tmp" "$prefix.$s"
  fi
  i=0
  while [ $i -lt "$runs" ]; do
    echo "@run source=$s ms=1.5"
    i=$((i + 1))
  done
  echo "@distances source=$s file=$prefix.$s"
done
