import Foundation
import Synchronization
import Testing
import TrackerlessRuntime
import TrackerlessTestSupport

/// The schedule: a check when due, the policy's interval after an update or nothing new, its
/// retry interval after a refusal; stop() ends it and the check in progress.
@Suite("ProtectionUpdater: the schedule")
struct UpdaterScheduleTests {
    @Test("checks at once, then every interval; after a refusal waits the retry interval; stop() ends it")
    func intervals() async throws {
        let policy = UpdaterFixture.policy { $0.interval = 0.5; $0.retryInterval = 2 }
        let fixture = try UpdaterFixture(policy: policy)
        defer { fixture.remove() }
        let reports = Mutex<[UpdateReport]>([])
        fixture.updater.start { report in reports.withLock { $0.append(report) } }
        func waitFor(_ condition: ([UpdateReport]) -> Bool) async throws {
            let held = await Polling.until(seconds: 30) { reports.withLock { condition($0) } }
            try #require(held, "\(reports.withLock { $0.map(\.outcome) })")
        }
        try await waitFor { $0.count >= 2 }
        try fixture.server.route("/tds.json", .init(status: 500))
        try await waitFor { reports in reports.firstIndex { $0.outcome == .refused }.map { $0 + 1 < reports.count } ?? false }
        fixture.updater.stop()
        let seen = reports.withLock { $0 }
        #expect(seen[0].outcome == .updated && seen[1].outcome == .unchanged)
        #expect(seen[0].nextCheck == seen[0].date.addingTimeInterval(0.5))
        let refusal = try #require(seen.firstIndex { $0.outcome == .refused })
        for index in 1...refusal {
            #expect(seen[index].date.timeIntervalSince(seen[index - 1].date) >= 0.45, "the interval after check \(index - 1)")
        }
        #expect(seen[refusal + 1].date.timeIntervalSince(seen[refusal].date) >= 1.9, "the retry interval after a refusal")
        #expect(fixture.updater.lastReport?.date ?? .distantPast >= seen[refusal + 1].date)

        // Stopped: no more checks.
        let count = fixture.server.requests("/tds.json").count
        try await Task.sleep(nanoseconds: 1_200_000_000)
        #expect(fixture.server.requests("/tds.json").count == count)
    }

    @Test("a manual check moves the schedule: the next scheduled check is an interval after it")
    func manualCheckCounts() async throws {
        // A day: a test held up for minutes on a busy machine still wakes before the next check.
        let policy = UpdaterFixture.policy { $0.interval = 86_400 }
        let fixture = try UpdaterFixture(policy: policy)
        defer { fixture.remove() }
        let report = await fixture.updater.checkNow()
        #expect(fixture.updater.nextCheck == report.nextCheck)
        let scheduled = Mutex(0)
        fixture.updater.start { _ in scheduled.withLock { $0 += 1 } }
        try await Task.sleep(nanoseconds: 800_000_000)
        fixture.updater.stop()
        #expect(scheduled.withLock { $0 } == 0)
        #expect(fixture.server.requests("/tds.json").count == 1)
    }

    @Test(
        "stop(), or cancelling the task that awaits checkNow(), during a slow download: the check ends at once, refused as cancelled, nothing changed, the schedule's time kept",
        arguments: ["stop()", "the task cancelled"])
    func cancellation(by way: String) async throws {
        let policy = UpdaterFixture.policy { $0.timeout = 3600 }
        let fixture = try UpdaterFixture(policy: policy, trackerData: .init(body: RuntimeFixture.updatedTrackerDataText, delay: 3600))
        defer { fixture.remove() }
        let before = fixture.runtime.currentSet
        let due = fixture.updater.nextCheck
        let check = Task { await fixture.updater.checkNow() }
        // On a machine busy with other tests, the check's task may wait minutes for a thread.
        try #require(await fixture.server.waitForArrivals("/tds.json", count: 1, seconds: 900))
        let stopped = Date()
        if way == "stop()" { fixture.updater.stop() } else { check.cancel() }
        let report = await check.value
        // Until the report was made, on the check's own thread (not when this task resumes).
        #expect(report.date.timeIntervalSince(stopped) < 60, "ended by the cancellation, not by the answer or the timeout (3600 s)")
        #expect(report.outcome == .refused && report.error?.reason == .cancelled, "\(report.jsonValue.jsonString())")
        #expect(fixture.runtime.currentSet === before)
        #expect(fixture.updater.nextCheck == due)
    }
}
