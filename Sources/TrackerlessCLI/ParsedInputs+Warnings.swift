import TrackerDataKit
import TrackerlessRuntime

extension ParsedInputs {
    /// What reading the tds and the privacy configuration skipped, each with its file and JSON
    /// path, and what the configuration (read from `configurationFile`) leaves out that tracker
    /// blocking depends on.
    func warnings(configurationFile: String?) -> [InputWarning] {
        trackerData.warnings + (configuration?.warnings ?? [])
            + (configuration?.protectionWarnings(file: configurationFile) ?? [])
    }
}
