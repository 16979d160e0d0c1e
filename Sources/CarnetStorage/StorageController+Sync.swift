import CarnetModels
import Foundation
import GRDB

/// A contact's place on the server: its href, the ETag of the card there, the card as it was
/// when both sides last agreed, and the contact's version then.
public struct SyncLink: Sendable, Equatable {
    public let contactID: Int64
    public let href: String
    public let etag: String
    public let card: String
    public let syncedVersion: Int
}

/// A card gone from its collection while other linked books may have it (another client's
/// move deletes it from one collection and puts it in another): its contact stays, linked to
/// where the card was, until every other linked book has synced since (`since`).
public struct HeldDeletion: Sendable, Equatable {
    public let href: String
    /// The contact linked to that href; nil once nothing is.
    public let contactID: Int64?
    /// When the sync that found it gone first saw that.
    public let since: Date
}

/// A contact of another book whose card is gone from that book's collection (`HeldDeletion`).
public struct HeldContact {
    public let contact: Contact
    /// Its link to the collection it left: the card as last synced there is the base of a merge.
    public let link: SyncLink
    /// The name of the book it is in.
    public let book: String
}

/// The contact of another book with the UID of a card a sync found (another client copied or
/// moved a card between collections).
public struct OtherBookCard {
    /// The name of the book it is in.
    public let book: String
    public let isGroup: Bool
    /// The account that book syncs with; nil when it syncs with none.
    public let account: SyncAccount?
}

/// A contact deleted here whose card the server still has.
public struct SyncTombstone: Sendable, Equatable {
    public let href: String
    public let etag: String
    public let uid: String
}

extension StorageController {
    private static let accountsSQL = """
        SELECT a.id, a.collection_url, a.username, a.password_command, a.sync_token, a.last_sync_at, a.ca_certificate, a.collection_gone_at,
               b.id AS book_id, b.name AS book_name
        FROM sync_accounts a JOIN address_books b ON b.id = a.book_id
        """

    private static func account(_ row: Row) -> SyncAccount {
        var account = SyncAccount(
            id: row["id"], collectionURL: row["collection_url"], username: row["username"], passwordCommand: row["password_command"],
            syncToken: row["sync_token"], lastSyncAt: (row["last_sync_at"] as String?).flatMap(Timestamp.date),
            certificateAuthority: row["ca_certificate"], bookID: row["book_id"])
        account.bookName = row["book_name"]
        account.collectionGoneAt = (row["collection_gone_at"] as String?).flatMap(Timestamp.date)
        return account
    }

    /// Every linked book's account: the default book's first, then by book name.
    static func fetchSyncAccounts(_ db: Database) throws -> [SyncAccount] {
        try Row.fetchAll(db, sql: accountsSQL + " ORDER BY b.is_default DESC, b.name, a.id").map(account)
    }

    static func fetchSyncAccount(_ db: Database) throws -> SyncAccount? {
        try fetchSyncAccounts(db).first
    }

    /// The collection the default book (or else the first linked book) syncs with, if any.
    public func syncAccount() throws(CarnetError) -> SyncAccount? {
        try read { db in try Self.fetchSyncAccount(db) }
    }

    /// Every linked book's account, the default book's first, then by book name.
    public func syncAccounts() throws(CarnetError) -> [SyncAccount] {
        try read { db in try Self.fetchSyncAccounts(db) }
    }

    /// Remembers `account` as the collection its book (`CarnetModels/SyncAccount/bookID`)
    /// syncs with. The same collection of the same book keeps what it knows (links, tombstones,
    /// token) and takes the new login; another one replaces the book's link, and a collection
    /// linked to another book before starts afresh: each first sync matches contacts by UID.
    @discardableResult
    public func saveSyncAccount(_ account: SyncAccount) throws(CarnetError) -> SyncAccount {
        try write { db in
            guard try Self.fetchBook(db, id: account.bookID) != nil else { throw CarnetError.unknownBook("#\(account.bookID)") }
            try db.execute(
                sql: "DELETE FROM sync_accounts WHERE (book_id = ? AND collection_url <> ?) OR (collection_url = ? AND book_id IS NOT ?)",
                arguments: [account.bookID, account.collectionURL, account.collectionURL, account.bookID])
            try db.execute(
                sql: """
                    INSERT INTO sync_accounts (collection_url, username, password_command, created_at, ca_certificate, book_id) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (collection_url) DO UPDATE SET username = excluded.username, password_command = excluded.password_command,
                        ca_certificate = excluded.ca_certificate, book_id = excluded.book_id
                    """,
                arguments: [
                    account.collectionURL, account.username, account.passwordCommand, Timestamp.string(Timestamp.now()),
                    account.certificateAuthority, account.bookID,
                ])
            guard let saved = try Row.fetchOne(db, sql: Self.accountsSQL + " WHERE a.collection_url = ?", arguments: [account.collectionURL])
                .map(Self.account)
            else { throw CarnetError.sync(.notConfigured) }
            return saved
        }
    }

