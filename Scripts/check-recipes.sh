#!/bin/sh
# make check-recipes: follows the recipes of docs/architecture.md literally in a scratch copy of
# the repository (a field, a list field, a command, a file format and a server quirk, each named
# "scratch"),
# builds the copy once with all five, and runs the suites each recipe names. Prints PASS or FAIL
# per recipe and exits non-zero if one failed. Not part of `make test`: a scratch copy is a build
# from nothing (10-20 minutes here); the copy is kept in $CHECK_RECIPES_DIR (default
# .build/check-recipes) so the next run builds only what changed.
#
# A recipe that cannot be followed as written (an anchor it names is gone) fails at its edit,
# naming what it looked for: fix the recipe, or this script with it.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${CHECK_RECIPES_DIR:-$ROOT/.build/check-recipes}
SWIFT=${SWIFT:-swift}
COPY=$DIR/src
LOGS=$DIR/logs
start=$(date +%s)

mkdir -p "$COPY" "$LOGS"
echo "check-recipes: copying the working tree to $COPY"
# What git tracks or would track, as it is in the working tree (uncommitted edits included);
# files the last run copied and git no longer has are removed, the copy's .build is kept.
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard) > "$DIR/files"
find "$COPY" -path "$COPY/.build" -prune -o -type f -print | while read -r f; do
    rel=${f#"$COPY"/}
    grep -qzxF -- "$rel" "$DIR/files" || rm -f "$f"
done
(cd "$ROOT" && tr '\0' '\n' < "$DIR/files" | while read -r f; do [ -e "$f" ] && printf '%s\0' "$f"; done | tar --null -T - -cf -) \
    | (cd "$COPY" && tar -xf -)

# The versions this tree resolved (git ignores the file), so the copy builds against the same.
[ -f "$ROOT/Package.resolved" ] && cp "$ROOT/Package.resolved" "$COPY/Package.resolved"

echo "check-recipes: applying the recipes"
python3 "$ROOT/Scripts/check-recipes.py" "$COPY" > "$LOGS/edits.log" 2>&1 || {
    cat "$LOGS/edits.log"
    echo "check-recipes: FAIL: a recipe could not be followed as written (see above)"
    exit 1
}
cat "$LOGS/edits.log"

echo "check-recipes: building the copy (log: $LOGS/build.log)"
if ! (cd "$COPY" && $SWIFT build --build-tests > "$LOGS/build.log" 2>&1); then
    grep -E "error:" "$LOGS/build.log" | sort -u | head -40
    echo "check-recipes: FAIL: the copy with the recipes applied does not build ($(( $(date +%s) - start ))s)"
    exit 1
fi

run_suites() {  # recipe name, suites (a --filter pattern)
    log="$LOGS/$1.log"
    if (cd "$COPY" && .build/debug/CarnetPackageTests.xctest --testing-library swift-testing --filter "$2" > "$log" 2>&1) \
        && ! grep -q "✘" "$log"; then
        echo "PASS  $1  ($(grep -E "Test run with" "$log" | tail -1 | sed 's/.*Test run with //'))"
    else
        echo "FAIL  $1  (suites $2; log: $log)"
        grep -E "✘" "$log" | head -20
        failed=1
    fi
}
failed=0
# A new field's flag changes `carnet add --help`: the recipe says to record the help again
# (CARNET_UPDATE_GOLDEN=1) and read the diff, which must be that flag's line and nothing else.
(cd "$COPY" && CARNET_UPDATE_GOLDEN=1 .build/debug/CarnetPackageTests.xctest --testing-library swift-testing \
    --filter GoldenHelpTests > "$LOGS/golden.log" 2>&1)
golden=$(cd "$COPY" && diff -u "$ROOT/Tests/CLITests/Golden/add.txt" Tests/CLITests/Golden/add.txt | grep '^[-+][^-+]' || true)
case "$golden" in
    "+  --scratch <scratch>"*"+  --scratchtag <scratchtag>"*)
        if printf '%s\n' "$golden" | grep -q '^-'; then
            echo "FAIL  add-a-field  (the recorded help of carnet add lost lines: $golden)"; failed=1
        else
            echo "check-recipes: the recorded help of carnet add gains the scratch field's and the scratch list's lines"
        fi ;;
    *) echo "FAIL  add-a-field  (the recorded help of carnet add changed otherwise: $golden)"; failed=1 ;;
esac
run_suites add-a-field 'RecordTests|SchemaRulesTests|DescribedFieldStorageTests|DescribedFieldFormatTests|MigratorTests|ScratchFieldTests|ScratchFieldCommandTests'
run_suites add-a-list-field 'RecordTests|SchemaRulesTests|SearchDocumentTests|DescribedListTests|ScratchListTests|ScratchListCommandTests'
run_suites add-a-command 'ScratchCommandTests|CLIDocTests|ContactNamesTests|HelpTests'
run_suites add-a-file-format 'ScratchFormatTests|InterchangeFormatTests|InterchangeWriterTests'
run_suites add-a-server-quirk 'ScratchQuirkTests|TruncatedSyncTests'
echo "check-recipes: done in $(( $(date +%s) - start ))s"
exit $failed
