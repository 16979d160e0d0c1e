import CarnetInterchange
import CarnetModels
import CarnetStorage
import Foundation

/// Two-way sync of a Carnet file with one CardDAV address book.
///
/// A sync first brings the server's changes here, in one write transaction recorded as one
/// action of the history ("synced with dav.example.com: 3 down, 0 up"), committed before its
/// first request that writes to the server: so a merge's losing values (`SyncClash`) are in
/// the file before the merged card goes up, however the sync ends afterwards. Then it sends this side's deletions and
/// changes, committing as it goes and again before sending any merge it had to make meanwhile.
/// A sync stopped while sending leaves the server with some of the uploads; the next sync finds
/// them (a card already at its href answers 412 to `If-None-Match: *`, and is fetched, merged
/// and linked, not sent twice), so a rerun converges with no duplicates and nothing lost.
///
/// A card is known by its UID, not its href: a card another client deleted and put again under
/// another name (vdirsyncer after a rename, DAVx5) is the same contact, linked to its new href
/// and merged as any edit; an upload that finds its card gone, or refused because the UID is
/// taken, first catches up with the server to find where the card is now. Carnet never puts a
/// second card with a UID the collection already holds. A card another client moves between
/// the collections of two linked books moves its contact between the books: a card gone from
/// one collection holds its contact (`HeldDeletion`) until the other books have synced; the one
/// that has the card takes the contact, else it was a deletion.
///
/// In order: recognise the server (its `ServerProfile`, kept for the sync), ask what changed
/// there (sync-collection with the last token, or every ETag when the server has no token to
/// give), fetch those cards in batches (addressbook-multiget), apply them here (merging field by
/// field, lists entry by entry, where both sides changed), apply the server's deletions, commit;
/// send this side's deletions (If-Match), then this side's new and changed contacts
/// (If-None-Match: * or If-Match; a 412 means fetch, merge, retry).
public final class CardDAVSync: AddressBookSyncing {
    private let storage: StorageController
    private let transport: HTTPTransport
    private let environment: [String: String]
    /// Asked for the password of a user (and the server's name) when neither a password command
    /// nor `CARNET_SYNC_PASSWORD` gives one: a person at a terminal types it. Asked once per user
    /// and server in this process; never stored.
    public var askPassword: ((_ username: String, _ server: String) -> String?)?
    private var typedPasswords: [String: String] = [:]

    /// `environment` is where `CARNET_SYNC_PASSWORD` is looked for and what the password command runs with.
    public init(storage: StorageController, transport: HTTPTransport, environment: [String: String]) {
        self.storage = storage
        self.transport = transport
        self.environment = environment
    }

    /// The password from the command or the environment, else typed (see `askPassword`).
    private func password(username: String, command: String, server: String) throws(CarnetError) -> String? {
        do {
            return try Password.resolve(username: username, command: command, environment: environment)
        } catch {
            guard command.isEmpty, let askPassword else { throw error }
            let key = username + "@" + server
            if let typed = typedPasswords[key] { return typed }
            guard let typed = askPassword(username, server), !typed.isEmpty else { throw error }
            typedPasswords[key] = typed
            return typed
        }
    }

    /// `url` may name the user (`http://ada@host/…`): taken as `username` when that is empty.
    /// A password in it is refused (it would be stored and shown); `certificateAuthority` (PEM)
    /// is then the only CA this account's server is verified against, in every sync.
    ///
    /// An address book at `url`, or the only one of the home set (made when it has none), is
    /// linked to the book named `book` (made when missing), else to the default book. A home set
    /// with several is linked book by book, each collection to the book of its display name
    /// (made when missing), or only the collection named `book`.
    public func setup(
        url text: String, username: String, passwordCommand: String, certificateAuthority: String?, book: String?
    ) throws(CarnetError) -> SyncSetup {
        let (url, username) = try SyncAccount.login(url: text, username: username)
        if let certificateAuthority, !SyncAccount.isPEMCertificate(certificateAuthority) {
            throw .sync(.tls(server: url.serverName, reason: "the CA given is not a PEM certificate (-----BEGIN CERTIFICATE-----)"))
        }
        let password = try password(username: username, command: passwordCommand, server: url.serverName)
        let client = CardDAVClient(
            collection: url, username: username, password: password, transport: transport, certificateAuthority: certificateAuthority)
        let found = try client.addressBooks(at: url)
        var targets: [(url: URL, book: String?)]
        var created = false
        if found.collections.count <= 1 {
            if let only = found.collections.first {
                targets = [(only.url, book)]
            } else {
                guard let home = found.home else { throw .sync(.server("\(url.absoluteString) is not an address book")) }
                targets = [(try client.makeAddressBook(in: home), book)]
                created = true
            }
        } else {
            var names: Set<String> = []
            targets = found.collections.map { collection in
                var name = ValueRepair.line(collection.name, max: AddressBook.maxNameLength - 4)
                if name.isEmpty { name = "Address book" }
                var unique = name
                var n = 2
                while names.contains(unique.lowercased()) { unique = "\(name) \(n)"; n += 1 }
                names.insert(unique.lowercased())
                return (collection.url, unique)
            }
            if let book {
                let wanted = book.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
                targets = targets.filter { $0.book?.lowercased() == wanted }
                guard !targets.isEmpty else {
                    throw .refused(
                        "\(url.absoluteString) has no address book named \(book.debugDescription); it has \(found.collections.map(\.name.debugDescription).joined(separator: ", "))")
                }
            }
        }
        var links: [BookLink] = []
        for target in targets {
            var madeBook = false
            let local: AddressBook
            if let name = target.book {
                do {
                    local = try storage.addressBook(named: name)
                } catch .unknownBook {
                    local = try storage.addAddressBook(named: name)
                    madeBook = true
                }
            } else {
                guard let defaultBook = try storage.addressBooks().first(where: \.isDefault) else { throw .unknownBook("the default book") }
                local = defaultBook
            }
            let account = try storage.saveSyncAccount(
                SyncAccount(
                    collectionURL: target.url.absoluteString, username: username, passwordCommand: passwordCommand,
                    certificateAuthority: certificateAuthority, bookID: local.id))
            links.append(BookLink(book: local, account: account, madeBook: madeBook))
        }
        guard let first = links.first else { throw .sync(.notConfigured) }
        return SyncSetup(account: first.account, created: created, links: links)
    }