    /// Sets the sync links of books `bookIDs` aside, before they are deleted: the account (its
    /// contacts' tombstones keep their cards as last synced) stays in the file, out of every
    /// sync, until an undo brings its book back (`bringSyncLinksBack(_:bookIDs:)`).
    static func setSyncLinksAside(_ db: Database, bookIDs: some Sequence<Int64>) throws {
        let statement = try db.cachedStatement(sql: "UPDATE sync_accounts SET deleted_book_id = book_id, book_id = NULL WHERE book_id = ?")
        for id in bookIDs { try statement.execute(arguments: [id]) }
    }

    /// Links the books of `bookIDs` that exist again to the collection each synced with when it
    /// was deleted (unless that collection was linked again since, or the book meanwhile).
    static func bringSyncLinksBack(_ db: Database, bookIDs: some Sequence<Int64>) throws -> [(id: Int64, book: RelinkedBook)] {
        var relinked: [(id: Int64, book: RelinkedBook)] = []
        for id in bookIDs {
            guard let name = try String.fetchOne(db.cachedStatement(sql: "SELECT name FROM address_books WHERE id = ?"), arguments: [id]) else {
                continue
            }
            guard try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM sync_accounts WHERE book_id = ?"), arguments: [id]) == nil,
                  let url = try String.fetchOne(
                    db.cachedStatement(sql: "SELECT collection_url FROM sync_accounts WHERE deleted_book_id = ? ORDER BY id DESC LIMIT 1"),
                    arguments: [id])
            else { continue }
            try db.cachedStatement(sql: "UPDATE sync_accounts SET book_id = ?, deleted_book_id = NULL WHERE collection_url = ?")
                .execute(arguments: [id, url])
            relinked.append((id, RelinkedBook(book: name, collectionURL: url)))
        }
        return relinked
    }

    /// Remembers that a sync of `account` found its collection gone from the server, for
    /// `carnet sync status` to say until a sync reaches it again.
    public func noteCollectionGone(_ account: SyncAccount) throws(CarnetError) {
        try write { db in
            try db.execute(
                sql: "UPDATE sync_accounts SET collection_gone_at = ? WHERE id = ?", arguments: [Timestamp.string(Timestamp.now()), account.id])
        }
    }

    /// The linked books' accounts that hold deletions (`HeldDeletion`) for a sync to settle.
    public func syncAccountsHoldingDeletions() throws(CarnetError) -> [SyncAccount] {
        try read { db in
            let ids = Set(try Int64.fetchAll(
                db, sql: "SELECT DISTINCT account_id FROM sync_cards_not_synced WHERE reason LIKE ? || '%'", arguments: [SyncTransaction.heldReason]))
            return try Self.fetchSyncAccounts(db).filter { ids.contains($0.id) }
        }
    }

    /// What waits to be sent, and the last conflicts; nil when no sync is set up.
    public func syncStatus(clashes: Int = 10) throws(CarnetError) -> SyncStatus? {
        try read { db in try Self.fetchSyncAccount(db).map { account in try Self.syncStatus(db, account, clashes: clashes) } }
    }

    /// `syncStatus(clashes:)` of every linked book.
    public func syncStatuses(clashes: Int = 10) throws(CarnetError) -> [SyncStatus] {
        try read { db in try Self.fetchSyncAccounts(db).map { account in try Self.syncStatus(db, account, clashes: clashes) } }
    }

