#!/usr/bin/env bash
# Makes the Debian roots whose WebKitGTK the real-WebKit tests also run against (Scripts/test.sh,
# TRACKERLESS_WEBKIT_ROOT; Tests/WebKitTests/harness/README.md):
#   webkitgtk-2.44  Debian bullseye (debootstrap --variant=minbase), gir1.2-webkit2-4.0 (GI WebKit2 4.0)
#   webkitgtk-2.54  Debian trixie + trixie-security,                  gir1.2-webkit2-4.1 (GI WebKit2 4.1)
# under /var/cache/trackerless-webkit-roots, or $TRACKERLESS_WEBKIT_ROOTS. The machine's own
# WebKitGTK (2.50, .ci/install-webkit.sh) is the third version.
#
# Idempotent: a finished root (its stamp file present) is kept. A root is built in a temporary
# directory beside the final one and renamed into place only when complete; anything half-made
# (a leftover temporary directory, a root without a stamp) is removed and rebuilt, never reused.
# The stamp, <root>/trackerless-webkit-root, holds the WebKit version actually installed, read
# from the package version (webkit=2.44.2, api=4.0, package=..., ...).
# Uses the Debian mirror the machine's apt sources name. As root, no stdin. Exits non-zero naming
# the WebKit version and the step that failed when a root cannot be made.
set -euo pipefail

parent=${TRACKERLESS_WEBKIT_ROOTS:-/var/cache/trackerless-webkit-roots}
stamp_name=trackerless-webkit-root

# What the harness needs inside a root: the same as .ci/install-webkit.sh installs for the
# machine, without the WebKitGTK 6.0 development files (the Swift browser is not built there).
common_packages=(
    python3 python3-gi dbus xvfb xauth openssl fonts-dejavu-core
    gstreamer1.0-plugins-good gstreamer1.0-gl libgl1-mesa-dri
)

# name suite gir-package api security(yes/no)
roots=(
    "webkitgtk-2.44 bullseye gir1.2-webkit2-4.0 4.0 no"
    "webkitgtk-2.54 trixie gir1.2-webkit2-4.1 4.1 yes"
)

log() { echo "install-webkit-roots: $*"; }

mirror=""
security_mirror=""
# Everything building needs, done once before the first root is built (finished roots need
# none of it, so that a run with every root present also works without root).
prepared=""
prepare() {
    [[ -z "$prepared" ]] || return 0
    if [[ $(id -u) -ne 0 ]]; then
        echo "install-webkit-roots: must run as root to build a root (debootstrap, chroot)" >&2
        return 1
    fi
    # The mirror: the Debian archive and security URIs of the machine's apt sources (deb822 or
    # one-line format), so that no other host is contacted.
    read_sources() {
        local uri
        for uri in $( { grep -hE '^[[:space:]]*URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -E 's/^[[:space:]]*URIs:[[:space:]]*//'
                       grep -hE '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
                           | sed -E 's/^[[:space:]]*deb[[:space:]]+(\[[^]]*\][[:space:]]+)?//; s/[[:space:]].*//'
                     } | tr ' ' '\n'); do
            uri=${uri%/}
            case "$uri" in
                *-security) [[ -n "$security_mirror" ]] || security_mirror=$uri ;;
                */debian) [[ -n "$mirror" ]] || mirror=$uri ;;
            esac
        done
    }
    read_sources
    if [[ -z "$mirror" ]]; then
        echo "install-webkit-roots: no Debian mirror (…/debian) in /etc/apt/sources.list{,.d}" >&2
        return 1
    fi
    if [[ -z "$security_mirror" ]]; then
        security_mirror="${mirror%/debian}/debian-security"
    fi
    log "mirror $mirror, security $security_mirror, roots under $parent"

    if ! command -v debootstrap >/dev/null; then
        log "installing debootstrap"
        apt-get update -q </dev/null || return 1
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap </dev/null || return 1
    fi
    mkdir -p "$parent" || return 1
    prepared=yes
}


# Runs a command chrooted into $1 with /proc and /dev mounted in a private mount namespace, so
# that the mounts vanish with the command and never outlive a failure.
in_root() {
    local root=$1
    shift
    unshare --mount --propagation private -- /bin/sh -c '
        root=$1; shift
        mount -t proc proc "$root/proc" && mount --rbind /dev "$root/dev" && exec chroot "$root" "$@"
    ' sh "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive "$@" </dev/null
}

