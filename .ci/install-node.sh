#!/usr/bin/env bash
# Installs Node.js (18 or later: its built-in test runner, `node --test`, runs Tests/JavaScript)
# from Debian's packages when no node is on PATH. Idempotent; as root or with sudo, no stdin.
set -euo pipefail

if command -v node >/dev/null; then
    major=$(node -p 'process.versions.node.split(".")[0]')
    if [[ "$major" -ge 18 ]]; then
        echo "install-node: node $(node --version) present"
        exit 0
    fi
    echo "install-node: node $(node --version) is older than 18"
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "install-node: need root to install nodejs" >&2; exit 1; }
    sudo=(sudo -n)
fi
"${sudo[@]}" apt-get update -q
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nodejs </dev/null
node --version
