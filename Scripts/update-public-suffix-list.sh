#!/usr/bin/env bash
# Regenerates the bundled Public Suffix List (Sources/TrackerlessCore/Generated/
# PublicSuffixList+Data.swift) from Debian's `publicsuffix` package, so that it can be redone
# whenever Debian publishes a newer list.
#
#   Scripts/update-public-suffix-list.sh                  # the package this machine's apt offers
#   Scripts/update-public-suffix-list.sh --root DIR       # the one apt offers in a Debian root (chroot)
#   Scripts/update-public-suffix-list.sh publicsuffix.deb # a package already downloaded
#
# The package is downloaded (apt-get download: nothing is installed), unpacked into a temporary
# directory and its public_suffix_list.dat handed to Scripts/generate-public-suffix-data.py with
# the package's version.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [[ $# -eq 2 && $1 == --root ]]; then
    chroot_dir=$(realpath "$2")
    inside=$(chroot "$chroot_dir" mktemp -d)
    chroot "$chroot_dir" sh -c "cd '$inside' && apt-get download -q publicsuffix" >&2
    mv "$chroot_dir$inside"/publicsuffix_*.deb "$work/"
    rmdir "$chroot_dir$inside"
elif [[ $# -eq 1 && $1 == *.deb ]]; then
    cp "$1" "$work/"
elif [[ $# -eq 0 ]]; then
    (cd "$work" && apt-get download -q publicsuffix) >&2
else
    echo "usage: Scripts/update-public-suffix-list.sh [--root DIR | PACKAGE.deb]" >&2
    exit 2
fi

package=$(ls "$work"/publicsuffix_*.deb)
version=$(dpkg-deb -f "$package" Version)
dpkg-deb -x "$package" "$work/unpacked"
list="$work/unpacked/usr/share/publicsuffix/public_suffix_list.dat"
[[ -f $list ]] || { echo "update-public-suffix-list: $package has no public_suffix_list.dat" >&2; exit 1; }
python3 "$root/Scripts/generate-public-suffix-data.py" --version "Debian publicsuffix $version" "$list"