build_root() {
    local name=$1 suite=$2 gir=$3 api=$4 security=$5
    local final="$parent/$name"
    local version_label=${name#webkitgtk-}
    local step=""
    if [[ -f "$final/$stamp_name" && -x "$final/usr/bin/python3" ]]; then
        log "$name: present ($(grep '^webkit=' "$final/$stamp_name"))"
        return 0
    fi
    local work=""
    fail() {
        echo "install-webkit-roots: FAILED to make the WebKitGTK $version_label root ($suite) at step: $step" >&2
        # Nothing half-made is kept (a later run would remove it anyway).
        [[ -z "$work" ]] || rm -rf --one-file-system "$work"
        exit 1
    }
    step="preparing (root, the machine's Debian mirror, debootstrap)"
    prepare || fail
    local started=$SECONDS
    # A root without its stamp, or a temporary directory left by an interrupted run, is removed.
    if [[ -e "$final" ]]; then
        log "$name: removing an incomplete root at $final"
        rm -rf --one-file-system "$final"
    fi
    local leftover
    for leftover in "$parent/.$name.partial."*; do
        [[ -e "$leftover" ]] || continue
        log "$name: removing the leftover $leftover"
        rm -rf --one-file-system "$leftover"
    done
    step="making a temporary directory in $parent"
    work=$(mktemp -d "$parent/.$name.partial.XXXXXX") || fail
    chmod 755 "$work"

    step="debootstrap --variant=minbase $suite $mirror"
    log "$name: $step"
    debootstrap --variant=minbase "$suite" "$work" "$mirror" </dev/null >"$work.debootstrap.log" 2>&1 \
        || { tail -20 "$work.debootstrap.log" >&2; rm -f "$work.debootstrap.log"; fail; }
    rm -f "$work.debootstrap.log"

    step="apt sources"
    {
        echo "deb $mirror $suite main"
        if [[ "$security" == yes ]]; then
            echo "deb $security_mirror $suite-security main"
        fi
    } >"$work/etc/apt/sources.list" || fail
    cp /etc/resolv.conf "$work/etc/resolv.conf" 2>/dev/null || true
    # No services are started inside the root while packages are installed.
    printf '#!/bin/sh\nexit 101\n' >"$work/usr/sbin/policy-rc.d" && chmod 755 "$work/usr/sbin/policy-rc.d" || fail

    # apt's output goes to a log beside the root; its end is shown when a step fails.
    local apt_log="$work.apt.log"
    step="apt-get update"
    log "$name: $step"
    in_root "$work" apt-get update -q >"$apt_log" 2>&1 || { tail -20 "$apt_log" >&2; rm -f "$apt_log"; fail; }

    step="apt-get install --no-install-recommends ${common_packages[*]} $gir"
    log "$name: $step"
    in_root "$work" apt-get install -y -q --no-install-recommends "${common_packages[@]}" "$gir" >>"$apt_log" 2>&1 \
        || { tail -20 "$apt_log" >&2; rm -f "$apt_log"; fail; }
    rm -f "$apt_log"
    in_root "$work" apt-get clean || true
    rm -f "$work/usr/sbin/policy-rc.d"

    step="reading the WebKit version"
    local lib_package package_version webkit
    lib_package=$(in_root "$work" dpkg-query -W -f='${Package} ${Status}\n' 'libwebkit2gtk-4.*' \
        | awk '$NF == "installed" && $1 !~ /-dev$/ {print $1; exit}') || fail
    [[ -n "$lib_package" ]] || fail
    package_version=$(in_root "$work" dpkg-query -W -f='${Version}' "$lib_package") || fail
    webkit=${package_version#*:}
    webkit=${webkit%%[-+~]*}
    [[ "$webkit" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail

    step="checking that python3 imports WebKit2 $api and GTK 3, and xvfb-run is there"
    in_root "$work" /usr/bin/python3 -c "import gi; gi.require_version('WebKit2', '$api'); gi.require_version('Gtk', '3.0'); from gi.repository import WebKit2, Gtk; print('WebKit2', WebKit2.get_major_version(), WebKit2.get_minor_version(), WebKit2.get_micro_version())" || fail
    [[ -x "$work/usr/bin/xvfb-run" ]] || fail

    step="writing the stamp"
    {
        echo "webkit=$webkit"
        echo "api=$api"
        echo "package=$lib_package"
        echo "package-version=$package_version"
        echo "gir-package=$gir"
        echo "suite=$suite"
        echo "security=$security"
        echo "mirror=$mirror"
        echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    } >"$work/$stamp_name" || fail

    step="renaming into place"
    mv -T "$work" "$final" || fail
    log "$name: WebKitGTK $webkit ($lib_package $package_version) ready at $final in $((SECONDS - started)) s"
}

for spec in "${roots[@]}"; do
    # shellcheck disable=SC2086
    build_root $spec
done
