import CWebKitGTK
import ContentRuleList

/// WebKitGTK's store of compiled content-rule lists (`WebKitUserContentFilterStore`), in a
/// directory that outlives the process: a list compiled once is loaded by its identifier at the
/// next launch without compiling it again.
///
/// Every call must come from the thread that runs the GLib main context; completions run there.
public final class ContentFilterStore {
    let pointer: OpaquePointer

    /// The store kept in `directory` (created by WebKit when missing).
    public init(directory: String) {
        pointer = webkit_user_content_filter_store_new(directory)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    private typealias FilterCompletion = (Result<ContentFilter, ContentFilterStoreError>) -> Void

    /// The list stored under `identifier`, or `.notFound`.
    public func load(identifier: String, completion: @escaping (Result<ContentFilter, ContentFilterStoreError>) -> Void) {
        let box = CallbackBox((identifier, completion as FilterCompletion))
        let callback: GAsyncReadyCallback = { source, result, data in
            let (identifier, completion) = CallbackBox<(String, FilterCompletion)>.take(data)
            var error: UnsafeMutablePointer<GError>?
            let filter = webkit_user_content_filter_store_load_finish(OpaquePointer(source), result, &error)
            completion(ContentFilterStore.result(filter, error, identifier))
        }
        webkit_user_content_filter_store_load(storePointer, identifier, nil, callback, box.retained())
    }

    /// Compiles `source` (WebKit content-blocker JSON) and stores it under `identifier`,
    /// replacing what was stored there.
    ///
    /// A list the running WebKit would refuse is refused here first, in WebKit's words
    /// (``ContentRuleList/RuleList/init(parsing:for:warnings:)``): WebKit's own refusal leaves a
    /// `ContentRuleList-*` temporary file behind in the temporary directory for every such list.
    public func save(identifier: String, source: [UInt8], completion: @escaping (Result<ContentFilter, ContentFilterStoreError>) -> Void) {
        do throws(RuleListError) {
            var warnings: [RuleListWarning] = []
            _ = try RuleList(parsing: source, for: .runningWebKitGTK, warnings: &warnings)
        } catch {
            let refusal = ContentFilterStoreError.invalidSource(identifier: identifier, message: error.description)
            MainContext.after(milliseconds: 0) { completion(.failure(refusal)) }
            return
        }
        let box = CallbackBox((identifier, completion as FilterCompletion))
        let bytes = source.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        let callback: GAsyncReadyCallback = { source, result, data in
            let (identifier, completion) = CallbackBox<(String, FilterCompletion)>.take(data)
            var error: UnsafeMutablePointer<GError>?
            let filter = webkit_user_content_filter_store_save_finish(OpaquePointer(source), result, &error)
            completion(ContentFilterStore.result(filter, error, identifier))
        }
        webkit_user_content_filter_store_save(storePointer, identifier, bytes, nil, callback, box.retained())
        g_bytes_unref(bytes)
    }

    /// The identifiers of every stored list.
    public func identifiers(completion: @escaping ([String]) -> Void) {
        let box = CallbackBox(completion)
        let callback: GAsyncReadyCallback = { source, result, data in
            let completion = CallbackBox<([String]) -> Void>.take(data)
            var identifiers: [String] = []
            if let list = webkit_user_content_filter_store_fetch_identifiers_finish(OpaquePointer(source), result) {
                var index = 0
                while let item = list[index] {
                    identifiers.append(String(cString: item))
                    index += 1
                }
                g_strfreev(list)
            }
            completion(identifiers)
        }
        webkit_user_content_filter_store_fetch_identifiers(storePointer, nil, callback, box.retained())
    }

    /// Removes the list stored under `identifier`; `.notFound` when there was none.
    public func remove(identifier: String, completion: @escaping (Result<Void, ContentFilterStoreError>) -> Void) {
        let box = CallbackBox((identifier, completion))
        let callback: GAsyncReadyCallback = { source, result, data in
            let (identifier, completion) = CallbackBox<(String, (Result<Void, ContentFilterStoreError>) -> Void)>.take(data)
            var error: UnsafeMutablePointer<GError>?
            if webkit_user_content_filter_store_remove_finish(OpaquePointer(source), result, &error) != 0 {
                completion(.success(()))
            } else if let error {
                completion(.failure(ContentFilterStoreError(consuming: error, identifier: identifier)))
            } else {
                completion(.failure(.notFound(identifier: identifier)))
            }
        }
        webkit_user_content_filter_store_remove(storePointer, identifier, nil, callback, box.retained())
    }

    /// The list stored under `identifier` if there is one, else `source()` compiled and stored:
    /// a relaunch with the same lists compiles nothing. `compiled` says which happened.
    public func filter(
        identifier: String, source: @escaping () -> [UInt8],
        completion: @escaping (Result<(filter: ContentFilter, compiled: Bool), ContentFilterStoreError>) -> Void
    ) {
        load(identifier: identifier) { result in
            switch result {
            case .success(let filter): completion(.success((filter, false)))
            case .failure(.notFound):
                self.save(identifier: identifier, source: source()) { saved in completion(saved.map { ($0, true) }) }
            case .failure(let error): completion(.failure(error))
            }
        }
    }

    private var storePointer: OpaquePointer { pointer }

    fileprivate static func result(
        _ filter: OpaquePointer?, _ error: UnsafeMutablePointer<GError>?, _ identifier: String
    ) -> Result<ContentFilter, ContentFilterStoreError> {
        if let filter { return .success(ContentFilter(taking: filter)) }
        if let error { return .failure(ContentFilterStoreError(consuming: error, identifier: identifier)) }
        return .failure(.notFound(identifier: identifier))
    }
}