    public func statuses() throws(CarnetError) -> [SyncStatus] {
        try storage.syncStatuses().map { status in
            var status = status
            status.conflicts = status.conflicts.map(Self.readingLostCard)
            return status
        }
    }

    /// The account, what waits to be sent, the recent conflicts with their losing cards read,
    /// and the cards not synced.
    public func status() throws(CarnetError) -> SyncStatus? {
        guard var status = try storage.syncStatus() else { return nil }
        status.conflicts = status.conflicts.map(Self.readingLostCard)
        return status
    }

    /// The conflict numbered `id`, its losing card read.
    public func conflict(id: Int64) throws(CarnetError) -> SyncConflict? {
        try storage.syncConflict(id: id).map(Self.readingLostCard)
    }

    public func settleConflict(id: Int64) throws(CarnetError) {
        try storage.settleSyncConflict(id: id)
    }

    public func skipCard(_ reference: String) throws(CarnetError) -> CardNotSynced? {
        try storage.skipCardNotSynced(reference)
    }

    private static func readingLostCard(_ conflict: SyncConflict) -> SyncConflict {
        var conflict = conflict
        conflict.lost = (try? VCardReader.parse(conflict.clash.lostCard).first).map { $0.draft.normalized() }
        return conflict
    }

    public func sync(options: SyncOptions, progress: ((SyncProgress) -> Void)?) throws(CarnetError) -> SyncReport {
        let outcomes = try syncBooks(nil, options: options, progress: progress)
        if let failure = outcomes.lazy.compactMap(\.failure).first { throw failure }
        return outcomes.compactMap(\.report).reduce(into: SyncReport()) { total, report in
            total = total.server.isEmpty ? report : Self.adding(total, report)
        }
    }

    public func syncBooks(_ book: String?, options: SyncOptions, progress: ((SyncProgress) -> Void)?) throws(CarnetError) -> [BookSyncOutcome] {
        var accounts = try storage.syncAccounts()
        guard !accounts.isEmpty else { throw .sync(.notConfigured) }
        if let book {
            let wanted = try storage.addressBook(named: book)
            accounts = accounts.filter { $0.bookID == wanted.id }
            guard !accounts.isEmpty else {
                throw .refused("the address book \(wanted.name) is not synced (carnet sync setup URL --book \(wanted.name) links it)")
            }
        }
        var outcomes: [BookSyncOutcome] = []
        var waiting: [Int] = []
        // What this run has seen: the books it synced, and the UIDs of cards one of them has
        // while the file has their contact in another book (moved there by another client).
        var seen = SyncSeen()
        for account in accounts {
            do {
                let (report, waited) = try sync(account, seen: seen, options: options, progress: progress)
                seen.books.insert(account.id)
                seen.waiting.formUnion(waited)
                if !waited.isEmpty { waiting.append(outcomes.count) }
                outcomes.append(BookSyncOutcome(book: account.bookName, report: report))
            } catch {
                outcomes.append(BookSyncOutcome(book: account.bookName, failure: error))
            }
        }
        guard !options.dryRun else { return outcomes }
        // A card another client moved between two linked collections waits until the book it
        // left has found it gone there; that book synced after it, so it is taken now.
        if accounts.count > 1 {
            for index in waiting {
                guard let account = try storage.syncAccounts().first(where: { $0.id == accounts[index].id }),
                      let first = outcomes[index].report
                else { continue }
                do {
                    let (again, _) = try sync(account, seen: seen, options: options, progress: progress)
                    outcomes[index].report = Self.adding(first, again)
                } catch {
                    outcomes[index] = BookSyncOutcome(book: account.bookName, report: first, failure: error)
                }
            }
        }
        try settleHeldDeletions(seen: seen, into: &outcomes)
        return outcomes
    }