    private static func syncStatus(_ db: Database, _ account: SyncAccount, clashes: Int) throws -> SyncStatus {
            let linked = try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_contacts WHERE account_id = ?", arguments: [account.id]) ?? 0
            let new = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM contacts c WHERE c.book_id = ? AND NOT EXISTS (SELECT 1 FROM sync_contacts s WHERE s.contact_id = c.id AND s.account_id = ?)",
                arguments: [account.bookID, account.id]) ?? 0
            let changed = try Int.fetchOne(
                db, sql: """
                    SELECT count(*) FROM sync_contacts s JOIN contacts c ON c.id = s.contact_id
                    WHERE s.account_id = ? AND c.book_id = ? AND s.synced_version <> c.version
                      AND NOT \(SyncTransaction.unsettledCondition)
                    """,
                arguments: [account.id, account.bookID, account.id]) ?? 0
            // Contacts deleted here, and those moved to another book: their cards go from this collection.
            let deletes = try Int.fetchOne(
                db, sql: """
                    SELECT (SELECT count(*) FROM sync_tombstones WHERE account_id = ?)
                         + (SELECT count(*) FROM sync_contacts s JOIN contacts c ON c.id = s.contact_id WHERE s.account_id = ? AND c.book_id <> ?)
                    """,
                arguments: [account.id, account.id, account.bookID]) ?? 0
            // The recent conflicts, and every unsettled one however old: each holds its contact back.
            let conflicts = try Row.fetchAll(
                db, sql: """
                    SELECT \(Self.conflictColumns) FROM sync_conflicts WHERE (account_id = ? OR account_id IS NULL)
                    AND (unsettled = 1 OR id IN (SELECT id FROM sync_conflicts WHERE account_id = ? OR account_id IS NULL ORDER BY id DESC LIMIT ?))
                    ORDER BY id DESC
                    """,
                arguments: [account.id, account.id, clashes]
            ).map { row in try Self.conflict(db, row) }
            let cards = try SyncTransaction.fetchCardsNotSynced(db, accountID: account.id)
            // Held in step, yet the server's card names a merged-away contact: one more to send.
            let stale = try Self.groupsNamingMergedUIDs(db, accountID: account.id)
            var status = SyncStatus(
                account: account, linked: linked, pendingNew: new, pendingChanged: changed + Set(stale.map(\.groupID)).count,
                pendingDeletes: deletes, conflicts: conflicts, cardsNotSynced: cards)
            status.groupsNamingMergedUIDs = stale
            return status
    }

    private static let conflictColumns = "id, time, uid, name, fields, kept, lost_card, unsettled"

    /// A `sync_conflicts` row, with the contact of its UID as it is now (the losing card unread).
    private static func conflict(_ db: Database, _ row: Row) throws -> SyncConflict {
        let clash = SyncClash(
            uid: row["uid"], name: row["name"],
            fields: (row["fields"] as String).split(separator: ",").compactMap { Field(rawValue: $0.trimmingCharacters(in: .whitespaces)) },
            kept: SyncPreference(rawValue: row["kept"]) ?? .local, lostCard: row["lost_card"], unsettled: row["unsettled"])
        return SyncConflict(
            id: row["id"], time: (row["time"] as String?).flatMap(Timestamp.date), clash: clash, contact: try fetchContact(db, uid: clash.uid))
    }

    /// Settles conflict `id` (see `SyncClash/unsettled`): its contact is sent by the next sync.
    /// Nothing changes for a conflict already settled, or none.
    public func settleSyncConflict(id: Int64) throws(CarnetError) {
        try write { db in try db.execute(sql: "UPDATE sync_conflicts SET unsettled = 0 WHERE id = ?", arguments: [id]) }
    }

    /// The conflict numbered `id` (the losing card unread); nil when there is none.
    public func syncConflict(id: Int64) throws(CarnetError) -> SyncConflict? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.conflictColumns) FROM sync_conflicts WHERE id = ?", arguments: [id])
                .map { row in try Self.conflict(db, row) }
        }
    }

    /// Marks the card not synced numbered `reference` (or at that href) as skipped: syncs no
    /// longer fetch or name it, unless it changes on the server. Nil when there is none.
    public func skipCardNotSynced(_ reference: String) throws(CarnetError) -> CardNotSynced? {
        try write { db in
            guard try Self.fetchSyncAccount(db) != nil else { throw CarnetError.sync(.notConfigured) }
            let id = Int64(reference) ?? -1
            guard let row = try Row.fetchOne(
                db, sql: "SELECT \(SyncTransaction.cardColumns) FROM sync_cards_not_synced WHERE id = ? OR href = ? ORDER BY id LIMIT 1",
                arguments: [id, reference])
            else { return nil }
            var card = SyncTransaction.cardNotSynced(row)
            try db.execute(sql: "UPDATE sync_cards_not_synced SET skipped = 1 WHERE id = ?", arguments: [card.id])
            card.skipped = true
            return card
        }
    }

    /// A stand-in error that rolls a dry run's transaction back once it has done everything.
    private struct SyncDryRun: Error {}

    /// A dry run's result, kept while its transaction rolls back.
    private final class Outcome<T> {
        var value: T?
    }

    /// Runs a sync in write transactions, each recorded as one action of the history. The sync
    /// starts in one; `SyncTransaction/commit(report:)` makes what it did so far durable and
    /// goes on in a new one (before the sync sends anything to the server, so what a merge
    /// overrode is in the file however the sync ends). What `body` does after its last commit
    /// is kept only if it returns; a dry run keeps nothing (its commits are no-ops). The file
    /// stays locked for writing within each transaction while `body` talks to the server, so no
    /// edit slips in between the read of a contact and the write of the server's version over it.
    public func withSyncTransaction<T>(
        _ account: SyncAccount, dryRun: Bool, _ body: @escaping (SyncTransaction) throws -> T
    ) throws(CarnetError) -> T {
        let outcome = Outcome<T>()
        let environment = self.options.environment
        do {
            defer { feed.poke() }
            return try writer.writeWithoutTransaction { db in
                let transaction = try SyncTransaction(db, account: account, dryRun: dryRun, indexing: indexesOtherWriters, environment: environment)
                do {
                    let result = try body(transaction)
                    if dryRun {
                        outcome.value = result
                        throw SyncDryRun()
                    }
                    try transaction.end()
                    return result
                } catch {
                    transaction.rollback()
                    throw error
                }
            }
        } catch is SyncDryRun {
            guard let value = outcome.value else { throw .database("a dry run lost its result") }
            return value
        } catch {
            throw ErrorMapping.map(error, path: path)
        }
    }
}

