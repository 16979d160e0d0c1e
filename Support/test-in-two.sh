#!/bin/sh
# The built test bundle run as two processes side by side: the tests FIRST names (a filter) in
# one, and every other test in SCOPE (a filter; all of them when omitted) in the other. Many
# tests are on the main actor (the view models and state, and the CLI run in-process), which is
# one thread per process: in one process they queue behind each other while the second core
# idles. Each half's log is printed whole once both end, the two summaries last; the exit status
# is the first failure's. (`swift test` itself cannot run twice at once: it locks the build
# directory.)
#   make test:      test-in-two.sh BUNDLE CLITests
#   make test-fast: test-in-two.sh BUNDLE 'CarnetStorageTests' 'CarnetModelsTests|…'
set -u
bundle=${1:-.build/debug/CarnetPackageTests.xctest}
first=${2:-CLITests}
scope=${3:-}
logs=$(mktemp -d)
"$bundle" --testing-library swift-testing --filter "$first" >"$logs/first" 2>&1 &
first_pid=$!
if [ -n "$scope" ]; then
    "$bundle" --testing-library swift-testing --filter "$scope" --skip "$first" >"$logs/rest" 2>&1 &
else
    "$bundle" --testing-library swift-testing --skip "$first" >"$logs/rest" 2>&1 &
fi
rest_pid=$!
wait $first_pid; first_status=$?
wait $rest_pid; rest_status=$?
grep -v '^✔ Test run with\|^✘ Test run with' "$logs/first"
grep -v '^✔ Test run with\|^✘ Test run with' "$logs/rest"
echo "$first: $(grep -h 'Test run with' "$logs/first" || echo "no summary (status $first_status)")"
echo "the others: $(grep -h 'Test run with' "$logs/rest" || echo "no summary (status $rest_status)")"
rm -rf "$logs"
[ $first_status -eq 0 ] || exit $first_status
exit $rest_status
