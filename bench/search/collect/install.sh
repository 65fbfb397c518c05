#!/usr/bin/env bash
# Installs the npm packages of a servers file, each row's package@version in that row's folder
# (scratch folders under /tmp), for collect-all.sh. Browser downloads are skipped (no server here
# needs a browser to list its tools).
#   install.sh [servers.tsv|servers-added.tsv]
# A folder whose install fails is tried again with --legacy-peer-deps, then with --ignore-scripts
# (@postman/postman-mcp-server's preinstall insists on pnpm; keytar, under @azure-devops/mcp, has no
# prebuilt binary to download here). keytar is then built from source against Debian's libsecret
# and the Node headers in /usr/include/node. Rows run with `npx -p node@22` fetch that at run time.
set -u
here=$(cd "$(dirname "$0")" && pwd)
list=${1:-servers.tsv}
export PUPPETEER_SKIP_DOWNLOAD=1 PUPPETEER_SKIP_CHROMIUM_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
for dir in $(grep -v '^#' "$here/$list" | cut -f2 | sort -u); do
  pkgs=$(grep -v '^#' "$here/$list" | awk -F'\t' -v d="$dir" '$2 == d { print $3 "@" $4 }')
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"private":true}' > "$dir/package.json"
  echo "== $dir: $(echo $pkgs)" >&2
  (cd "$dir" && { npm install --no-audit --no-fund --save-exact $pkgs ||
    npm install --no-audit --no-fund --save-exact --legacy-peer-deps $pkgs ||
    npm install --no-audit --no-fund --save-exact --ignore-scripts $pkgs; }) || echo "FAILED: npm install in $dir" >&2
  if [ -d "$dir/node_modules/keytar" ] && [ ! -f "$dir/node_modules/keytar/build/Release/keytar.node" ]; then
    dpkg -s libsecret-1-dev >/dev/null 2>&1 || apt-get install -y libsecret-1-dev >&2
    (cd "$dir" && npm rebuild keytar --nodedir=/usr) || echo "FAILED: keytar build in $dir" >&2
  fi
done
