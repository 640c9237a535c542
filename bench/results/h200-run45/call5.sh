# Call 5: 7f9f1c1's binaries. racecheck on the list's cases of the rdbs suite (the changed light
# phase) and on the push whose improved output is a pattern (call 4 ran out of time in operators).
set -u
source build-carry/setup.sh
cd build
cases='*small graph for the sanitizers*,*vertex of degree 100k*,*host entry point*,*bad input*,*overflow*,*a source out of range*,*more arcs than the grid holds tiles*'
timeout 270 compute-sanitizer --tool racecheck --error-exitcode 1 --print-limit 20 ./test/tropic_tests -ts=rdbs,operators -tc="$cases" > /tmp/rc.log 2>&1; echo "racecheck rc $?" >> /tmp/rc.log
grep -E "=========|^\[doctest\]|rc " /tmp/rc.log | tail -n 30 > $OUT/call5-rc.log
