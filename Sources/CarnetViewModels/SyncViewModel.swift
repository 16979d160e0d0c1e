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

    /// Links the address book named `book` (nil: the default book) to the collection found at `url`.
    public func setup(
        url: String, username: String, passwordCommand: String, certificateAuthority: String? = nil, book: String? = nil
    ) throws(CarnetError) -> SyncSetup {
        let setup = try engine.setup(
            url: url, username: username, passwordCommand: passwordCommand, certificateAuthority: certificateAuthority, book: book)
        if setup.links.contains(where: \.madeBook) { try state.refresh() }
        return setup
    }

    public func sync(options: SyncOptions = SyncOptions(), progress: ((SyncProgress) -> Void)? = nil) throws(CarnetError) -> SyncReport {
        let report = try engine.sync(options: options, progress: progress)
        if !options.dryRun && !report.changedNothing { try state.refresh() }
        return report
    }

    /// Syncs every linked book (or only `book`), each on its own: one book's failure is in its
    /// outcome, and the others still sync.
    public func syncBooks(
        _ book: String? = nil, options: SyncOptions = SyncOptions(), progress: ((SyncProgress) -> Void)? = nil
    ) throws(CarnetError) -> [BookSyncOutcome] {
        let outcomes = try engine.syncBooks(book, options: options, progress: progress)
        if !options.dryRun && outcomes.contains(where: { !($0.report?.changedNothing ?? true) || $0.failure != nil }) { try state.refresh() }
        return outcomes
    }

    /// Nil when no sync is set up.
    public func status() throws(CarnetError) -> SyncStatus? {
        try engine.status()
    }

    /// Every linked book's status, the default book's first.
    public func statuses() throws(CarnetError) -> [SyncStatus] {
        try engine.statuses()
    }

    /// The conflict numbered `id`, with both sides' values.
    public func conflict(id: Int64) throws(CarnetError) -> SyncConflict {
        guard let conflict = try engine.conflict(id: id) else { throw .notFound(.syncConflict, id: id) }
        return conflict
    }

    /// What `take(conflict:fields:)` did.
    public struct Taken: Sendable, Equatable {
        public var conflict: SyncConflict
        public var fields: [Field]
        /// The contact as saved; unchanged when it already held those values.
        public var contact: Contact
        public var changed: Bool
    }

    /// Settles conflict `id`, met linking with no common base, keeping this file's values: the
    /// next sync sends them over the server's.
    public func keepMine(conflict id: Int64) throws(CarnetError) -> SyncConflict {
        let conflict = try conflict(id: id)
        guard conflict.clash.unsettled else {
            throw .refused("conflict \(id) is settled already: this file's values were kept and sent; carnet sync take \(id) takes the server's")
        }
        try engine.settleConflict(id: id)
        return try self.conflict(id: id)
    }

    /// Gives the contact of conflict `id` the losing side's values of `fields` (all the
    /// conflict's by default): one edit, like any other (in the history, undone by undo), which
    /// leaves the contact to be sent by the next sync. A conflict met linking with no common
    /// base is settled by it: the contact is sent again, with the values taken.
    public func take(conflict id: Int64, fields wanted: [Field]? = nil) throws(CarnetError) -> Taken {
        let conflict = try conflict(id: id)
        let name = conflict.clash.name
        guard let lost = conflict.lost else {
            throw .refused("the other side's card of conflict \(id) cannot be read; it is kept whole in the file's sync_conflicts")
        }
        guard let current = conflict.contact else {
            throw .refused("\(name), of conflict \(id), was deleted since; carnet undo or carnet history may bring it back")
        }
        let fields = wanted ?? conflict.clash.fields
        if let other = fields.first(where: { !conflict.clash.fields.contains($0) }) {
            let clashing = conflict.clash.fields.map(\.rawValue).joined(separator: ", ")
            throw .refused("conflict \(id) is about \(clashing), not \(other.rawValue)")
        }
        let contact = state.latest(current) ?? current
        var draft = contact.draft
        for field in fields { draft.take(field, from: lost) }
        let changed = draft != contact.draft
        let saved = changed ? try state.updateContact(contact, with: draft) : contact
        if conflict.clash.unsettled { try engine.settleConflict(id: id) }
        guard changed else { return Taken(conflict: conflict, fields: fields, contact: contact, changed: false) }
        return Taken(conflict: conflict, fields: fields, contact: saved, changed: true)
    }

    /// Stops naming the card not synced numbered (or at the href) `reference`; nil when none is.
    public func skipCard(_ reference: String) throws(CarnetError) -> CardNotSynced? {
        try engine.skipCard(reference)
    }
}
