#!/usr/bin/env bash
# Installs what Tests/WebKitTests/harness/webkit_harness.py needs (WebKitGTK 4.1 with its
# GObject introspection data for the system python3, an X server for page loads, openssl for
# the loopback proxy's certificate, and the GStreamer plugins and font the media/font cases
# serve), and WebKitGTK 6.0's development files for the Swift browser in Integrations/WebKitGTK.
# Idempotent: does nothing when everything is there. Debian 12, as root, no stdin.
set -euo pipefail

packages=(
    python3            # /usr/bin/python3, the interpreter the harness runs under
    python3-gi         # PyGObject ("import gi")
    gir1.2-webkit2-4.1 # WebKit2 4.1 typelib; pulls libwebkit2gtk-4.1-0, GTK 3, GStreamer base/good
    xvfb               # virtual X server for page loads (xvfb-run)
    xauth              # xvfb-run -a needs it
    openssl            # self-signed certificate for the TLS-terminating proxy
    fonts-dejavu-core  # a real TrueType font to serve for "font" loads
    gstreamer1.0-plugins-good  # wavparse and autoaudiosink, for "media" loads
    gstreamer1.0-gl    # recommended by libwebkit2gtk; keeps video/GL paths quiet
    libgl1-mesa-dri    # software GL for WebKit's compositor under Xvfb
    libwebkitgtk-6.0-dev  # headers and pkg-config file of WebKitGTK 6.0, for Integrations/WebKitGTK
    pkg-config         # SwiftPM finds WebKitGTK's flags with it
)

missing=()
for package in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$package")
done

if [[ ${#missing[@]} -eq 0 ]]; then
    echo "install-webkit: all packages present"
    exit 0
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "install-webkit: need root to install: ${missing[*]}" >&2; exit 1; }
    sudo=(sudo -n)
fi

echo "install-webkit: installing ${missing[*]}"
"${sudo[@]}" apt-get update -q
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