    /// Settles, in every linked book, the held deletions the other books have now shown to be
    /// deletions (see `SyncRun.settleHeldDeletions`): a change made here, without asking
    /// any server, told in the book's outcome (one of its own when that book did not sync).
    private func settleHeldDeletions(seen: SyncSeen, into outcomes: inout [BookSyncOutcome]) throws(CarnetError) {
        for account in try storage.syncAccountsHoldingDeletions() {
            let report = try storage.withSyncTransaction(account, dryRun: false) { transaction in
                var report = SyncReport()
                report.server = account.host
                report.book = account.bookName
                try SyncRun.settleHeldDeletions(transaction, seen: seen, report: &report)
                if report.deleted > 0 { transaction.describe(report: report) }
                return report
            }
            guard report.deleted > 0 else { continue }
            if let index = outcomes.firstIndex(where: { $0.book == account.bookName }) {
                outcomes[index].report = outcomes[index].report.map { Self.adding($0, report) } ?? report
            } else {
                outcomes.append(BookSyncOutcome(book: account.bookName, report: report))
            }
        }
    }

    /// Two syncs of one book as one report.
    private static func adding(_ a: SyncReport, _ b: SyncReport) -> SyncReport {
        var sum = a
        if sum.book != b.book { sum.book = [a.book, b.book].filter { !$0.isEmpty }.joined(separator: ", ") }
        if sum.server != b.server { sum.server = [a.server, b.server].filter { !$0.isEmpty }.joined(separator: ", ") }
        sum.added += b.added
        sum.updated += b.updated
        sum.deleted += b.deleted
        sum.uploaded += b.uploaded
        sum.deletedRemotely += b.deletedRemotely
        sum.merged += b.merged
        sum.moved += b.moved
        sum.clashes += b.clashes
        sum.skipped = b.skipped
        sum.incremental = a.incremental && b.incremental
        return sum
    }

    /// One sync of one linked book; also the UIDs of its collection's cards that wait for another
    /// book to let their contact go.
    private func sync(
        _ account: SyncAccount, seen: SyncSeen, options: SyncOptions, progress: ((SyncProgress) -> Void)?
    ) throws(CarnetError) -> (SyncReport, [String]) {
        guard let collection = URL(string: account.collectionURL) else { throw .sync(.notConfigured) }
        let password = try password(username: account.username, command: account.passwordCommand, server: collection.serverName)
        let client = CardDAVClient(
            collection: collection, username: account.username, password: password, transport: transport,
            certificateAuthority: account.certificateAuthority)
        var started: SyncRun?
        do {
            return try storage.withSyncTransaction(account, dryRun: options.dryRun) { transaction in
                let run = SyncRun(transaction, client: client, options: options, progress: progress)
                run.seen = seen
                started = run
                try run.run()
                return (run.report, run.waitingUIDs)
            }
        } catch {
            if case .sync(.collectionGone) = error, !options.dryRun { try storage.noteCollectionGone(account) }
            guard let run = started, case let .sync(failure) = error, let done = run.done else { throw error }
            throw .sync(.interrupted(failure, done: done))
        }
    }
}

/// What one `carnet sync` has seen so far, for the held deletions (`HeldDeletion`).
private struct SyncSeen {
    /// The linked books (their accounts) it synced.
    var books: Set<Int64> = []
    /// The UIDs of cards those books' collections have while the file has their contact in
    /// another book.
    var waiting: Set<String> = []
}

/// One sync, inside its transaction.
private final class SyncRun {
    let here: SyncTransaction
    let client: CardDAVClient
    let options: SyncOptions
    let progress: ((SyncProgress) -> Void)?
    var report = SyncReport()
    /// Cards not taken before (and not skipped), fetched again by this sync.
    var retried: [String] = []
    /// Cards this sync could not take.
    var noted: Set<String> = []
    /// When each card not taken before was first found not taken.
    var notTakenSince: [String: Date] = [:]
    /// The UIDs of cards here whose contact is in another book (moved between collections by another client).
    var waitingUIDs: [String] = []
    /// What the `carnet sync` this sync is part of has seen before it.
    var seen = SyncSeen()
    /// Hrefs of this collection whose deletion is held (see `HeldDeletion`): their contacts are
    /// not sent here meanwhile, their card may be in another book's collection now.
    private var held: Set<String> = []
    /// The other linked books, read once by the first deletion this sync applies.
    private var otherAccounts: [SyncAccount]?

    init(_ here: SyncTransaction, client: CardDAVClient, options: SyncOptions, progress: ((SyncProgress) -> Void)?) {
        self.here = here
        self.client = client
        self.options = options
        self.progress = progress
        report.server = here.account.host
        report.book = here.account.bookName
        report.dryRun = options.dryRun
    }

    /// Uploads between two commits of their links.
    static let uploadsPerCommit = 200

    /// The token the server's changes are applied up to.
    private var token: String?
    /// Hrefs the server listed as deleted in the listing being applied.
    private var removedThere: Set<String> = []
    /// Hrefs found gone from the server while applying (a card's old place after a move).
    private var goneThere: [String: Bool] = [:]
    /// Times this sync may still ask again (the profile's `catchUps`, set once it is recognised).
    private var catchUpsLeft = 0
    /// Hrefs of the new cards this sync put on the server.
    private var createdHere: Set<String> = []
    /// What must be durable here before the next request that writes to the server: the
    /// server's changes, and any clash recorded since the last commit.
    private var commitBeforeWriting = false
    /// The report as of the last commit (what is durable here).
    private var committedReport: SyncReport?

