#!/bin/sh
# `make test`'s last step on Linux: the built test bundle run as two processes side by side, the
# CLI's tests in one and every other test in the other. Many tests are on the main actor (the
# view models and state, and the CLI run in-process), which is one thread per process: in one
# process they queue behind each other while the second core idles. Each half's log is printed
# whole once both end, the two summaries last; the exit status is the first failure's.
# (`swift test` itself cannot run twice at once: it locks the build directory.)
set -u
bundle=${1:-.build/debug/CarnetPackageTests.xctest}
logs=$(mktemp -d)
"$bundle" --testing-library swift-testing --filter CLITests >"$logs/cli" 2>&1 &
cli=$!
"$bundle" --testing-library swift-testing --skip CLITests >"$logs/rest" 2>&1 &
rest=$!
wait $cli; cli_status=$?
wait $rest; rest_status=$?
grep -v '^✔ Test run with\|^✘ Test run with' "$logs/cli"
grep -v '^✔ Test run with\|^✘ Test run with' "$logs/rest"
echo "CLI tests:      $(grep -h 'Test run with' "$logs/cli" || echo "no summary (status $cli_status)")"
echo "all the others: $(grep -h 'Test run with' "$logs/rest" || echo "no summary (status $rest_status)")"
rm -rf "$logs"
[ $cli_status -eq 0 ] || exit $cli_status
exit $rest_status
