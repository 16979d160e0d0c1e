import CarnetModels
import Foundation
import GRDB

/// What a file's sync state may hold that an earlier Carnet left wrong, for `carnet db check`,
/// `carnet sync status`, `carnet db repair` and the next sync: each named from the file alone,
/// and mended only where the file says what is right.
extension StorageController {
    /// The synced groups whose card as last sent names a contact merged away here, while the
    /// file says they are in step with the server: a merge made before Carnet saved a merge's
    /// groups as changed left the server's group naming a card that sync deleted. The file's
    /// group lists the contact it became; sending it mends the server. Of account `accountID`,
    /// or of every account.
    static func groupsNamingMergedUIDs(_ db: Database, accountID: Int64?) throws -> [GroupNamingMergedUID] {
        guard try db.tableExists("contact_uid_aliases") else { return [] }
        // A member is the value of a MEMBER (or X-ADDRESSBOOKSERVER-MEMBER) line, `urn:uuid:`
        // or not: it ends such a line, after a colon. The card is unfolded first (RFC 6350 3.2).
        return try Row.fetchAll(
            db.cachedStatement(sql: """
                WITH cards AS (
                    SELECT s.account_id, s.contact_id, replace(replace(s.card, char(13, 10, 32), ''), char(13, 10, 9), '') AS card
                    FROM sync_contacts s JOIN contacts g ON g.id = s.contact_id
                    WHERE g.kind = 'group' AND s.synced_version = g.version AND (?1 IS NULL OR s.account_id = ?1)
                )
                SELECT k.account_id, g.id, g.name, a.uid, c.name AS survivor
                FROM cards k JOIN contacts g ON g.id = k.contact_id, contact_uid_aliases a JOIN contacts c ON c.id = a.contact_id
                WHERE instr(k.card, ':' || a.uid || char(13)) > 0 OR instr(k.card, ':' || a.uid || char(10)) > 0
                ORDER BY k.account_id, g.name, g.id, a.uid
                """),
            arguments: [accountID]
        ).map { row in
            GroupNamingMergedUID(accountID: row["account_id"], groupID: row["id"], name: row["name"], mergedUID: row["uid"], survivor: row["survivor"])
        }
    }

    /// Marks each group `groupsNamingMergedUIDs(_:accountID:)` finds as changed since the last
    /// sync (its link kept as the base of a merge), so the next sync sends it. Returns them.
    @discardableResult
    static func resendGroupsNamingMergedUIDs(_ db: Database, accountID: Int64?) throws -> [GroupNamingMergedUID] {
        let found = try groupsNamingMergedUIDs(db, accountID: accountID)
        let mark = try db.cachedStatement(sql: "UPDATE sync_contacts SET synced_version = -1 WHERE account_id = ? AND contact_id = ?")
        for group in found { try mark.execute(arguments: [group.accountID, group.groupID]) }
        return found
    }

    /// The cards a sync holds back because their UID is a contact's of another book, when that
    /// book has synced since (or syncs with no collection) and kept the contact: not a move
    /// waiting to happen but another client's copy, which a Carnet before copies were taken
    /// named at every sync. The next sync of their book takes each as a contact of its own.
    static func copiesHeldBack(_ db: Database) throws -> [String] {
        var found: [String] = []
        let rows = try Row.fetchAll(db, sql: """
            SELECT n.href, n.reason, n.first_seen, b.name AS book, b.id AS book_id FROM sync_cards_not_synced n
            JOIN sync_accounts s ON s.id = n.account_id JOIN address_books b ON b.id = s.book_id
            WHERE n.skipped = 0 AND n.reason LIKE 'its UID % in the address book %; it is taken once that book has synced'
            ORDER BY n.id
            """)
        for row in rows {
            let reason: String = row["reason"]
            guard let start = reason.range(of: "its UID "), let end = reason.range(of: " is a ", range: start.upperBound..<reason.endIndex)
            else { continue }
            let uid = String(reason[start.upperBound..<end.lowerBound])
            let bookID: Int64 = row["book_id"]
            guard let other = try Row.fetchOne(db, sql: """
                SELECT c.name, b.name AS book, a.id AS account_id, a.last_sync_at FROM contacts c JOIN address_books b ON b.id = c.book_id
                LEFT JOIN sync_accounts a ON a.book_id = c.book_id
                WHERE c.uid = ? AND c.book_id <> ?
                """, arguments: [uid, bookID])
            else { continue }
            let firstSeen = (row["first_seen"] as String?).flatMap(Timestamp.date) ?? .distantFuture
            let lastSync = (other["last_sync_at"] as String?).flatMap(Timestamp.date)
            let syncsWithNone = (other["account_id"] as Int64?) == nil
            guard syncsWithNone || lastSync.map({ $0 > firstSeen }) == true else { continue }
            let name: String = other["name"], otherBook: String = other["book"], book: String = row["book"], href: String = row["href"]
            found.append(
                "the card \(href) of the address book \(book) is held back since \(Timestamp.string(firstSeen)) for \(name) of \(otherBook), "
                    + "which has its own card: another client copied it; the next carnet sync takes it as a contact of its own")
        }
        return found
    }

    /// `integrityCheck()`'s lines for what `groupsNamingMergedUIDs` and `copiesHeldBack` find.
    static func syncStateProblems(_ db: Database) throws -> [String] {
        guard try db.tableExists("sync_contacts") else { return [] }
        let accounts = Dictionary(try fetchSyncAccounts(db).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let groups = try groupsNamingMergedUIDs(db, accountID: nil).map { group in
            let book = accounts[group.accountID].map { " of the address book \($0.bookName) (\($0.host))" } ?? ""
            return "group \(group.groupID) (\(group.name))\(book): the server's card still names \(group.mergedUID), merged into \(group.survivor); "
                + "the next carnet sync sends the group naming \(group.survivor) (carnet db repair marks it to send)"
        }
        return groups + (try copiesHeldBack(db))
    }

    /// `repair()`'s part: each group `groupsNamingMergedUIDs` finds is marked to send.
    static func repairSyncState(_ db: Database) throws -> [String] {
        guard try db.tableExists("sync_contacts") else { return [] }
        return try resendGroupsNamingMergedUIDs(db, accountID: nil).map { group in
            "group \(group.groupID) (\(group.name)) is marked to send: the server's card names \(group.mergedUID), merged into \(group.survivor)"
        }
    }
}
