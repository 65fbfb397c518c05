#!/usr/bin/env bash
# Runs list-tools.mjs for every server in servers.tsv (packages installed beforehand in each row's
# folder). Output: ../catalogs/<name>.json. By hand only; the benchmark reads the saved files.
set -u
here=$(cd "$(dirname "$0")" && pwd)
grep -v '^#' "$here/servers.tsv" | while IFS=$'\t' read -r name dir pkg version repo licence command env; do
  meta=$(mktemp)
  printf '{"repo":"%s","package":"%s","version":"%s","licence":"%s","env":%s}' "$repo" "$pkg" "$version" "$licence" "$env" > "$meta"
  (cd "$dir" && HOME=/tmp/sb-collect-home timeout 90 node "$here/list-tools.mjs" "$here/../catalogs/$name.json" "$name" "$meta" -- $command </dev/null) || echo "FAILED: $name" >&2
  rm -f "$meta"
done
