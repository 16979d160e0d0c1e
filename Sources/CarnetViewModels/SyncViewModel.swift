import CarnetModels
import CarnetState

/// The sync screen: set up the address book to sync with, sync, see where things stand. The
/// engine (the CardDAV client) comes from the composition root; after a sync that changed this
/// file, every screen sharing the state sees the changes.
@MainActor
public final class SyncViewModel {
    private let state: StateController
    private let engine: any AddressBookSyncing

    public init(state: StateController, engine: any AddressBookSyncing) {
        self.state = state
        self.engine = engine
    }

    public func setup(url: String, username: String, passwordCommand: String) throws(CarnetError) -> SyncSetup {
        try engine.setup(url: url, username: username, passwordCommand: passwordCommand)
    }

    public func sync(options: SyncOptions = SyncOptions(), progress: ((SyncProgress) -> Void)? = nil) throws(CarnetError) -> SyncReport {
        let report = try engine.sync(options: options, progress: progress)
        if !options.dryRun && !report.changedNothing { try state.refresh() }
        return report
    }

    /// Nil when no sync is set up.
    public func status() throws(CarnetError) -> SyncStatus? {
        try engine.status()
    }
}
