import FuzzSupport
import PrivacyStatsKit
import TrackerDataKit
import TrackerlessCore

/// The host the messages are posted to: one secret, the fuzzers' sample blocklist.
enum ScriptMessageFixture {
    /// The secret the seeds carry, so that they reach the schema checks and the statistics.
    static let secret = ScriptSecret(hex: "0123456789abcdef0123456789abcdef")!

    static let resolver = TrackerResolver(
        trackerData: FuzzTrackerData.sample,
        surrogates: Surrogates(parsing: "tracker.example/a.js application/javascript\n(() => {})()\n"))

    /// The statistics every input is received by: one host, as in an app. Each input starts a
    /// new page in tab "1", so that pages do not grow from input to input.
    static let stats = PrivacyStats(resolver: resolver, secrets: [secret], clock: { 1_790_000_000 })
}
