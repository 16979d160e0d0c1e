import CarnetInterchange
import CarnetModels
import CarnetStorage
import Foundation

/// Two-way sync of a Carnet file with one CardDAV address book.
///
/// A sync is one write transaction here, recorded as one action of the history ("synced with
/// dav.example.com: 3 down, 1 up"), so it can be undone, and so a sync that fails or is killed
/// at any point leaves this file as it was. The server may by then have some of the uploads; the
/// next sync finds them (a card already at its href answers 412 to `If-None-Match: *`, and is
/// fetched and linked, not sent twice), so a rerun converges with no duplicates.
///
/// In order: ask what changed there (sync-collection with the last token, or every ETag when the
/// server has no token to give), fetch those cards in batches (addressbook-multiget), apply them
/// here (merging field by field where both sides changed), apply the server's deletions, send
/// this side's deletions (If-Match), then this side's new and changed contacts (If-None-Match: *
/// or If-Match; a 412 means fetch, merge, retry).
public final class CardDAVSync: AddressBookSyncing {
    private let storage: StorageController
    private let transport: HTTPTransport
    private let environment: [String: String]

    /// `environment` is where `CARNET_SYNC_PASSWORD` is looked for and what the password command runs with.
    public init(storage: StorageController, transport: HTTPTransport, environment: [String: String]) {
        self.storage = storage
        self.transport = transport
        self.environment = environment
    }

