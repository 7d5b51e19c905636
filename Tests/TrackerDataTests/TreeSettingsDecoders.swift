@testable import TrackerDataKit
import TrackerlessCore

// The settings decoders before the single reader, walking a `JSONValue` tree: kept as the
// oracle `TreePrivacyConfigurationDecoder` uses, so that the reader's allowlist and blocklist
// are held to them warning for warning.

extension TrackerAllowlist {
    init(tree value: JSONValue, file: String?, at path: JSONPath) {
        self.init()
        guard case .object(let object) = value else {
            warnings.append(InputWarning(file: file, path: path, message: "expected an object; the allowlist is ignored"))
            return
        }
        for (trackerDomain, entryValue) in zip(object.keys, object.values) {
            let entryPath = path.appending(key: trackerDomain)
            guard case .object(let entryObject) = entryValue,
                case .array(let ruleValues)? = entryObject["rules"]
            else {
                warnings.append(InputWarning(
                    file: file, path: entryPath, message: "expected an object with a \"rules\" array; entry dropped"))
                continue
            }
            var rules: [Rule] = []
            for (index, ruleValue) in ruleValues.enumerated() {
                let rulePath = entryPath.appending(key: "rules").appending(index: index)
                guard case .object(let ruleObject) = ruleValue else {
                    warnings.append(InputWarning(
                        file: file, path: rulePath,
                        message: "expected {\"rule\": string, \"domains\": [string]}; rule dropped"))
                    continue
                }
                guard case .string(let pattern)? = ruleObject["rule"], !pattern.isEmpty else {
                    warnings.append(InputWarning(
                        file: file, path: rulePath.appending(key: "rule"), message: "expected a non-empty string; rule dropped"))
                    continue
                }
                guard case .array(let domainValues)? = ruleObject["domains"] else {
                    warnings.append(InputWarning(
                        file: file, path: rulePath.appending(key: "domains"), message: "expected an array of strings; rule dropped"))
                    continue
                }
                let domains = domainValues.compactMap { value -> String? in
                    if case .string(let domain) = value { return DomainName.normalized(domain) }
                    return nil
                }
                guard domains.count == domainValues.count else {
                    warnings.append(InputWarning(
                        file: file, path: rulePath.appending(key: "domains"),
                        message: "expected an array of strings; rule dropped"))
                    continue
                }
                var reason: String?
                switch ruleObject["reason"] {
                case .string(let text)?: reason = text
                case nil, .null?: break
                case let other?:
                    // DuckDuckGo's clients never read the reason; the rule stays.
                    warnings.append(InputWarning(
                        file: file, path: rulePath.appending(key: "reason"),
                        message: "expected a string, found \(JSONNode.typeName(of: other)); the reason is ignored"))
                }
                rules.append(Rule(rule: pattern, domains: domains, reason: reason))
            }
            entries.append(Entry(trackerDomain: DomainName.normalized(trackerDomain), rules: rules))
        }
    }
}

extension RequestBlocklist {
    init(tree value: JSONValue, file: String?, at path: JSONPath, publicSuffixList: PublicSuffixList) {
        self.init()
        func drop(_ path: JSONPath, _ message: String) {
            warnings.append(InputWarning(file: file, path: path, message: message))
        }
        guard case .object(let object) = value else {
            drop(path, "expected an object; the request blocklist is ignored")
            return
        }
        for (key, entryValue) in zip(object.keys, object.values) {
            let entryPath = path.appending(key: key)
            let domain = DomainName.normalized(key)
            guard publicSuffixList.registrableDomain(of: domain) == domain else {
                drop(entryPath, "\"\(key.excerpt())\" is not an eTLD+1; entry dropped")
                continue
            }
            guard case .object(let entryObject) = entryValue, case .array(let ruleValues)? = entryObject["rules"] else {
                drop(entryPath, "expected an object with a \"rules\" array; entry dropped")
                continue
            }
            var rules: [Rule] = []
            for (index, ruleValue) in ruleValues.enumerated() {
                let rulePath = entryPath.appending(key: "rules").appending(index: index)
                guard case .object(let ruleObject) = ruleValue else {
                    drop(rulePath, "expected an object; rule dropped")
                    continue
                }
                if let unknown = ruleObject.keys.first(where: { !["rule", "domains", "reason"].contains($0) }) {
                    drop(rulePath.appending(key: unknown), "unknown property \"\(unknown.excerpt())\"; rule dropped")
                    continue
                }
                guard case .string(let pattern)? = ruleObject["rule"] else {
                    drop(rulePath.appending(key: "rule"), "expected a string; rule dropped")
                    continue
                }
                guard case .array(let domainValues)? = ruleObject["domains"], !domainValues.isEmpty else {
                    drop(rulePath.appending(key: "domains"), "expected a non-empty array of domains; rule dropped")
                    continue
                }
                let domains = domainValues.compactMap { value -> String? in
                    if case .string(let domain) = value { return DomainName.normalized(domain) }
                    return nil
                }
                guard domains.count == domainValues.count else {
                    drop(rulePath.appending(key: "domains"), "expected an array of strings; rule dropped")
                    continue
                }
                var reason: String?
                if let reasonValue = ruleObject["reason"] {
                    guard case .string(let text) = reasonValue else {
                        drop(rulePath.appending(key: "reason"), "expected a string; rule dropped")
                        continue
                    }
                    reason = text
                }
                guard let rule = Rule(rule: pattern, domains: domains, reason: reason) else {
                    drop(rulePath.appending(key: "rule"), "\"\(pattern.excerpt())\" is not host[:port][/path]; rule dropped")
                    continue
                }
                guard DomainName.host(rule.host, isWithin: domain) else {
                    drop(rulePath.appending(key: "rule"), "host \"\(rule.host.excerpt())\" is not within \"\(domain.excerpt())\"; rule dropped")
                    continue
                }
                rules.append(rule)
            }
            blockedRequests[domain, default: []] += rules
        }
    }
}
