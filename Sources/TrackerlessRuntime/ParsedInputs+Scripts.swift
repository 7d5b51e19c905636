public import TrackerlessCore
public import UserScripts

/// The script stage of the one build (``ProtectionBuild``): both scripts rendered from the
/// inputs. The one build runs it beside its other work; the C API's `tl_scripts_render` runs it
/// alone.
extension ParsedInputs {
    /// The blocking and inference scripts of these inputs (the blocklist, the configuration, the
    /// user allowlist, the surrogates, the script settings and templates), carrying `secret`.
    ///
    /// - Throws: ``ProtectionError/invalidInput(_:detail:)`` for the script settings, or for a
    ///   template the renderer cannot use.
    public func renderedScripts(secret: ScriptSecret) throws(ProtectionError) -> RenderedScripts {
        do throws(ScriptRenderError) {
            return try ScriptRenderer(templates: templates, settings: settings).render(
                trackerData: trackerData, privacyConfiguration: configuration,
                userAllowlist: userAllowlist, surrogates: surrogates, secret: secret)
        } catch {
            throw .invalidInput(.scriptSettings, detail: error.description)
        }
    }
}
