#!/usr/bin/env bash
# Runs list-tools.mjs for every server in a servers file (packages installed beforehand in each
# row's folder; install.sh does that). By hand only; the benchmark reads the saved files.
#   collect-all.sh                         servers.tsv       → ../catalogs/<name>.json
#   collect-all.sh servers-added.tsv       servers-added.tsv → ../catalogs-added/<name>.json
#   collect-all.sh --meta-only [file.tsv]  keep the saved tools, add serverInfo/instructions only
#   ONLY=name1,name2 collect-all.sh ...    just those rows
set -u
here=$(cd "$(dirname "$0")" && pwd)
mode=
if [ "${1:-}" = --meta-only ]; then mode=--meta-only; shift; fi
list=${1:-servers.tsv}
case $list in servers-added.tsv) outdir=$here/../catalogs-added ;; *) outdir=$here/../catalogs ;; esac
mkdir -p "$outdir" /tmp/sb-collect-home
grep -v '^#' "$here/$list" | while IFS=$'\t' read -r name dir pkg version repo licence command env; do
  if [ -n "${ONLY:-}" ] && ! [[ ",$ONLY," == *",$name,"* ]]; then continue; fi
  meta=$(mktemp)
  printf '{"repo":"%s","package":"%s","version":"%s","licence":"%s","env":%s}' "$repo" "$pkg" "$version" "$licence" "$env" > "$meta"
  (cd "$dir" && HOME=/tmp/sb-collect-home timeout 120 node "$here/list-tools.mjs" $mode "$outdir/$name.json" "$name" "$meta" -- $command </dev/null) || echo "FAILED: $name" >&2
  rm -f "$meta"
done