/// What a sync reads and writes here, inside `StorageController/withSyncTransaction(_:dryRun:_:)`
/// (the only place one exists): contacts, their links to the server, tombstones, conflicts.
public final class SyncTransaction {
    private let db: Database
    public let account: SyncAccount
    private let dryRun: Bool
    private var history: HistoryRecorder
    /// Whether a commit has made some of this sync durable (then a failure is not "nothing changed").
    public private(set) var committed = false

    private var phones: PhoneNormalForm?

    /// The form phone numbers are compared in, read once: a number the server's side
    /// reformatted is the same entry.
    public func phoneNormalForm() throws -> PhoneNormalForm {
        if let phones { return phones }
        let form = try StorageController.phoneRegionSetting(db, environment: environment).normalForm
        phones = form
        return form
    }

    private let environment: [String: String]

    fileprivate init(_ db: Database, account: SyncAccount, dryRun: Bool, indexing: Bool, environment: [String: String]) throws {
        self.db = db
        self.environment = environment
        self.account = account
        self.dryRun = dryRun
        try db.cachedStatement(sql: "BEGIN IMMEDIATE").execute()
        if indexing { try SearchIndex.catchUp(db) }
        history = try HistoryRecorder.start(db, enabled: !dryRun)
    }

    /// Makes what the sync did so far durable, as one action of the history named for `report`,
    /// and goes on in a new transaction. A dry run commits nothing.
    public func commit(report: SyncReport) throws {
        guard !dryRun else { return }
        note(report)
        try end()
        committed = true
        try db.cachedStatement(sql: "BEGIN IMMEDIATE").execute()
        history = try HistoryRecorder.start(db)
    }

    fileprivate func end() throws {
        try history.end()
        try db.cachedStatement(sql: "COMMIT").execute()
    }

    fileprivate func rollback() {
        history.discard()
        if db.isInsideTransaction { try? db.rollback() }
    }

    private func note(_ report: SyncReport) {
        let moves = report.movesDescription
        history.note = HistoryNote(.sync, subject: account.host, "synced with \(account.host): \(report.counts)" + (moves.isEmpty ? "" : "; " + moves))
    }

    private static let linkColumns = "contact_id, href, etag, card, synced_version"

    private static func link(_ row: Row) -> SyncLink {
        SyncLink(contactID: row["contact_id"], href: row["href"], etag: row["etag"], card: row["card"], syncedVersion: row["synced_version"])
    }

