import ContentRuleList

/// The reference evaluator, which keeps nothing between loads.
struct ReferenceDecider: BenchDecider {
    let evaluator: ReferenceEvaluator

    mutating func startPass() {}

    mutating func isBlocked(_ request: Request) -> Bool { evaluator.actions(for: request).isBlocked }
}
