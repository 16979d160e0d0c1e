import CarnetModels
import Foundation
import GRDB

extension StorageController {
    /// The favorites in the user's order; positions are 1, 2, 3… in that order.
    public func favorites() throws(CarnetError) -> [Favorite] {
        try read { db in try Self.fetchFavorites(db) }
    }

    static func fetchFavorites(_ db: Database) throws -> [Favorite] {
        let contacts = try fetchContacts(db, sql: """
            SELECT \(ContactRecord.selection(qualifiedBy: "c", kind: false)) FROM favorites f JOIN contacts c ON c.id = f.contact_id
            ORDER BY f.position, f.contact_id
            """)
        return contacts.enumerated().map { Favorite(contact: $1, position: $0 + 1) }
    }

    /// Marks a contact favorite, at `position` (1 is first) or at the end when nil. Favoriting a
    /// favorite again with a position moves it there; without one it changes nothing.
    /// Returns the favorites in their new order.
    @discardableResult
    public func addFavorite(contactID: Int64, at position: Int? = nil) throws(CarnetError) -> [Favorite] {
        let hasGroups = self.hasGroups
        return try recordedWrite { db, history in
            guard let name = try Self.contactName(db, contactID) else {
                throw CarnetError.notFound(.contact, id: contactID)
            }
            // A favorite is a person (a group card is no one to call).
            if hasGroups { try Self.refuseGroup(db, id: contactID, name: name, "a favorite is a contact") }
            var order = try Self.favoriteOrder(db)
            if let index = order.firstIndex(of: contactID) {
                guard let position else { return try Self.fetchFavorites(db) }
                try Self.checkPosition(position, count: order.count)
                history.note = HistoryNote(.moveFavorite, subject: name, "moved \(name) to favorite \(position)")
                order.remove(at: index)
                order.insert(contactID, at: position - 1)
            } else {
                let position = position ?? order.count + 1
                try Self.checkPosition(position, count: order.count + 1)
                history.note = HistoryNote(.favorite, subject: name, "favorited \(name) at \(position)")
                try FavoriteRecord(contactID: contactID, position: position, createdAt: Timestamp.string(Timestamp.now())).insert(db)
                order.insert(contactID, at: position - 1)
            }
            try Self.renumber(db, order)
            return try Self.fetchFavorites(db)
        }
    }

    /// Moves a favorite to `position` (1 is first). Returns the favorites in their new order.
    @discardableResult
    public func moveFavorite(contactID: Int64, to position: Int) throws(CarnetError) -> [Favorite] {
        try recordedWrite { db, history in
            var order = try Self.favoriteOrder(db)
            guard let index = order.firstIndex(of: contactID) else { throw CarnetError.notFound(.favorite, id: contactID) }
            try Self.checkPosition(position, count: order.count)
            let name = try Self.contactName(db, contactID) ?? "contact \(contactID)"
            history.note = HistoryNote(.moveFavorite, subject: name, "moved \(name) to favorite \(position)")
            order.remove(at: index)
            order.insert(contactID, at: position - 1)
            try Self.renumber(db, order)
            return try Self.fetchFavorites(db)
        }
    }

    /// Removes a contact from the favorites (the contact stays). Returns the favorites left.
    @discardableResult
    public func removeFavorite(contactID: Int64) throws(CarnetError) -> [Favorite] {
        try recordedWrite { db, history in
            let name = try Self.contactName(db, contactID) ?? "contact \(contactID)"
            history.note = HistoryNote(.unfavorite, subject: name, "unfavorited \(name)")
            try db.execute(sql: "DELETE FROM favorites WHERE contact_id = ?", arguments: [contactID])
            if db.changesCount == 0 {
                guard let contact = try Self.fetchContact(db, id: contactID) else { throw CarnetError.notFound(.contact, id: contactID) }
                if contact.kind == .group {
                    throw CarnetError.groupIsNotAContact(id: contactID, name: contact.name, "a group is never a favorite")
                }
                throw CarnetError.notFound(.favorite, id: contactID)
            }
            try Self.renumber(db, try Self.favoriteOrder(db))
            return try Self.fetchFavorites(db)
        }
    }

    /// A contact's name, for the history's summaries; nil when there is no such contact.
    static func contactName(_ db: Database, _ id: Int64) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT name FROM contacts WHERE id = ?"), arguments: [id])
    }

    private static func favoriteOrder(_ db: Database) throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT contact_id FROM favorites ORDER BY position, contact_id")
    }

    private static func checkPosition(_ position: Int, count: Int) throws {
        guard (1...max(count, 1)).contains(position) else {
            throw CarnetError.invalid([FieldIssue(.position, "favorite position must be between 1 and \(max(count, 1)) (got \(position))")])
        }
    }

    /// Writes positions 1…n in `order`, touching only the rows whose position changes.
    private static func renumber(_ db: Database, _ order: [Int64]) throws {
        let current = Dictionary(uniqueKeysWithValues: try FavoriteRecord.fetchAll(db).map { ($0.contactID, $0.position) })
        let update = try db.cachedStatement(sql: "UPDATE favorites SET position = ? WHERE contact_id = ?")
        for (index, id) in order.enumerated() where current[id] != index + 1 {
            try update.execute(arguments: [index + 1, id])
        }
    }
}