    func run() throws {
        progress?(SyncProgress(.listing))
        token = here.account.syncToken
        try client.recognise(token: token)
        catchUpsLeft = client.profile.catchUps
        try relinkBroughtBack()
        try applyChanges(try remoteChanges(since: token, retrying: true))
        held = try Self.settleHeldDeletions(here, seen: seen, report: &report)
        // A group a merge changed before merges saved their groups as changed is sent now.
        try here.resendGroupsNamingMergedUIDs()
        // What the server's changes did here is made durable before the first request that
        // writes there (one that sends nothing commits once, at its end; one that brought
        // nothing keeps the file as it was until it has sent something).
        if report.down > 0 { commitBeforeWriting = true }
        try sendDeletions()
        try sendContacts()
        try here.finish(report: report)
    }

    private func commit() throws {
        try here.commit(report: report)
        committedReport = report
        commitBeforeWriting = false
    }

    /// What a sync stopped partway had done, for its error: nil when it had done nothing.
    var done: String? {
        let kept = here.committed ? committedReport ?? SyncReport() : SyncReport()
        var parts: [String] = []
        if kept.down > 0 { parts.append("\(kept.down) change\(kept.down == 1 ? "" : "s") from the server kept here (carnet undo takes them back)") }
        if !kept.clashes.isEmpty { parts.append("\(kept.clashes.count) conflict\(kept.clashes.count == 1 ? "" : "s") kept (carnet sync status)") }
        if report.up > 0 { parts.append("\(report.up) change\(report.up == 1 ? "" : "s") sent") }
        guard !parts.isEmpty || here.committed else { return nil }
        return parts.isEmpty ? "nothing from the server to keep here, nothing sent" : parts.joined(separator: ", ")
    }

    /// Hrefs of the cards whose contacts an undo brought back, linked again by this sync.
    private var relinked: Set<String> = []

    /// Links each contact an undo brought back (from its deletion, or its book's) to its card
    /// there again, with the card as last synced as the base: what the server changed meanwhile
    /// merges as any change, never as a clash of two sides with nothing in common. One that
    /// differs from that card goes up as a change; one whose card is gone there goes up as new.
    private func relinkBroughtBack() throws {
        for (tombstone, base, contact) in try here.broughtBack() {
            let agrees = Self.draft(of: base) == contact.draft
            try here.removeTombstone(href: tombstone.href)
            try here.setLink(contactID: contact.id, href: tombstone.href, etag: tombstone.etag, card: base, syncedVersion: agrees ? contact.version : -1)
            relinked.insert(tombstone.href)
        }
    }

    // MARK: Down

    private func applyChanges(_ changes: RemoteChanges) throws {
        removedThere = Set(changes.removed)
        try download(changes.changed)
        for href in changes.removed { try applyRemoteDeletion(href) }
        token = changes.token
        try here.saveToken(changes.token)
    }

    /// Asks the server again what changed since this sync's listing (everything, `complete`)
    /// and applies it: how an upload finds where its card went. False when it may not ask again.
    private func catchUp(complete: Bool = false) throws -> Bool {
        guard catchUpsLeft > 0 else { return false }
        catchUpsLeft -= 1
        try applyChanges(try remoteChanges(since: complete ? nil : token))
        return true
    }

    /// What to fetch and what the server deleted, without what this side already has.
    /// `retrying`: with the cards not taken before (once a sync, at its first listing).
    private func remoteChanges(since token: String?, retrying: Bool = false) throws -> RemoteChanges {
        var changes: RemoteChanges
        if let listed = try client.changes(since: token) {
            changes = listed
            report.incremental = !listed.complete
        } else {
            changes = try client.listing()
        }
        var wanted: [(href: String, etag: String)] = []
        for item in changes.changed {
            if let link = try here.link(href: item.href), link.etag == item.etag { continue }
            if let tombstone = try here.tombstone(href: item.href), tombstone.etag == item.etag { continue }
            wanted.append(item)
        }
        if changes.complete {
            // A whole listing: what this side links and the server no longer lists is gone there.
            let listed = Set(changes.changed.map(\.href))
            changes.removed = try here.linkedETags().keys.filter { !listed.contains($0) }.sorted()
            for tombstone in try here.tombstones() where !listed.contains(tombstone.href) {
                try here.removeTombstone(href: tombstone.href)
            }
        }
        // Cards not taken before: the token has moved past them, so they are fetched again every
        // time, and named until they sync, are gone there, or the user skips them.
        if retrying {
            let notTaken = try here.cardsNotSynced().filter { !$0.skipped }
            retried = notTaken.map(\.href)
            notTakenSince = Dictionary(notTaken.compactMap { card in card.firstSeen.map { (card.href, $0) } }, uniquingKeysWith: min)
            let asked = Set(wanted.map(\.href))
            wanted += retried.filter { !asked.contains($0) }.map { ($0, "") }
        }
        changes.changed = wanted
        return changes
    }

