#!/usr/bin/env bash
# The Slurm array script run as its tasks would be (SLURM_ARRAY_TASK_ID/COUNT set by hand, --model-only: no GPU), its
# shards merged: the merged report must equal the sweep run whole.
set -euo pipefail
cli=$1 script=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
args=(--shapes llama3-8b-decode,attention-128,100x100x100 --rungs 16,21 --model-only)
for task in 0 1 2; do
  SLURM_ARRAY_TASK_ID=$task SLURM_ARRAY_TASK_COUNT=3 GEMMLAB_CLI=$cli "$script" "$dir/out" "${args[@]}" >/dev/null
done
"$cli" merge "$dir"/out/shard-2.json "$dir"/out/shard-0.json "$dir"/out/shard-1.json --json "$dir/merged.json"
"$cli" sweep "${args[@]}" --json "$dir/whole.json" >/dev/null
python3 - "$dir/merged.json" "$dir/whole.json" <<'PY'
import json, sys
merged, whole = (json.load(open(p)) for p in sys.argv[1:])
assert len(whole["shapes"]) == 11, len(whole["shapes"])
assert merged == whole, "the merged shards differ from the whole sweep"
PY
echo "3 shards merged equal the whole sweep"
