/// The bit set WebKit keeps per trigger and per load: resource types, load types, load contexts
/// and the request method. Within one category a trigger matches a load that has any of its bits;
/// a category the trigger leaves empty does not constrain; categories are combined with AND.
package struct ResourceFlags: OptionSet, Sendable, Hashable {
    package let rawValue: UInt32

    package init(rawValue: UInt32) { self.rawValue = rawValue }

    package static let topDocument = ResourceFlags(rawValue: 1 << 0)
    package static let childDocument = ResourceFlags(rawValue: 1 << 1)
    package static let image = ResourceFlags(rawValue: 1 << 2)
    package static let styleSheet = ResourceFlags(rawValue: 1 << 3)
    package static let script = ResourceFlags(rawValue: 1 << 4)
    package static let font = ResourceFlags(rawValue: 1 << 5)
    package static let svgDocument = ResourceFlags(rawValue: 1 << 6)
    package static let media = ResourceFlags(rawValue: 1 << 7)
    package static let popup = ResourceFlags(rawValue: 1 << 8)
    package static let ping = ResourceFlags(rawValue: 1 << 9)
    package static let fetch = ResourceFlags(rawValue: 1 << 10)
    package static let webSocket = ResourceFlags(rawValue: 1 << 11)
    package static let cspReport = ResourceFlags(rawValue: 1 << 12)
    package static let other = ResourceFlags(rawValue: 1 << 13)
    package static let resourceTypeMask = ResourceFlags(rawValue: 0x3FFF)

    package static let firstParty = ResourceFlags(rawValue: 1 << 14)
    package static let thirdParty = ResourceFlags(rawValue: 1 << 15)
    package static let loadTypeMask: ResourceFlags = [.firstParty, .thirdParty]

    package static let topFrame = ResourceFlags(rawValue: 1 << 16)
    package static let childFrame = ResourceFlags(rawValue: 1 << 17)
    package static let loadContextMask: ResourceFlags = [.topFrame, .childFrame]

    /// The request method is a 4-bit code, compared for equality rather than as bits.
    package static let requestMethodShift: UInt32 = 21
    package static let requestMethodMask = ResourceFlags(rawValue: 0xF << 21)

    package static func requestMethod(_ method: RequestMethod) -> ResourceFlags {
        ResourceFlags(rawValue: UInt32(method.code) << requestMethodShift)
    }

    /// Whether a trigger with these flags applies to a load with `load` flags.
    package func matches(load: ResourceFlags) -> Bool {
        let types = intersection(.resourceTypeMask)
        if !types.isEmpty && types.isDisjoint(with: load) { return false }
        let loadTypes = intersection(.loadTypeMask)
        if !loadTypes.isEmpty && loadTypes.isDisjoint(with: load) { return false }
        let contexts = intersection(.loadContextMask)
        if !contexts.isEmpty && contexts.isDisjoint(with: load) { return false }
        let method = intersection(.requestMethodMask)
        if !method.isEmpty && method != load.intersection(.requestMethodMask) { return false }
        return true
    }
}