    private func download(_ wanted: [(href: String, etag: String)]) throws {
        var done = 0
        var start = 0
        while start < wanted.count {
            let batch = wanted[start..<min(start + options.batchSize, wanted.count)].map(\.href)
            start += batch.count
            for card in try client.cards(batch) {
                try applyRemote(card)
                if !noted.contains(card.href) { try here.forgetCardNotSynced(href: card.href) }
            }
            done += batch.count
            progress?(SyncProgress(.downloading, done: done, total: wanted.count))
        }
        // Not taken before, and neither taken nor refused now: gone from the server.
        for href in retried where !noted.contains(href) { try here.forgetCardNotSynced(href: href) }
    }

    /// A card that cannot be taken: named in the report (unless the user said to skip it) and
    /// remembered, so every sync tries it again.
    private func notSynced(_ href: String, _ reason: String) throws {
        noted.insert(href)
        if try !here.noteCardNotSynced(href: href, reason: reason) { report.skipped.append("\(href): \(reason)") }
    }

    /// The card's record, or nil (and a line in the report) when it cannot be read.
    private func read(_ card: RemoteCard) throws -> InterchangeRecord? {
        let record: InterchangeRecord?
        do {
            record = try VCardReader.parse(card.text).first
        } catch {
            try notSynced(card.href, "\(error)")
            return nil
        }
        if record == nil { try notSynced(card.href, "no vCard in it") }
        return record
    }

    private static func draft(of card: String) -> ContactDraft? {
        (try? VCardReader.parse(card).first).map { $0.draft.normalized() }
    }

    private func applyRemote(_ card: RemoteCard) throws {
        guard let record = try read(card) else { return }
        let sent = record.draft.normalized()
        let theirs = try here.resolvingMergedMembers(sent)
        try apply(card, record: record, theirs: theirs)
        // A group that names a contact merged away here goes back naming the one it became.
        if theirs != sent { try here.resend(href: card.href) }
    }

    private func apply(_ card: RemoteCard, record: InterchangeRecord, theirs: ContactDraft) throws {
        do {
            if let link = try here.link(href: card.href), let contact = try here.contact(id: link.contactID) {
                try applyLinked(card, theirs: theirs, to: contact, link: link)
                return
            }
            let uid = record.uid ?? Self.uid(fromHref: card.href)
            if let contact = try here.contact(uid: uid) {
                if let other = try here.link(contactID: contact.id), other.href != card.href {
                    // Its UID is a contact's synced at another href: moved there when the old
                    // href is gone (then the link follows it), else two cards of one UID.
                    guard try isGone(other.href) else {
                        if createdHere.contains(other.href) {
                            try takeOver(card, theirs: theirs, from: other, contact: contact)
                        } else {
                            try notSynced(card.href, "the same UID as \(other.href), which \(contact.name) is synced with")
                        }
                        return
                    }
                    try applyLinked(card, theirs: theirs, to: contact, link: other)
                    return
                }
                // Never synced together (the same contact imported on both sides, or a sync
                // that stopped after sending it): merged against nothing, so each side's fields
                // are kept, and a field both filled differently is a clash no side wins yet.
                try merge(contact, base: ContactDraft(), theirs: theirs, card: card, unsettled: true)
                return
            }
            if let moved = try here.heldContact(uid: uid) {
                try follow(card, theirs: theirs, moved: moved)
                return
            }
            if let other = try here.otherBookCard(uid: uid) {
                // Another client moved it there while this file still has it in another book, or
                // copied it: a UID names one contact here. Once that book has synced and still
                // has its card (else the contact would be held), or when it syncs with no
                // collection, it is a copy: a contact of its own, as `carnet copy` makes one.
                guard isCopy(card.href, of: other) else {
                    let what = other.isGroup ? "a group's" : "a contact's"
                    try notSynced(
                        card.href, "its UID \(uid) is \(what) in the address book \(other.book); it is taken once that book has synced")
                    waitingUIDs.append(uid)
                    return
                }
                try takeCopy(card, record: record, theirs: theirs)
                return
            }
            // A card edited there that was deleted here: the edit wins, nothing is lost.
            try here.removeTombstone(href: card.href)
            _ = try here.insertContact(uid: uid, draft: theirs, updatedAt: record.updatedAt, href: card.href, etag: card.etag, card: card.text)
            report.added += 1
        } catch let error as CarnetError {
            guard case .invalid = error else { throw error }
            try notSynced(card.href, "\(error)")
        }
    }

    /// Whether the card at `href`, whose UID is the contact's of another book (`other`), is
    /// another client's copy rather than a move: that book syncs with no collection, or has
    /// synced (in this `carnet sync`, or since the card was first found here) and kept its card.
    private func isCopy(_ href: String, of other: OtherBookCard) -> Bool {
        guard let account = other.account else { return true }
        if seen.books.contains(account.id) { return true }
        guard let since = notTakenSince[href], let last = account.lastSyncAt else { return false }
        return last > since
    }