    public func link(href: String) throws -> SyncLink? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT \(Self.linkColumns) FROM sync_contacts WHERE account_id = ? AND href = ?"),
            arguments: [account.id, href]
        ).map(Self.link)
    }

    public func link(contactID: Int64) throws -> SyncLink? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT \(Self.linkColumns) FROM sync_contacts WHERE account_id = ? AND contact_id = ?"),
            arguments: [account.id, contactID]
        ).map(Self.link)
    }

    /// Every linked href with its ETag (for the ETag comparison when the server has no sync-token).
    public func linkedETags() throws -> [String: String] {
        var etags: [String: String] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT href, etag FROM sync_contacts WHERE account_id = ?", arguments: [account.id])
        while let row = try rows.next() { etags[row["href"]] = row["etag"] }
        return etags
    }

    public func contact(id: Int64) throws -> Contact? { try StorageController.fetchContact(db, id: id) }

    /// The contact of that UID in the synced book; one of another book is not this collection's.
    public func contact(uid: String) throws -> Contact? {
        try StorageController.fetchContact(db, uid: uid).flatMap { $0.bookID == account.bookID ? $0 : nil }
    }

    /// The contact of another book that has `uid` (a UID names one contact in the file): its
    /// book's name, whether it is a group, and the account that book syncs with, if any.
    public func otherBookCard(uid: String) throws -> OtherBookCard? {
        guard let row = try Row.fetchOne(
            db.cachedStatement(sql: """
                SELECT b.name, c.kind, a.id AS account_id FROM contacts c JOIN address_books b ON b.id = c.book_id
                LEFT JOIN sync_accounts a ON a.book_id = c.book_id
                WHERE c.uid = ? AND c.book_id <> ?
                """),
            arguments: [uid, account.bookID])
        else { return nil }
        let accountID: Int64? = row["account_id"]
        return OtherBookCard(
            book: row["name"], isGroup: row["kind"] == ContactKind.group.rawValue,
            account: try accountID.flatMap { id in try otherAccounts().first { $0.id == id } })
    }

    /// `draft` (a card from the server) with each member UID a merge took away named by the
    /// contact it was merged into (see `StorageController/contact(resolvingUID:)`).
    public func resolvingMergedMembers(_ draft: ContactDraft) throws -> ContactDraft {
        try StorageController.resolvingMergedMembers(db, draft)
    }

    /// Marks this collection's groups whose card as last synced names a contact merged away
    /// here as changed (see `StorageController.groupsNamingMergedUIDs`): this sync sends them.
    public func resendGroupsNamingMergedUIDs() throws {
        try StorageController.resendGroupsNamingMergedUIDs(db, accountID: account.id)
    }

    /// Marks the contact linked to the card at `href` as changed since the last sync, its link
    /// kept as the base of a merge: the next upload sends this file's version over that card.
    public func resend(href: String) throws {
        try db.cachedStatement(sql: "UPDATE sync_contacts SET synced_version = -1 WHERE account_id = ? AND href = ?")
            .execute(arguments: [account.id, href])
    }

    /// Up to `limit` contacts with ids above `afterID` that have something to send: never sent,
    /// or changed since the last sync. In id order, with their links.
    public func pendingContacts(after afterID: Int64, limit: Int) throws -> [(contact: Contact, link: SyncLink?)] {
        let ids = try Int64.fetchAll(
            db.cachedStatement(sql: """
                SELECT c.id FROM contacts c LEFT JOIN sync_contacts s ON s.contact_id = c.id AND s.account_id = ?
                WHERE c.id > ? AND c.book_id = ? AND (s.contact_id IS NULL OR s.synced_version <> c.version)
                  AND NOT \(Self.unsettledCondition) ORDER BY c.id LIMIT ?
                """),
            arguments: [account.id, afterID, account.bookID, account.id, limit])
        return try ids.compactMap { id in try contact(id: id).map { ($0, try link(contactID: id)) } }
    }

    /// The other linked books' accounts, read now (`SyncAccount/lastSyncAt` is when each last synced).
    public func otherAccounts() throws -> [SyncAccount] {
        try StorageController.fetchSyncAccounts(db).filter { $0.id != account.id }
    }

    // MARK: Held deletions

    /// How a held deletion's row in `sync_cards_not_synced` starts its reason: it is no card of
    /// the server's (those rows are fetched again by every sync), and is told apart by it.
    static let heldReason = "gone from this collection;"

    /// The card at `href`, linked to `contact`, is gone from the server, while `books` (the other
    /// linked books) may have it: the contact stays here, linked, until each has synced. The row
    /// says so in `carnet sync status`; its `first_seen` is when this was first seen.
    public func holdDeletion(href: String, of contact: Contact, until books: [String]) throws {
        let names = books.count <= 1 ? books.joined() : books.dropLast().joined(separator: ", ") + " and " + books[books.count - 1]
        let reason = "\(Self.heldReason) \(contact.name) is kept here until \(names) \(books.count == 1 ? "has" : "have") synced, in case another client moved it there"
        // A note of another kind at that href (a change there this file could not take) is moot: the card is gone.
        try db.cachedStatement(sql: "DELETE FROM sync_cards_not_synced WHERE account_id = ? AND href = ? AND reason NOT LIKE ? || '%'")
            .execute(arguments: [account.id, href, Self.heldReason])
        _ = try noteCardNotSynced(href: href, reason: reason)
    }

    /// This collection's held deletions, oldest first.
    public func heldDeletions() throws -> [HeldDeletion] {
        try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT n.href, n.first_seen, s.contact_id FROM sync_cards_not_synced n
                LEFT JOIN sync_contacts s ON s.account_id = n.account_id AND s.href = n.href
                WHERE n.account_id = ? AND n.reason LIKE ? || '%' ORDER BY n.id
                """),
            arguments: [account.id, Self.heldReason]
        ).map { row in
            HeldDeletion(href: row["href"], contactID: row["contact_id"], since: (row["first_seen"] as String?).flatMap(Timestamp.date) ?? .distantPast)
        }
    }

    /// The contact of `uid` in another book whose card is gone from that book's collection (a
    /// held deletion there): another client moved it, and this collection has its card now.
    public func heldContact(uid: String) throws -> HeldContact? {
        guard let row = try Row.fetchOne(
            db.cachedStatement(sql: """
                SELECT s.contact_id, s.href, s.etag, s.card, s.synced_version, b.name AS book_name
                FROM contacts c JOIN address_books b ON b.id = c.book_id
                JOIN sync_accounts a ON a.book_id = c.book_id
                JOIN sync_contacts s ON s.account_id = a.id AND s.contact_id = c.id
                JOIN sync_cards_not_synced n ON n.account_id = a.id AND n.href = s.href AND n.reason LIKE ? || '%'
                WHERE c.uid = ? AND c.book_id <> ?
                """),
            arguments: [Self.heldReason, uid, account.bookID])
        else { return nil }
        let link = Self.link(row)
        guard let contact = try contact(id: link.contactID) else { return nil }
        return HeldContact(contact: contact, link: link, book: row["book_name"])
    }

    /// `held` has followed its card to this collection: the book it left forgets its link to the
    /// card gone from there, and the held deletion.
    public func release(_ held: HeldContact) throws {
        try db.cachedStatement(sql: """
            DELETE FROM sync_cards_not_synced WHERE href = ? AND reason LIKE ? || '%'
                AND account_id IN (SELECT account_id FROM sync_contacts WHERE contact_id = ? AND href = ? AND account_id <> ?)
            """).execute(arguments: [held.link.href, Self.heldReason, held.contact.id, held.link.href, account.id])
        try db.cachedStatement(sql: "DELETE FROM sync_contacts WHERE contact_id = ? AND href = ? AND account_id <> ?")
            .execute(arguments: [held.contact.id, held.link.href, account.id])
    }

    /// The cards to delete on the server: those of contacts deleted here, and those of contacts
    /// moved here to another book (they go up to that book's collection, keeping their UID).
    public func tombstones() throws -> [SyncTombstone] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT href, etag, uid FROM sync_tombstones WHERE account_id = ?
                UNION ALL
                SELECT s.href, s.etag, c.uid FROM sync_contacts s JOIN contacts c ON c.id = s.contact_id WHERE s.account_id = ? AND c.book_id <> ?
                ORDER BY href
                """,
            arguments: [account.id, account.id, account.bookID]
        ).map { SyncTombstone(href: $0["href"], etag: $0["etag"], uid: $0["uid"]) }
    }

    /// The tombstones whose contact is back in this book (an undo brought it back) and not
    /// linked, with the card as last synced: each is linked again to its card there.
    public func broughtBack() throws -> [(tombstone: SyncTombstone, base: String, contact: Contact)] {
        try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT t.href, t.etag, t.uid, t.card, c.id FROM sync_tombstones t JOIN contacts c ON c.uid = t.uid AND c.book_id = ?
                WHERE t.account_id = ? AND t.card IS NOT NULL
                    AND NOT EXISTS (SELECT 1 FROM sync_contacts s WHERE s.account_id = t.account_id AND (s.contact_id = c.id OR s.href = t.href))
                ORDER BY t.href
                """),
            arguments: [account.bookID, account.id]
        ).compactMap { row in
            try contact(id: row["id"]).map { (SyncTombstone(href: row["href"], etag: row["etag"], uid: row["uid"]), row["card"], $0) }
        }
    }

    public func tombstone(href: String) throws -> SyncTombstone? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT href, etag, uid FROM sync_tombstones WHERE account_id = ? AND href = ?"),
            arguments: [account.id, href]
        ).map { SyncTombstone(href: $0["href"], etag: $0["etag"], uid: $0["uid"]) }
    }

    public func removeTombstone(href: String) throws {
        try db.cachedStatement(sql: "DELETE FROM sync_tombstones WHERE account_id = ? AND href = ?").execute(arguments: [account.id, href])
        // A contact moved to another book leaves this collection with its link.
        try db.cachedStatement(sql: """
            DELETE FROM sync_contacts WHERE account_id = ? AND href = ? AND contact_id IN (SELECT id FROM contacts WHERE book_id <> ?)
            """).execute(arguments: [account.id, href, account.bookID])
    }

    /// Adds a contact from the server (validated like any other) and links it.
    public func insertContact(uid: String, draft: ContactDraft, updatedAt: Date?, href: String, etag: String, card: String) throws -> Contact {
        let draft = try draft.validated()
        let issues = UIDRule.issues(uid)
        if !issues.isEmpty { throw CarnetError.invalid(issues) }
        let contact = try StorageController.insert(db, draft, uid: uid, now: Timestamp.now(), bookID: account.bookID)
        try setLink(contactID: contact.id, href: href, etag: etag, card: card, syncedVersion: contact.version)
        try history.checkpoint()
        return contact
    }

    /// Writes `draft` over `contact` (which this transaction read, under the write lock) and
    /// returns it as saved; an equal draft writes nothing.
    public func updateContact(_ contact: Contact, with draft: ContactDraft) throws -> Contact {
        let draft = try draft.validated()
        guard draft != contact.draft else { return contact }
        let now = Timestamp.now()
        guard try ContactRecord.update(
            db, id: contact.id, uid: contact.uid, expecting: contact.version, with: draft, replacing: contact.draft,
            updatedAt: Timestamp.string(now))
        else { throw CarnetError.deleted(.contact, id: contact.id) }
        try history.checkpoint()
        return Contact(
            id: contact.id, uid: contact.uid, draft: draft, createdAt: contact.createdAt, updatedAt: now, version: contact.version + 1,
            bookID: contact.bookID)
    }

    /// Deletes a contact the server deleted (its favorite goes too); it leaves no tombstone, the
    /// server has nothing left to delete.
    public func deleteContact(_ contact: Contact, href: String) throws {
        try SearchIndex.remove(db, id: contact.id)
        try db.cachedStatement(sql: "DELETE FROM contacts WHERE id = ?").execute(arguments: [contact.id])
        try removeTombstone(href: href)
        try history.checkpoint()
    }

    /// Moves `contact` (which this transaction read) to book `bookID`: another client moved its
    /// card from that book's collection to this one. It keeps its id and UID; returned as saved.
    @discardableResult
    public func moveContact(_ contact: Contact, toBookID bookID: Int64) throws -> Contact {
        let now = Timestamp.now()
        try db.cachedStatement(sql: "UPDATE contacts SET book_id = ?, version = version + 1, updated_at = ? WHERE id = ? AND version = ?")
            .execute(arguments: [bookID, Timestamp.string(now), contact.id, contact.version])
        guard db.changesCount == 1 else { throw CarnetError.deleted(.contact, id: contact.id) }
        try history.checkpoint()
        return Contact(
            id: contact.id, uid: contact.uid, draft: contact.draft, createdAt: contact.createdAt, updatedAt: now, version: contact.version + 1,
            bookID: bookID)
    }

    public func setLink(contactID: Int64, href: String, etag: String, card: String, syncedVersion: Int) throws {
        try db.cachedStatement(sql: """
            INSERT INTO sync_contacts (account_id, contact_id, href, etag, card, synced_version) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (account_id, contact_id) DO UPDATE SET href = excluded.href, etag = excluded.etag, card = excluded.card,
                synced_version = excluded.synced_version
            """)
            .execute(arguments: [account.id, contactID, href, etag, card, syncedVersion])
    }

    public func removeLink(contactID: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM sync_contacts WHERE account_id = ? AND contact_id = ?").execute(arguments: [account.id, contactID])
    }

    /// Keeps the losing side of a same-field clash (see `SyncClash`).
    public func recordClash(_ clash: SyncClash) throws {
        try db.cachedStatement(sql: "INSERT INTO sync_conflicts (account_id, time, uid, name, fields, kept, lost_card, unsettled) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
            .execute(arguments: [
                account.id, Timestamp.string(Timestamp.now()), clash.uid, clash.name, clash.fields.map(\.rawValue).joined(separator: ", "),
                clash.kept.rawValue, clash.lostCard, clash.unsettled,
            ])
    }

    /// What holds a contact `c` back from this account's uploads (one argument, the account's
    /// id): a conflict of its UID still unsettled (see `SyncClash/unsettled`).
    static let unsettledCondition = "EXISTS (SELECT 1 FROM sync_conflicts k WHERE k.account_id = ? AND k.uid = c.uid AND k.unsettled = 1)"

    // MARK: Cards not synced

    static let cardColumns = "id, href, reason, first_seen, last_seen, skipped"

    static func cardNotSynced(_ row: Row) -> CardNotSynced {
        CardNotSynced(
            id: row["id"], href: row["href"], reason: row["reason"], firstSeen: (row["first_seen"] as String?).flatMap(Timestamp.date),
            lastSeen: (row["last_seen"] as String?).flatMap(Timestamp.date), skipped: row["skipped"])
    }

    /// The server's cards this file could not take, skipped ones included (not the held
    /// deletions, which are cards gone from there).
    public func cardsNotSynced() throws -> [CardNotSynced] {
        try Self.fetchCardsNotSynced(db, accountID: account.id).filter { !$0.reason.hasPrefix(Self.heldReason) }
    }

    static func fetchCardsNotSynced(_ db: Database, accountID: Int64) throws -> [CardNotSynced] {
        try Row.fetchAll(
            db, sql: "SELECT \(cardColumns) FROM sync_cards_not_synced WHERE account_id = ? ORDER BY id", arguments: [accountID]
        ).map(cardNotSynced)
    }

    /// Remembers that the card at `href` could not be taken, and why; returns whether the user
    /// said to skip it (then it is not named).
    public func noteCardNotSynced(href: String, reason: String) throws -> Bool {
        let now = Timestamp.string(Timestamp.now())
        // The table's CHECKs count code points, as SQLite's length() does.
        let reason = reason.isEmpty ? "not taken" : String(String.UnicodeScalarView(reason.unicodeScalars.prefix(2000)))
        let href = String(String.UnicodeScalarView(href.unicodeScalars.prefix(2000)))
        try db.cachedStatement(sql: """
            INSERT INTO sync_cards_not_synced (account_id, href, reason, first_seen, last_seen) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (account_id, href) DO UPDATE SET reason = excluded.reason, last_seen = excluded.last_seen
            """)
            .execute(arguments: [account.id, href, reason, now, now])
        return try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT skipped FROM sync_cards_not_synced WHERE account_id = ? AND href = ?"),
            arguments: [account.id, href]) ?? false
    }

    /// The card at `href` synced, or is gone from the server: nothing left to name. `keepingHeld`:
    /// a held deletion there stays, with the time it was first seen (a server without tokens
    /// lists a card gone as gone again at every sync).
    public func forgetCardNotSynced(href: String, keepingHeld: Bool = false) throws {
        try db.cachedStatement(sql: "DELETE FROM sync_cards_not_synced WHERE account_id = ? AND href = ? AND (? = 0 OR reason NOT LIKE ? || '%')")
            .execute(arguments: [account.id, href, keepingHeld, Self.heldReason])
    }

    /// The server's token once every change it lists up to it is applied here.
    public func saveToken(_ token: String?) throws {
        try db.cachedStatement(sql: "UPDATE sync_accounts SET sync_token = ? WHERE id = ?").execute(arguments: [token, account.id])
    }

    /// What the history calls changes made here without asking the server (held deletions
    /// settled once the other books have synced); the time of the last sync stays.
    public func describe(report: SyncReport) {
        note(report)
    }

    /// The end of a complete sync: the time, and what the history calls it.
    public func finish(report: SyncReport) throws {
        try db.cachedStatement(sql: "UPDATE sync_accounts SET last_sync_at = ?, collection_gone_at = NULL WHERE id = ?")
            .execute(arguments: [Timestamp.string(Timestamp.now()), account.id])
        note(report)
    }
}
