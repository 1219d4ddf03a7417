#!/usr/bin/env bash
# docs_index_test.sh CLI DOCS_DIR: the docs index is what `gemmlab-cli list --markdown` prints, and every rung it
# links to has its page.
set -u
cli=$1 docs=$2
if ! diff <("$cli" list --markdown) "$docs/rungs/README.md"; then
  echo "docs/rungs/README.md is out of date: regenerate it with gemmlab-cli list --markdown > docs/rungs/README.md"
  exit 1
fi
missing=0
for page in $(grep -o '([0-9][0-9]-[a-z0-9-]*\.md)' "$docs/rungs/README.md" | tr -d '()'); do
  [ -f "$docs/rungs/$page" ] || { echo "missing rung page: docs/rungs/$page"; missing=1; }
done
exit $missing