    /// Another client's copy of a card of another book: a new contact with a UID of its own,
    /// linked to the copy until its upload puts it there as a card of that UID (see `send`).
    private func takeCopy(_ card: RemoteCard, record: InterchangeRecord, theirs: ContactDraft) throws {
        _ = try here.insertContact(
            uid: UUID().uuidString.lowercased(), draft: theirs, updatedAt: record.updatedAt, href: card.href, etag: card.etag, card: card.text)
        try here.resend(href: card.href)
        report.added += 1
    }

    /// A card whose contact is linked to it (or to where it was before a move): taken when only
    /// the server changed it, merged against the card as last synced when both did.
    private func applyLinked(_ card: RemoteCard, theirs: ContactDraft, to contact: Contact, link: SyncLink) throws {
        if contact.version == link.syncedVersion {
            let saved = try here.updateContact(contact, with: theirs)
            if saved.version != contact.version { report.updated += 1 }
            try here.setLink(contactID: contact.id, href: card.href, etag: card.etag, card: card.text, syncedVersion: saved.version)
        } else {
            try merge(contact, base: Self.draft(of: link.card) ?? ContactDraft(), theirs: theirs, card: card)
        }
    }

    /// A card another client moved here from the collection of the book `moved` is in (where
    /// its card is gone): the contact follows it to this book, keeping its id, UID and favorite.
    /// The card it had there is what both sides changed since: a change made here meanwhile
    /// merges with theirs, as any edit does.
    private func follow(_ card: RemoteCard, theirs: ContactDraft, moved: HeldContact) throws {
        // A card this file cannot take leaves the contact where it is (a merge keeps this side's draft).
        if moved.contact.version == moved.link.syncedVersion { _ = try theirs.validated() }
        let contact = try here.moveContact(moved.contact, toBookID: here.account.bookID)
        try here.release(moved)
        report.moved.append(SyncMove(name: contact.name, from: moved.book, to: here.account.bookName))
        if moved.contact.version == moved.link.syncedVersion {
            let saved = try here.updateContact(contact, with: theirs)
            try here.setLink(contactID: contact.id, href: card.href, etag: card.etag, card: card.text, syncedVersion: saved.version)
        } else {
            try merge(contact, base: Self.draft(of: moved.link.card) ?? ContactDraft(), theirs: theirs, card: card)
        }
    }

    /// Another client's card of the UID of a contact this sync has just sent as new (`ours`),
    /// on a server that stored both: the two are one contact. Theirs came first and stays, the
    /// contact is merged with it (each side's fields kept; where both filled one differently,
    /// this file's value wins and theirs is kept in the conflicts) and the card this sync made
    /// is deleted (after the merge is committed, so a stop between the two leaves two cards,
    /// which the next sync names, never a lost field); the merge is sent over theirs.
    private func takeOver(_ card: RemoteCard, theirs: ContactDraft, from ours: SyncLink, contact: Contact) throws {
        try merge(contact, base: ContactDraft(), theirs: theirs, card: card)
        try commit()
        createdHere.remove(ours.href)
        switch try client.delete(ours.href, etag: ours.etag) {
        case .deleted, .notFound: break
        case .preconditionFailed, .refused:
            report.skipped.append("\(ours.href): the same UID as \(card.href), which \(contact.name) is synced with")
        }
    }

    /// Whether the server no longer has a card at `href`: listed as deleted, or not there when asked.
    private func isGone(_ href: String) throws -> Bool {
        if removedThere.contains(href) { return true }
        if let known = goneThere[href] { return known }
        let gone = try client.cards([href]).isEmpty
        goneThere[href] = gone
        return gone
    }

    /// Both sides changed `contact` since `base`: field by field, what only one side changed
    /// is taken from it; a field both changed differently goes to the preferred side, and the
    /// other side's card is kept in the file's conflicts. The link then records the server's
    /// card; if the merge differs from it, the contact is left pending, to be sent.
    ///
    /// `unsettled`: no base tells which side changed a field both hold differently; this file's
    /// value stays here, the server's there, and the contact is not sent until the conflict is
    /// settled (`carnet sync take`), whichever side `--prefer` names.
    private func merge(_ contact: Contact, base: ContactDraft, theirs: ContactDraft, card: RemoteCard, unsettled: Bool = false) throws {
        let preferTheirs = !unsettled && options.prefer == .remote
        let (merged, clashes) = DraftMerge.merge(
            base: base, theirs: theirs, mine: contact.draft, preferTheirs: preferTheirs, phones: try here.phoneNormalForm())
        if !clashes.isEmpty {
            let lost = preferTheirs ? VCardWriter.card(contact: contact, version: .v3) : card.text
            try keep(SyncClash(
                uid: contact.uid, name: contact.name, fields: clashes, kept: preferTheirs ? .remote : .local, lostCard: lost,
                unsettled: unsettled))
        }
        var saved = contact
        do {
            saved = try here.updateContact(contact, with: merged)
        } catch let error as CarnetError {
            // A merge that breaks a rule (two preferred entries from two sides): keep this side's
            // draft whole; the server's card is in the conflicts.
            guard case .invalid = error else { throw error }
            try keep(SyncClash(
                uid: contact.uid, name: contact.name, fields: theirs.differences(from: contact.draft), kept: .local, lostCard: card.text))
        }
        if saved.version != contact.version { report.updated += 1 }
        report.merged += 1
        let agrees = saved.draft == theirs
        try here.setLink(contactID: contact.id, href: card.href, etag: card.etag, card: card.text, syncedVersion: agrees ? saved.version : -1)
    }

