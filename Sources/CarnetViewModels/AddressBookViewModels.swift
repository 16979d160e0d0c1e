import CarnetModels
import CarnetState
import Observation

/// The home screen: the current quote, the favorites in order and how many contacts there are.
@MainActor
@Observable
public final class HomeViewModel {
    @ObservationIgnored private let state: StateController

    public init(state: StateController) {
        self.state = state
    }

    public var quote: Quote? { state.currentQuote }
    public var favorites: [Favorite] { state.favorites }
    public var contactCount: Int { state.contactCount }
    /// How many group cards there are (nil when the file cannot say).
    public var groupCount: Int? { try? state.groupCount() }

    /// The screen appears: pick up changes made elsewhere.
    public func onAppear() throws(CarnetError) {
        try state.refresh()
    }
}

/// Moving contacts in and out: imports (one transaction, every screen refreshed after) and
/// exports (a page at a time, never the whole table in memory).
@MainActor
public final class InterchangeViewModel {
    private let state: StateController

    public init(state: StateController) {
        self.state = state
    }

    /// Imports `next`'s records from `source` (see `ImportOptions`); the report says what was
    /// added, updated, unchanged and skipped.
    public func importContacts(
        source: String, options: ImportOptions = ImportOptions(), progress: ((Int) -> Void)? = nil,
        next: @escaping () throws(InterchangeError) -> InterchangeRecord?
    ) throws(CarnetError) -> ImportReport {
        try state.importContacts(source: source, options: options, progress: progress, next: next)
    }

    /// The member UIDs (`GroupMember/uid(of:)`) of every group: what an export's writer must
    /// remember of the people it writes before the groups that name them.
    public func groupMemberUIDs() throws(CarnetError) -> Set<String> {
        Set(try state.groups().flatMap { $0.draft.members.map(GroupMember.uid(of:)) })
    }

    /// Every contact in name order (or the favorites in theirs), with whether it is a favorite.
    public func forEachContact(favoritesOnly: Bool = false, bookID: Int64? = nil, _ body: (Contact, Bool) throws -> Void) throws(CarnetError) {
        try state.forEachContact(favoritesOnly: favoritesOnly, bookID: bookID, body)
    }
}

/// The file itself: where it is, what is in it, whether it is sound, and a copy.
@MainActor
public final class DatabaseViewModel {
    private let state: StateController

    public init(state: StateController) {
        self.state = state
    }

    public var path: String { state.databasePath }

    public func info() throws(CarnetError) -> DatabaseInfo {
        try state.databaseInfo()
    }

    /// The region that completes phone numbers written without a country code.
    public func phoneRegion() throws(CarnetError) -> PhoneRegionSetting {
        try state.phoneRegionSetting()
    }

    /// Sets the file's phone region (an ISO 3166-1 code such as GB); nil forgets it, and each
    /// process takes its locale's.
    @discardableResult
    public func setPhoneRegion(_ region: String?) throws(CarnetError) -> PhoneRegionSetting {
        try state.setPhoneRegion(region)
        return try state.phoneRegionSetting()
    }

    /// `["ok"]`, or one line per problem (see `StorageController.integrityCheck()`).
    public func check() throws(CarnetError) -> [String] {
        try state.integrityCheck()
    }

    /// What the repair changed, one line each; empty when there was nothing to repair.
    public func repair() throws(CarnetError) -> [String] {
        try state.repair()
    }

    /// Rebuilds the search index from the contacts; returns how many contacts it holds.
    public func reindex() throws(CarnetError) -> Int {
        try state.reindexSearch()
    }

    public func backup(to path: String) throws(CarnetError) {
        try state.backup(to: path)
    }

    /// What a compaction would need and give back, to say before starting.
    public func compactionPlan() throws(CarnetError) -> CompactionPlan {
        try state.compactionPlan()
    }

    /// Packs the file: its free pages go back to the disk.
    @discardableResult
    public func compact() throws(CarnetError) -> Compaction {
        try state.compact()
    }
}
