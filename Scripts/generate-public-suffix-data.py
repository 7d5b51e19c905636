#!/usr/bin/env python3
"""Generates Sources/TrackerlessCore/PublicSuffixList+Data.swift from the Public Suffix List.

Usage: Scripts/generate-public-suffix-data.py [public_suffix_list.dat] [output.swift]

Defaults: /usr/share/publicsuffix/public_suffix_list.dat (Debian package `publicsuffix`) and the
file next to PublicSuffixList.swift. The output keeps the rules in the list's own text format,
without comments, one per line, with IDN labels converted to punycode ("xn--") so that they match
the ASCII hosts of canonical URLs. A single line "===PRIVATE===" starts the private section.
"""

import hashlib
import os
import subprocess
import sys

DEFAULT_INPUT = "/usr/share/publicsuffix/public_suffix_list.dat"
DEFAULT_OUTPUT = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "TrackerlessCore",
    "PublicSuffixList+Data.swift")


def to_ascii_label(label):
    """Lowercases a label and punycodes it when it is not ASCII (RFC 3492, as IDNA does)."""
    label = label.lower()
    if label.isascii():
        return label
    return "xn--" + label.encode("punycode").decode("ascii")


def to_ascii_rule(rule):
    prefix = ""
    if rule.startswith("!"):
        prefix, rule = "!", rule[1:]
    return prefix + ".".join(to_ascii_label(label) for label in rule.split("."))


def package_version():
    try:
        result = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", "publicsuffix"],
            capture_output=True, text=True, check=True)
        return "Debian publicsuffix " + result.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown version"


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_INPUT
    output = sys.argv[2] if len(sys.argv) > 2 else DEFAULT_OUTPUT
    with open(source, "rb") as handle:
        raw = handle.read()
    text = raw.decode("utf-8")

    icann, private = [], []
    section = None
    for line in text.splitlines():
        line = line.strip()
        if "===BEGIN ICANN DOMAINS===" in line:
            section = icann
        elif "===BEGIN PRIVATE DOMAINS===" in line:
            section = private
        elif "===END" in line:
            section = None
        if not line or line.startswith("//") or section is None:
            continue
        # A rule is the first whitespace-delimited word of its line.
        rule = to_ascii_rule(line.split()[0])
        if any(c in rule for c in '"\\') or not rule.isascii():
            sys.exit(f"unexpected characters in rule {rule!r}")
        section.append(rule)

    if len(icann) < 1000 or len(private) < 100:
        sys.exit(f"{source} does not look like the Public Suffix List "
                 f"({len(icann)} ICANN rules, {len(private)} private rules)")

    version = package_version() if source == DEFAULT_INPUT else os.path.basename(source)
    digest = hashlib.sha256(raw).hexdigest()
    rules = "\n".join(icann + ["===PRIVATE==="] + private)
    with open(output + ".tmp", "w", encoding="utf-8") as handle:
        handle.write(
            "// GENERATED FILE, DO NOT EDIT. Regenerate with Scripts/generate-public-suffix-data.py.\n"
            f"// Source: {source} ({version}, sha256 {digest}).\n"
            f"// {len(icann)} ICANN rules and {len(private)} private rules; IDN labels in punycode.\n"
            "// The Public Suffix List is subject to the Mozilla Public License, v. 2.0:\n"
            "// https://mozilla.org/MPL/2.0/\n"
            "\n"
            "extension PublicSuffixList {\n"
            "    /// The version of the bundled list, as recorded by the generator.\n"
            f"    static let bundledVersion = \"{version}\"\n"
            "\n"
            "    /// The bundled rules: one per line, ICANN first, then \"===PRIVATE===\" and the\n"
            "    /// private rules.\n"
            "    static let bundledRules = \"\"\"\n"
            f"{rules}\n"
            "\"\"\"\n"
            "}\n")
    os.replace(output + ".tmp", output)
    print(f"wrote {output}: {len(icann)} ICANN + {len(private)} private rules")


if __name__ == "__main__":
    main()
