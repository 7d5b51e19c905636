/// The bit set WebKit keeps per trigger and per load: resource types, load types, load contexts
/// and the request method. Within one category a trigger matches a load that has any of its bits;
/// a category the trigger leaves empty does not constrain; categories are combined with AND.
///
/// Other modules hold flags as opaque values (`Trigger.flags`, `Request.loadFlags(isThirdParty:)`)
/// and test them with `matches(load:)`; the bits are this module's business.
package struct ResourceFlags: OptionSet, Sendable, Hashable {
    package let rawValue: UInt32

    package init(rawValue: UInt32) { self.rawValue = rawValue }

    static let topDocument = ResourceFlags(rawValue: 1 << 0)
    static let childDocument = ResourceFlags(rawValue: 1 << 1)
    static let image = ResourceFlags(rawValue: 1 << 2)
    static let styleSheet = ResourceFlags(rawValue: 1 << 3)
    static let script = ResourceFlags(rawValue: 1 << 4)
    static let font = ResourceFlags(rawValue: 1 << 5)
    static let svgDocument = ResourceFlags(rawValue: 1 << 6)
    static let media = ResourceFlags(rawValue: 1 << 7)
    static let popup = ResourceFlags(rawValue: 1 << 8)
    static let ping = ResourceFlags(rawValue: 1 << 9)
    static let fetch = ResourceFlags(rawValue: 1 << 10)
    static let webSocket = ResourceFlags(rawValue: 1 << 11)
    static let cspReport = ResourceFlags(rawValue: 1 << 12)
    static let other = ResourceFlags(rawValue: 1 << 13)
    @usableFromInline static let resourceTypeMask = ResourceFlags(rawValue: 0x3FFF)

    static let firstParty = ResourceFlags(rawValue: 1 << 14)
    static let thirdParty = ResourceFlags(rawValue: 1 << 15)
    @usableFromInline static let loadTypeMask: ResourceFlags = [.firstParty, .thirdParty]

    static let topFrame = ResourceFlags(rawValue: 1 << 16)
    static let childFrame = ResourceFlags(rawValue: 1 << 17)
    @usableFromInline static let loadContextMask: ResourceFlags = [.topFrame, .childFrame]

    /// The request method is a 4-bit code, compared for equality rather than as bits.
    static let requestMethodShift: UInt32 = 21
    @usableFromInline static let requestMethodMask = ResourceFlags(rawValue: 0xF << 21)

    static func requestMethod(_ method: RequestMethod) -> ResourceFlags {
        ResourceFlags(rawValue: UInt32(method.code) << requestMethodShift)
    }

    /// Whether a trigger with these flags applies to a load with `load` flags.
    ///
    /// Inlinable: the rule engine runs it for every candidate rule of every load.
    @inlinable
    package func matches(load: ResourceFlags) -> Bool {
        let trigger = rawValue, load = load.rawValue
        let types = trigger & Self.resourceTypeMask.rawValue
        if types != 0 && types & load == 0 { return false }
        let loadTypes = trigger & Self.loadTypeMask.rawValue
        if loadTypes != 0 && loadTypes & load == 0 { return false }
        let contexts = trigger & Self.loadContextMask.rawValue
        if contexts != 0 && contexts & load == 0 { return false }
        let method = trigger & Self.requestMethodMask.rawValue
        return method == 0 || method == load & Self.requestMethodMask.rawValue
    }
}
