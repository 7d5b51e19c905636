#!/usr/bin/env python3
"""Writes the large blocklists of BENCHMARKS.md "Where the memory goes", for measuring the release
CLI's peak memory at sizes the tests do not reach.

    python3 Scripts/generate-shaped-tds.py 1000000 /tmp/tds-1000000.json              # 389 MB
    python3 Scripts/generate-shaped-tds.py --copies 100 TDS /tmp/tds-100.json          # 168.6 MB
    /usr/bin/time -v .build/release/trackerless rules --tds /tmp/tds-1000000.json --output /tmp/out/ --report

With a number of trackers: trackers shaped as BuildMemoryShapeTests writes them. Each tracker
t<i>.example blocks by default, is owned by company C<i> (sites t<i>.example and c<i>.example) and
has three rules: a block, a block with a site exception, an ignore.

With --copies N TDS: TDS (apple-tds.json) copied N times as `TrackerlessBenchmarks
--build-scaling-only` copies it: copy i > 0 has its trackers, rules, entities' domains, domains and
CNAMEs prefixed `s<i>-`, its entity names suffixed ` <i>`.
"""
import json
import sys


def shaped(count: int, path: str) -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write('{"trackers": {')
        for index in range(count):
            rules = (
                f'[{{"rule": "t{index}\\\\.example/ads/"}}, '
                f'{{"rule": "t{index}\\\\.example/px", "exceptions": {{"domains": ["s{index}.example"]}}}}, '
                f'{{"rule": "t{index}\\\\.example/ok", "action": "ignore"}}]'
            )
            out.write(("," if index else "") + f'"t{index}.example": {{"domain": "t{index}.example", "default": "block", '
                      f'"owner": {{"name": "C{index}", "displayName": "C{index}"}}, "rules": {rules}}}')
        out.write('}, "entities": {')
        for index in range(count):
            out.write(("," if index else "") + f'"C{index}": {{"domains": ["t{index}.example", "c{index}.example"], "prevalence": 0.1}}')
        out.write('}, "domains": {}}')


def copied(copies: int, source: str, path: str) -> None:
    with open(source, encoding="utf-8") as file:
        tds = json.load(file)
    result = {"trackers": {}, "entities": {}, "domains": {}, "cnames": {}}
    for copy in range(copies):
        def host(name: str) -> str:
            return name if copy == 0 else f"s{copy}-{name}"

        def entity(name: str) -> str:
            return name if copy == 0 else f"{name} {copy}"

        for key, tracker in tds.get("trackers", {}).items():
            renamed = dict(tracker)
            if isinstance(tracker.get("domain"), str):
                renamed["domain"] = host(tracker["domain"])
            if isinstance(tracker.get("owner"), dict) and isinstance(tracker["owner"].get("name"), str):
                renamed["owner"] = dict(tracker["owner"], name=entity(tracker["owner"]["name"]))
            if isinstance(tracker.get("rules"), list):
                renamed["rules"] = [dict(rule, rule=host(rule["rule"])) if isinstance(rule, dict) and isinstance(rule.get("rule"), str)
                                    else rule for rule in tracker["rules"]]
            result["trackers"][host(key)] = renamed
        for key, value in tds.get("entities", {}).items():
            renamed = dict(value)
            if isinstance(value.get("domains"), list):
                renamed["domains"] = [host(name) if isinstance(name, str) else name for name in value["domains"]]
            result["entities"][entity(key)] = renamed
        for key, value in tds.get("domains", {}).items():
            result["domains"][host(key)] = entity(value) if isinstance(value, str) else value
        for key, value in tds.get("cnames", {}).items():
            result["cnames"][host(key)] = host(value) if isinstance(value, str) else value
    with open(path, "w", encoding="utf-8") as out:
        json.dump(result, out, separators=(",", ":"), ensure_ascii=False)


def main() -> None:
    arguments = sys.argv[1:]
    if len(arguments) == 4 and arguments[0] == "--copies" and arguments[1].isdigit():
        copied(int(arguments[1]), arguments[2], arguments[3])
    elif len(arguments) == 2 and arguments[0].isdigit():
        shaped(int(arguments[0]), arguments[1])
    else:
        sys.exit("usage: generate-shaped-tds.py TRACKERS OUTPUT | --copies N TDS OUTPUT")


if __name__ == "__main__":
    main()
