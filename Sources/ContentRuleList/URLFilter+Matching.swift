extension URLFilter {
    /// The matcher compiled from the terms at initialization.
    ///
    /// The URL is read byte by byte followed by the virtual end-of-URL character 0 (what `$`
    /// consumes), and the match succeeds as soon as a final state is reached, as in WebKit's DFA
    /// interpreter. Three automata with that meaning, all free of backtracking:
    /// - up to 63 character-set occurrences, a bit-parallel position (Glushkov) automaton, one
    ///   machine word of state and no allocation;
    /// - beyond that, when no quantifier applies to a group of several terms (long literals,
    ///   `a.*b.*c…`, `[a-z][a-z]…`), the same automaton over as many words as it needs, each
    ///   character costing a few operations per 64 positions that can be active;
    /// - otherwise a Thompson automaton simulated with a sparse state list (Pike), linear in
    ///   URL length times the number of live states.
    /// A required literal, when the pattern has one, rejects most URLs before any runs.
    ///
    /// The tables live in memory owned by ``Storage`` (freed in its `deinit`), so that matching
    /// does no reference counting: with thousands of filters per URL, retains dominated otherwise.
    struct Automaton {
        private enum Engine {
            case positions(PositionAutomaton)
            case sequence(SequenceAutomaton)
            case thompson(ThompsonAutomaton)
            case everything
        }

        /// Which automaton matches, for tests: `positions`, `sequence`, `thompson` or `everything`.
        var kind: String {
            switch engine {
            case .positions: "positions"
            case .sequence: "sequence"
            case .thompson: "thompson"
            case .everything: "everything"
            }
        }

        private let engine: Engine
        private let literal: RequiredLiteral?

        init(terms: [Term], matchesEverything: Bool, allowsPositionAutomaton: Bool = true) {
            if matchesEverything {
                engine = .everything
                literal = nil
                return
            }
            if allowsPositionAutomaton, let positions = PositionAutomaton(terms: terms) {
                engine = .positions(positions)
            } else if allowsPositionAutomaton, let sequence = SequenceAutomaton(terms: terms) {
                engine = .sequence(sequence)
            } else {
                engine = .thompson(ThompsonAutomaton(terms: terms))
            }
            literal = RequiredLiteral(terms: terms)
        }

        /// The literal every match contains, lowercased.
        var requiredLiteral: [UInt8]? { literal?.lowercased }

        func matches(_ url: UnsafeBufferPointer<UInt8>) -> Bool {
            if let literal, !literal.occurs(in: url) { return false }
            switch engine {
            case .positions(let automaton): return automaton.matches(url)
            case .sequence(let automaton): return automaton.matches(url)
            case .thompson(let automaton): return automaton.matches(url)
            case .everything: return true
            }
        }

        /// Frees the tables; called once, by the owner.
        func deallocate() {
            literal?.deallocate()
            switch engine {
            case .positions(let automaton): automaton.deallocate()
            case .sequence(let automaton): automaton.deallocate()
            case .thompson(let automaton): automaton.deallocate()
            case .everything: break
            }
        }
    }

    /// The parsed filter and its automaton, shared by copies of a ``URLFilter``.
    final class Storage: @unchecked Sendable {
        // Unchecked: every property is immutable after init, and the automaton's tables are
        // written only in init and freed only in deinit.
        let pattern: String
        let terms: [Term]
        let automaton: Automaton

        init(pattern: String, terms: [Term], automaton: Automaton) {
            self.pattern = pattern
            self.terms = terms
            self.automaton = automaton
        }

        deinit { automaton.deallocate() }
    }
}

// MARK: - Character sets as matched

extension Term.CharacterSet {
    /// The characters the set matches (inversion applied), as two words over 0…127.
    package var matchedWords: (low: UInt64, high: UInt64) {
        guard isInverted else { return (low, high) }
        // 1…127 minus the listed characters; never 0, the end of the URL.
        return (~low & ~UInt64(1), ~high)
    }
}