    /// `url` may name the user (`http://ada@host/…`): taken as `username` when that is empty.
    /// A password in it is refused (it would be stored and shown); `certificateAuthority` (PEM)
    /// is then the only CA this account's server is verified against, in every sync.
    public func setup(
        url text: String, username: String, passwordCommand: String, certificateAuthority: String? = nil
    ) throws(CarnetError) -> SyncSetup {
        let (url, username) = try SyncAccount.login(url: text, username: username)
        if let certificateAuthority, !SyncAccount.isPEMCertificate(certificateAuthority) {
            throw .sync(.tls(server: url.serverName, reason: "the CA given is not a PEM certificate (-----BEGIN CERTIFICATE-----)"))
        }
        let password = try Password.resolve(username: username, command: passwordCommand, environment: environment)
        let client = CardDAVClient(
            collection: url, username: username, password: password, transport: transport, certificateAuthority: certificateAuthority)
        let found = try client.discover(url)
        let account = try storage.saveSyncAccount(
            SyncAccount(
                collectionURL: found.collection.absoluteString, username: username, passwordCommand: passwordCommand,
                certificateAuthority: certificateAuthority))
        return SyncSetup(account: account, created: found.created)
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

    public func skipCard(_ reference: String) throws(CarnetError) -> CardNotSynced? {
        try storage.skipCardNotSynced(reference)
    }

    private static func readingLostCard(_ conflict: SyncConflict) -> SyncConflict {
        var conflict = conflict
        conflict.lost = (try? VCardReader.parse(conflict.clash.lostCard).first).map { $0.draft.normalized() }
        return conflict
    }

    public func sync(options: SyncOptions, progress: ((SyncProgress) -> Void)?) throws(CarnetError) -> SyncReport {
        guard let account = try storage.syncAccount(), let collection = URL(string: account.collectionURL) else {
            throw .sync(.notConfigured)
        }
        let password = try Password.resolve(username: account.username, command: account.passwordCommand, environment: environment)
        let client = CardDAVClient(
            collection: collection, username: account.username, password: password, transport: transport,
            certificateAuthority: account.certificateAuthority)
        return try storage.withSyncTransaction(account, dryRun: options.dryRun) { transaction in
            let run = SyncRun(transaction, client: client, options: options, progress: progress)
            try run.run()
            return run.report
        }
    }
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

    init(_ here: SyncTransaction, client: CardDAVClient, options: SyncOptions, progress: ((SyncProgress) -> Void)?) {
        self.here = here
        self.client = client
        self.options = options
        self.progress = progress
        report.server = here.account.host
        report.dryRun = options.dryRun
    }

    /// Attempts at sending one contact whose card keeps changing on the server meanwhile.
    static let attempts = 3

    func run() throws {
        progress?(SyncProgress(.listing))
        let changes = try remoteChanges()
        try download(changes.changed)
        for href in changes.removed { try applyRemoteDeletion(href) }
        try sendDeletions()
        try sendContacts()
        try here.finish(token: changes.token, report: report)
    }

    // MARK: Down

    /// What to fetch and what the server deleted, without what this side already has.
    private func remoteChanges() throws -> RemoteChanges {
        let token = here.account.syncToken
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
        retried = try here.cardsNotSynced().filter { !$0.skipped }.map(\.href)
        let asked = Set(wanted.map(\.href))
        wanted += retried.filter { !asked.contains($0) }.map { ($0, "") }
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
        let theirs = record.draft.normalized()
        do {
            if let link = try here.link(href: card.href), let contact = try here.contact(id: link.contactID) {
                if contact.version == link.syncedVersion {
                    let saved = try here.updateContact(contact, with: theirs)
                    if saved.version != contact.version { report.updated += 1 }
                    try here.setLink(contactID: contact.id, href: card.href, etag: card.etag, card: card.text, syncedVersion: saved.version)
                } else {
                    try merge(contact, base: Self.draft(of: link.card) ?? ContactDraft(), theirs: theirs, card: card)
                }
                return
            }
            let uid = record.uid ?? Self.uid(fromHref: card.href)
            if let contact = try here.contact(uid: uid) {
                if let other = try here.link(contactID: contact.id), other.href != card.href {
                    try notSynced(card.href, "the same UID as \(other.href), which \(contact.name) is synced with")
                    return
                }
                // Never synced together (the same contact imported on both sides, or a sync
                // that stopped after sending it): merged against nothing, so each side's fields
                // are kept and a field both filled differently is a clash.
                try merge(contact, base: ContactDraft(), theirs: theirs, card: card)
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

    /// Both sides changed `contact` since `base`: field by field, what only one side changed
    /// is taken from it; a field both changed differently goes to the preferred side, and the
    /// other side's card is kept in the file's conflicts. The link then records the server's
    /// card; if the merge differs from it, the contact is left pending, to be sent.
    private func merge(_ contact: Contact, base: ContactDraft, theirs: ContactDraft, card: RemoteCard) throws {
        var (merged, clashes) = DraftMerge.merge(base: base, theirs: theirs, mine: contact.draft)
        if !clashes.isEmpty {
            if options.prefer == .remote { for field in clashes { merged.take(field, from: theirs) } }
            let lost = options.prefer == .local ? card.text : VCardWriter.card(contact: contact, version: .v3)
            let clash = SyncClash(uid: contact.uid, name: contact.name, fields: clashes, kept: options.prefer, lostCard: lost)
            try here.recordClash(clash)
            report.clashes.append(clash)
        }
        var saved = contact
        do {
            saved = try here.updateContact(contact, with: merged)
        } catch let error as CarnetError {
            // A merge that breaks a rule (two preferred entries from two sides): keep this side's
            // draft whole; the server's card is in the conflicts.
            guard case .invalid = error else { throw error }
            let clash = SyncClash(
                uid: contact.uid, name: contact.name, fields: theirs.differences(from: contact.draft), kept: .local, lostCard: card.text)
            try here.recordClash(clash)
            report.clashes.append(clash)
        }
        if saved.version != contact.version { report.updated += 1 }
        report.merged += 1
        let agrees = saved.draft == theirs
        try here.setLink(contactID: contact.id, href: card.href, etag: card.etag, card: card.text, syncedVersion: agrees ? saved.version : -1)
    }

    private func applyRemoteDeletion(_ href: String) throws {
        try here.removeTombstone(href: href)
        try here.forgetCardNotSynced(href: href)
        guard let link = try here.link(href: href), let contact = try here.contact(id: link.contactID) else { return }
        if contact.version == link.syncedVersion {
            try here.deleteContact(contact, href: href)
            report.deleted += 1
        } else {
            // Deleted there, changed here: the change wins; the contact goes up again as new.
            try here.removeLink(contactID: contact.id)
        }
    }

    static func uid(fromHref href: String) -> String {
        let name = href.split(separator: "/").last.map(String.init) ?? href
        return name.lowercased().hasSuffix(".vcf") ? String(name.dropLast(4)) : name
    }

    // MARK: Up

    private func sendDeletions() throws {
        for tombstone in try here.tombstones() {
            // Brought back here since (an undo): it is a contact again, sent again as one.
            if try here.contact(uid: tombstone.uid) != nil {
                try here.removeTombstone(href: tombstone.href)
                continue
            }
            if options.dryRun {
                report.deletedRemotely += 1
                continue
            }
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
        var after: Int64 = 0
        var sent = 0
        while true {
            let page = try here.pendingContacts(after: after, limit: 200)
            guard let last = page.last else { break }
            after = last.contact.id
            for (contact, link) in page {
                try send(contact, link: link)
                sent += 1
                if sent % 50 == 0 { progress?(SyncProgress(.uploading, done: sent)) }
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
        for _ in 0..<Self.attempts {
            let href = link?.href ?? client.collectionHref + VDir.fileName(uid: contact.uid)
            let card = VCardWriter.card(contact: contact, version: .v3)
            switch try client.put(href, card: card, ifMatch: link.map(\.etag)) {
            case let .stored(etag):
                try here.setLink(contactID: contact.id, href: href, etag: etag, card: card, syncedVersion: contact.version)
                report.uploaded += 1
                return
            case .preconditionFailed:
                // Someone else's version is there: fetch it, merge, and send the merge.
                guard let theirs = try client.cards([href]).first else {
                    if link != nil { try here.removeLink(contactID: contact.id) }
                    link = nil
                    continue
                }
                try applyRemote(theirs)
            case .notFound:
                // Deleted there while changed here: the change wins, sent as a new card.
                try here.removeLink(contactID: contact.id)
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
}
