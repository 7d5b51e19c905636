/// An immutable copy of an array in memory its owner frees explicitly; reading it involves no
/// reference counting and no bounds check. Indices come from the owner's own construction (or
/// its checked file), never from input.
package struct OwnedBuffer<Element>: @unchecked Sendable {
    // Unchecked: the memory is written once, in `init`, and freed once, by the owner.
    private let base: UnsafeMutablePointer<Element>
    package let count: Int

    package init(_ array: [Element]) {
        count = array.count
        base = UnsafeMutablePointer<Element>.allocate(capacity: max(array.count, 1))
        array.withUnsafeBufferPointer { source in
            if let address = source.baseAddress { base.initialize(from: address, count: source.count) }
        }
    }

    package subscript(index: Int) -> Element {
        @inline(__always) get { base[index] }
    }

    var array: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// The address of element `index`, to read a run of elements in place.
    func address(of index: Int) -> UnsafePointer<Element> { UnsafePointer(base + index) }

    package func deallocate() {
        base.deinitialize(count: count)
        base.deallocate()
    }
}
