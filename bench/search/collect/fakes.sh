#!/usr/bin/env bash
# Makes the fake credential and config files that some servers in servers*.tsv read at start-up
# (nothing in them is real; the servers only need them to exist to list their tools), and starts a
# throwaway redis-server on 127.0.0.1:6391 for the redis row (it connects before it answers).
set -u
cat > /tmp/sb-gcal-oauth.json <<'J'
{"installed":{"client_id":"x.apps.googleusercontent.com","client_secret":"x","redirect_uris":["http://localhost"]}}
J
cat > /tmp/sb-gdrive-creds.json <<'J'
{"access_token":"x","refresh_token":"x","token_type":"Bearer","expiry_date":4102444800000}
J
cat > /tmp/kubeconfig <<'J'
apiVersion: v1
kind: Config
clusters:
- name: fake
  cluster: {server: "https://127.0.0.1:6443"}
users:
- name: fake
  user: {token: x}
contexts:
- name: fake
  context: {cluster: fake, user: fake}
current-context: fake
J
mkdir -p /tmp/sb-gdocs-config/google-docs-mcp
cat > /tmp/sb-gdocs-config/google-docs-mcp/token.json <<'J'
{"type":"authorized_user","access_token":"x","refresh_token":"x","expiry_date":4102444800000}
J
mkdir -p /tmp/sb-obsidian-vault/.obsidian
if command -v redis-server >/dev/null && ! redis-cli -p 6391 ping >/dev/null 2>&1; then
  redis-server --port 6391 --bind 127.0.0.1 --save '' --daemonize yes --pidfile /tmp/sb-redis-6391.pid >/dev/null
  echo "redis-server on 6391 (stop: kill \$(cat /tmp/sb-redis-6391.pid))" >&2
fi
