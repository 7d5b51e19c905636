import CWebKitGTK
import Foundation
import TrackerlessRuntime
import TrackerlessWebKitGTK

/// Launch to protected with a warm cache, WebKit's part included: the runtime made from the
/// cache (`ProtectionRuntime(inputs:cacheDirectory:)`), every rule list looked up in WebKit's
/// content filter store by identifier (found, so nothing compiled), and the lists, both scripts
/// and the message handler added to a new user content manager: the steps `ProtectedWebView`
/// takes before its first load. Each round starts from a new runtime and a new user content
/// manager on the same cache and store; the first round, which fills them, is not counted.
final class LaunchBenchmark {
    private let inputs: ProtectionInputs
    private let cacheDirectory: String
    private let store: ContentFilterStore
    private let rounds: Int
    private let done: (_ times: [Double], _ compiled: Int, _ failures: [String]) -> Void
    private var round = 0
    private var times: [Double] = []
    private var compiledInCountedRounds = 0
    private var failures: [String] = []
    /// The runtime and user content of the round in progress, kept alive until it ends.
    private var current: (ProtectionRuntime, UserContent)?

    init(
        inputs: ProtectionInputs, cacheDirectory: String, store: ContentFilterStore, rounds: Int,
        done: @escaping (_ times: [Double], _ compiled: Int, _ failures: [String]) -> Void
    ) {
        self.inputs = inputs
        self.cacheDirectory = cacheDirectory
        self.store = store
        self.rounds = rounds
        self.done = done
    }

    func start() { nextRound() }

    private func nextRound() {
        guard round <= rounds else { return done(times, compiledInCountedRounds, failures) }
        round += 1
        let started = DispatchTime.now()
        let runtime: ProtectionRuntime
        do {
            runtime = try ProtectionRuntime(inputs: inputs, cacheDirectory: cacheDirectory)
        } catch {
            failures.append("runtime: \(error)")
            return done(times, compiledInCountedRounds, failures)
        }
        let content = UserContent()
        current = (runtime, content)
        let set = runtime.currentSet
        lookUp(set.ruleLists[...], into: content) { [weak self] in
            guard let self else { return }
            for script in set.scripts { content.addScript(script.source, world: script.world.name) }
            _ = content.registerMessageHandler(name: set.messageHandlerName, worlds: set.messageHandlerWorlds.map(\.name)) { _ in }
            let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000
            if self.round > 1 { self.times.append(milliseconds) }
            self.current = nil
            // Let the previous round's objects go before the next one starts.
            MainContext.after(milliseconds: 20) { [weak self] in self?.nextRound() }
        }
    }

    /// Each list found in (or, in the first round, compiled into) the store, then added.
    private func lookUp(_ remaining: ArraySlice<EncodedRuleList>, into content: UserContent, then finish: @escaping () -> Void) {
        guard let list = remaining.first else { return finish() }
        store.filter(identifier: list.identifier, source: { list.json }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let (filter, compiled)):
                if compiled, self.round > 1 { self.compiledInCountedRounds += 1 }
                content.add(filter)
                self.lookUp(remaining.dropFirst(), into: content, then: finish)
            case .failure(let error):
                self.failures.append("\(list.identifier): \(error)")
                self.done(self.times, self.compiledInCountedRounds, self.failures)
            }
        }
    }
}