    /// Keeps a clash's losing side in the file and the report; it is made durable before the
    /// next request that writes to the server.
    private func keep(_ clash: SyncClash) throws {
        try here.recordClash(clash)
        report.clashes.append(clash)
        commitBeforeWriting = true
    }

    private func applyRemoteDeletion(_ href: String) throws {
        try here.removeTombstone(href: href)
        try here.forgetCardNotSynced(href: href, keepingHeld: true)
        guard let link = try here.link(href: href), let contact = try here.contact(id: link.contactID) else { return }
        let others = try otherAccounts ?? here.otherAccounts()
        otherAccounts = others
        if contact.bookID != here.account.bookID {
            // Moved here to another book: it lives on there; only its link to this collection goes.
            try here.removeLink(contactID: contact.id)
        } else if relinked.contains(href) {
            // Brought back here by an undo, which wins over the deletion there: it goes up again as new.
            try here.removeLink(contactID: contact.id)
        } else if !others.isEmpty {
            // Another client moving a card between two collections deletes it from one and puts
            // it in the other, which may sync before or after this one: the contact stays (not
            // sent here) until every other linked book has synced; the one that has its card then
            // takes it, else it is deleted (see `settleHeldDeletions`).
            try here.holdDeletion(href: href, of: contact, until: others.map(\.bookName))
            held.insert(href)
        } else if contact.version == link.syncedVersion {
            try here.deleteContact(contact, href: href)
            report.deleted += 1
        } else {
            // Deleted there, changed here: the change wins; the contact goes up again as new.
            try here.removeLink(contactID: contact.id)
        }
    }

    /// Settles this collection's held deletions that every other linked book has answered:
    /// each has synced since the card was found gone (or synced in this `carnet sync` without
    /// the card's UID), and none took the card. Then it was a deletion: the contact goes, or,
    /// changed here meanwhile, stays and goes up again as new (an edit wins over a deletion).
    /// A held deletion whose contact is gone, elsewhere, or linked again is forgotten. Returns
    /// the hrefs still held.
    @discardableResult
    static func settleHeldDeletions(_ here: SyncTransaction, seen: SyncSeen, report: inout SyncReport) throws -> Set<String> {
        let holds = try here.heldDeletions()
        guard !holds.isEmpty else { return [] }
        let others = try here.otherAccounts()
        var stillHeld: Set<String> = []
        for hold in holds {
            guard let id = hold.contactID, let contact = try here.contact(id: id), contact.bookID == here.account.bookID,
                  let link = try here.link(contactID: id), link.href == hold.href
            else {
                try here.forgetCardNotSynced(href: hold.href)
                continue
            }
            let answered = others.allSatisfy { other in
                if let last = other.lastSyncAt, last > hold.since { return true }
                return seen.books.contains(other.id) && !seen.waiting.contains(contact.uid)
            }
            guard answered else {
                stillHeld.insert(hold.href)
                continue
            }
            try here.forgetCardNotSynced(href: hold.href)
            if contact.version == link.syncedVersion {
                try here.deleteContact(contact, href: hold.href)
                report.deleted += 1
            } else {
                try here.removeLink(contactID: contact.id)
            }
        }
        return stillHeld
    }

    /// The UID a card says it has; nil when it names none or cannot be read.
    static func uid(ofCard card: String) -> String? {
        (try? VCardReader.parse(card).first)?.uid
    }

    static func uid(fromHref href: String) -> String {
        let name = href.split(separator: "/").last.map(String.init) ?? href
        return name.lowercased().hasSuffix(".vcf") ? String(name.dropLast(4)) : name
    }

    // MARK: Up

    private func sendDeletions() throws {
        for tombstone in try here.tombstones() {
            // Brought back here since (an undo): it is a contact again, linked again to its card
            // there when the server still has it (else sent again as new).
            if try here.contact(uid: tombstone.uid) != nil {
                try here.removeTombstone(href: tombstone.href)
                for card in try client.cards([tombstone.href]) { try applyRemote(card) }
                continue
            }
            if options.dryRun {
                report.deletedRemotely += 1
                continue
            }
            if commitBeforeWriting { try commit() }
            switch try client.delete(tombstone.href, etag: tombstone.etag) {
            case .deleted:
                report.deletedRemotely += 1
                try here.removeTombstone(href: tombstone.href)
            case .notFound:
                try here.removeTombstone(href: tombstone.href)
            case .preconditionFailed:
                // Changed there since: the change wins over the deletion, and comes back here.
                try here.removeTombstone(href: tombstone.href)
                for card in try client.cards([tombstone.href]) { try applyRemote(card) }
            case let .refused(status):
                report.skipped.append("\(tombstone.href): the server refused to delete it (\(status))")
            }
        }
    }

