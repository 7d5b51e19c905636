import TrackerDataKit

/// What a `tl_resolver *` points to.
final class ResolverHandle {
    let resolver: TrackerResolver
    init(_ resolver: TrackerResolver) { self.resolver = resolver }
}
