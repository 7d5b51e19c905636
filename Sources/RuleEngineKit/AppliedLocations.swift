/// Action locations, the first four stored inline so that a decision does not allocate.
struct AppliedLocations: Sendable {
    private var first: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
    private(set) var count = 0
    private var more: [UInt32] = []

    mutating func append(_ location: UInt32) {
        switch count {
        case 0: first.0 = location
        case 1: first.1 = location
        case 2: first.2 = location
        case 3: first.3 = location
        default: more.append(location)
        }
        count += 1
    }

    func forEach(_ body: (UInt32) -> Void) {
        if count > 0 { body(first.0) }
        if count > 1 { body(first.1) }
        if count > 2 { body(first.2) }
        if count > 3 { body(first.3) }
        for location in more { body(location) }
    }
}
