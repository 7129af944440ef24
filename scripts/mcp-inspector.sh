#!/bin/sh
# The official MCP Inspector, in its CLI mode, against `deskpilot mcp` on this desktop: a
# client nobody here wrote lists the tools (with its schema portability check), reads the desk
# and calls read-only tools, over stdio and then over HTTP with the bearer token.
# The Inspector is fetched with npx (it is not a dependency). 2.x declares Node 22, but its CLI
# mode runs on Node 20 (npm prints EBADENGINE warnings); set DESKPILOT_INSPECTOR to pick another
# version. Usage: scripts/mcp-inspector.sh   (after `npm install`; uses your config directory,
# or DESKPILOT_CONFIG_DIR, and the warm service when it runs)
set -eu
cd "$(dirname "$0")/.."
[ -f out/cli/main.cjs ] || node scripts/build-cli.mjs

inspector() { npx -y "@modelcontextprotocol/inspector@${DESKPILOT_INSPECTOR:-2.12.0}" --cli "$@" 2>&1 | grep -v 'EBADENGINE'; }

# The Inspector starts the server with a minimal environment: pass on what DeskPilot needs.
set --
for var in DISPLAY XAUTHORITY WAYLAND_DISPLAY XDG_RUNTIME_DIR XDG_CONFIG_HOME XDG_DATA_HOME XDG_DATA_DIRS \
  DESKPILOT_CONFIG_DIR DESKPILOT_CHROME_URL DESKPILOT_NO_SERVICE DESKPILOT_LLM_BASE_URL DESKPILOT_LLM_MODEL DESKPILOT_LLM_API_KEY; do
  eval "value=\${$var-}"
  [ -n "$value" ] && set -- "$@" -e "$var=$value"
done
server="node bin/deskpilot.js mcp"

echo "== stdio: tools/list (--strict: schema portability problems would be listed on stderr)"
inspector "$@" --strict $server --method tools/list | grep -E '^      "name"' || true
echo "== stdio: resources/read deskpilot://desktop"
inspector "$@" $server --method resources/read --uri deskpilot://desktop
echo "== stdio: tools/call search_tabs query=a"
inspector "$@" $server --method tools/call --tool-name search_tabs --tool-arg query=a
echo "== stdio: tools/call place_app with a bad argument (an error result; nothing moves)"
inspector "$@" $server --method tools/call --tool-name place_app --tool-arg app_name=nothing position=sideways

echo "== HTTP"
log=$(mktemp)
node bin/deskpilot.js mcp --http --port 0 >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; rm -f "$log"' EXIT INT TERM
while ! grep -q 'bearer token' "$log"; do
  kill -0 $pid 2>/dev/null || { cat "$log"; exit 1; }
  sleep 0.2
done
url=$(sed -n 's/^DeskPilot MCP server at \(http[^,]*\),.*/\1/p' "$log")
file=$(sed -n 's/^bearer token: in \(.*\) (not shown again.*/\1/p; s/^bearer token (shown this once; it is kept in \(.*\)): .*/\1/p' "$log")
token=$(cat "$file")
echo "server at $url (token from $file)"
echo "== HTTP with a wrong token (refused: 401, after which the Inspector would try OAuth)"
inspector --transport http --server-url "$url" --header "Authorization: Bearer wrong" --method tools/list | head -3 || true
echo "== HTTP: tools/call list_apps"
inspector --transport http --server-url "$url" --header "Authorization: Bearer $token" --method tools/call --tool-name list_apps