    private func sendContacts() throws {
        try sendPending()
        // A server that takes a second card of one UID may have been given another client's
        // card of a UID this sync just sent as new: ask again, merge such a card into the
        // contact (see ``applyRemote(_:)``) and send the merge.
        guard !createdHere.isEmpty, client.profile.storesDuplicateUIDs, try catchUp() else { return }
        try sendPending()
    }

    private func sendPending() throws {
        var after: Int64 = 0
        var sent = 0
        while true {
            let page = try here.pendingContacts(after: after, limit: 200)
            guard let last = page.last else { break }
            after = last.contact.id
            for (contact, link) in page {
                if let link, held.contains(link.href) { continue }
                try send(contact, link: link)
                sent += 1
                if sent % 50 == 0 { progress?(SyncProgress(.uploading, done: sent)) }
                if sent % Self.uploadsPerCommit == 0 { try commit() }
            }
        }
        if sent > 0 { progress?(SyncProgress(.uploading, done: sent)) }
    }

    /// Sends one contact: over its card there, or as a new card at an href made from its UID.
    private func send(_ contact: Contact, link: SyncLink?) throws {
        if options.dryRun {
            report.uploaded += 1
            return
        }
        var contact = contact
        var link = link
        for _ in 0..<client.profile.uploadAttempts {
            // A merge's losing values are in the file before the merge goes up.
            if commitBeforeWriting { try commit() }
            if let copied = link, copied.syncedVersion == -1, let uid = Self.uid(ofCard: copied.card), uid != contact.uid {
                // Another client's copy of a card of another book, taken here with a UID of its
                // own (`takeCopy`): a server may refuse a card's UID changed at its href (Radicale
                // does), so the copy goes from there and the contact goes up as a new card.
                switch try client.delete(copied.href, etag: copied.etag) {
                case .deleted, .notFound:
                    try here.removeLink(contactID: contact.id)
                    link = nil
                case .preconditionFailed:
                    // Changed there since: the change is merged into the contact, then tried again.
                    for card in try client.cards([copied.href]) { try applyRemote(card) }
                    try here.resend(href: copied.href)
                    guard let current = try here.contact(id: contact.id) else { return }
                    contact = current
                    link = try here.link(contactID: contact.id)
                    continue
                case let .refused(status):
                    report.skipped.append("\(contact.name): the server refused to delete \(copied.href), its copy of a card of another book (\(status))")
                    return
                }
            }
            let href = link?.href ?? client.collectionHref + VDir.fileName(uid: contact.uid)
            // In the version of the card there (4.0 stays 4.0), 3.0 for a new one but 4.0 for a
            // group in 4.0's form (see `sendsNewCardAsVCard4`), and in the order of its
            // properties there, so another client sees only the change.
            let version = link.flatMap { VCardVersion(of: $0.card) } ?? (client.sendsNewCardAsVCard4(contact.draft) ? .v4 : .v3)
            let written = VCardWriter.card(contact: contact, version: version == .v4 ? .v4 : .v3)
            let card = link.map { VCardWriter.card(written, orderedLike: $0.card) } ?? written
            switch try client.put(href, card: card, ifMatch: link.map(\.etag)) {
            case let .stored(etag):
                try here.setLink(contactID: contact.id, href: href, etag: etag, card: card, syncedVersion: contact.version)
                if link == nil { createdHere.insert(href) }
                report.uploaded += 1
                return
            case .preconditionFailed:
                // Someone else's version is there: fetch it, merge, and send the merge. None
                // there (If-Match fails on a card gone, see `preconditionFailedMayMeanGone`): as 404.
                if let theirs = try client.cards([href]).first {
                    try applyRemote(theirs)
                } else if link != nil, client.profile.preconditionFailedMayMeanGone {
                    try cardGone(contact)
                }
            case .notFound:
                try cardGone(contact)
            case .uidTaken:
                // Another card there has this UID: find it (everything the server has) and merge.
                guard try catchUp(complete: true), try here.link(contactID: contact.id) != nil else {
                    report.skipped.append("\(contact.name): the server has another card with its UID \(contact.uid) that this sync could not find")
                    return
                }
            case let .refused(status, reason):
                report.skipped.append("\(contact.name): the server refused it (\(status)\(reason.isEmpty ? "" : ": " + reason.prefix(100)))")
                return
            }
            guard let current = try here.contact(id: contact.id) else { return }
            contact = current
            link = try here.link(contactID: contact.id)
            // The merge is what the server has: nothing left to send.
            if let link, link.syncedVersion == contact.version { return }
        }
        report.skipped.append("\(contact.name): its card kept changing on the server; it is sent next time")
    }

    /// The card of a contact changed here is gone from its href: moved by another client (the
    /// server's changes since the listing say where, and relink it), or deleted there, when the
    /// change wins and the contact goes up as a new card.
    private func cardGone(_ contact: Contact) throws {
        if try catchUp(), let link = try here.link(contactID: contact.id), try held.contains(link.href) || !isGone(link.href) { return }
        try here.removeLink(contactID: contact.id)
    }
}
