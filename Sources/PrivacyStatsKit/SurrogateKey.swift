import TrackerDataKit
import TrackerlessCore

struct SurrogateKey: Hashable, Sendable {
    var surrogate: String
    var host: String
}
