import CarnetModels
import Foundation
import GRDB

/// The finder of duplicates for a whole book, in memory that does not grow with the book.
///
/// Each contact is read once, in id order with its emails, phones and addresses, and each of its
/// block keys (`DuplicateFinder/blockKeys(_:phones:)`) is given as a 64-bit hash
/// (`DuplicateFinder/blockHashes(_:phones:into:)`) with the contact's id to a `PairSorter`,
/// which sorts them in runs of a fixed size, spilling to a temporary file. The sorted pairs are
/// walked once: a run of one hash is a block. Only the blocks small enough to say something are
/// kept, their members read again and their keys compared in full (two keys sharing a hash are
/// told apart there), and handed to `DuplicateCollector`. What is held is the blocks found, never the book.
enum DuplicateBlocks {
    static func find(
        _ db: Database, scope: DuplicateScope, differentPeople: Set<ContactPair>, phones: PhoneNormalForm,
        runLength: Int = PairSorter.defaultRunLength
    ) throws -> DuplicateSearch {
        let sorter = PairSorter(runLength: runLength)
        var contacts = 0
        var hashes: [Int64] = []
        try forEachCandidate(db, bookID: scope.bookID) { candidate in
            if let wanted = scope.contactIDs, !wanted.contains(candidate.id) { return }
            contacts += 1
            DuplicateFinder.blockHashes(candidate, phones: phones, into: &hashes)
            for hash in hashes { try sorter.add(hash, candidate.id) }
        }
        // The blocks of two members or more, up to their limit (a larger one says nothing).
        var blocks: [(hash: Int64, members: [Int64])] = []
        var current: (hash: Int64, members: [Int64])?
        func close() {
            guard let block = current, block.members.count > 1 else { return }
            let limit = block.hash & 1 == 1 ? DuplicateFinder.nearNameBlockLimit : DuplicateFinder.sharedKeyLimit
            if block.members.count <= limit { blocks.append(block) }
        }
        try sorter.sorted { hash, id in
            if current?.hash == hash {
                // One past the limit is enough to know the block is too large.
                if current!.members.count <= DuplicateFinder.nearNameBlockLimit { current!.members.append(id) }
            } else {
                close()
                current = (hash, [id])
            }
        }
        close()

        // The members of the blocks kept, read again a batch of blocks at a time, so what is held
        // is the groups found and their names, not every member's keys at once.
        var collector = DuplicateCollector(phones: phones)
        var names: [Int64: String] = [:]
        var start = 0
        while start < blocks.count {
            var end = start
            var ids = Set<Int64>()
            // At most a thousand ids (one block at least), so the batch is read by its ids and
            // never by a pass over the whole book (`duplicateCandidates`' rule).
            while end < blocks.count && (end == start || ids.count + blocks[end].members.count <= 1000) {
                ids.formUnion(blocks[end].members)
                end += 1
            }
            var members: [Int64: (candidate: DuplicateCandidate, keys: DuplicateFinder.BlockKeys)] = [:]
            for candidate in try StorageController.duplicateCandidates(db, scope: DuplicateScope(contactIDs: ids, bookID: scope.bookID)) {
                members[candidate.id] = (candidate, DuplicateFinder.blockKeys(candidate, phones: phones))
                names[candidate.id] = candidate.name
            }
            for block in blocks[start..<end] {
                let near = block.hash & 1 == 1
                // The block's members by the key itself, for a hash two keys may share.
                var byKey: [String: [Int64]] = [:]
                for id in block.members {
                    guard let member = members[id] else { continue }
                    for key in near ? member.keys.near : member.keys.exact where DuplicateFinder.blockHash(key, near: near) == block.hash {
                        byKey[key, default: []].append(id)
                    }
                }
                for (key, ids) in byKey.sorted(by: { $0.key < $1.key }) where ids.count > 1 {
                    if near {
                        collector.nearBlock(key, ids.compactMap { id in members[id].map { (id, $0.keys.words) } })
                    } else if ids.count <= DuplicateFinder.sharedKeyLimit {
                        collector.exactBlock(key, ids.compactMap { members[$0]?.candidate })
                    }
                }
            }
            start = end
        }
        return collector.finish(
            contacts: contacts, differentPeople: differentPeople, involving: scope.involving, name: { names[$0] ?? "" })
    }

    /// Every individual of the file (of book `bookID` when given) with what the finder compares,
    /// in id order, one at a time: the contacts and each list are read by one cursor each, in
    /// their key order, and walked together.
    static func forEachCandidate(_ db: Database, bookID: Int64?, _ body: (DuplicateCandidate) throws -> Void) throws {
        let contacts = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT id, name, given_name, family_name FROM contacts WHERE kind = 'individual' AND (?1 IS NULL OR book_id = ?1) ORDER BY id"),
            arguments: [bookID])
        var emails = try ChildRows(db, "value", from: "contact_emails") { $0["value"] as String }
        var phones = try ChildRows(db, "value", from: "contact_phones") { $0["value"] as String }
        var addresses = try ChildRows(db, "po_box, extended, street, locality, region, postal_code, country", from: "contact_addresses") { row in
            PostalAddress(
                poBox: row["po_box"], extended: row["extended"], street: row["street"], locality: row["locality"], region: row["region"],
                postalCode: row["postal_code"], country: row["country"]
            ).matchText
        }
        while let row = try contacts.next() {
            let id: Int64 = row["id"]
            try body(DuplicateCandidate(
                id: id, name: row["name"], given: row["given_name"], family: row["family_name"],
                emails: try emails.values(of: id), phones: try phones.values(of: id), addresses: try addresses.values(of: id)))
        }
    }

    /// One list's rows in contact order, taken contact by contact.
    private struct ChildRows<Value> {
        let cursor: RowCursor
        let read: (Row) -> Value
        var pending: (owner: Int64, value: Value)?

        init(_ db: Database, _ columns: String, from table: String, read: @escaping (Row) -> Value) throws {
            cursor = try Row.fetchCursor(db.cachedStatement(sql: "SELECT contact_id, \(columns) FROM \(table) ORDER BY contact_id, position"))
            self.read = read
        }

        /// The values of contact `id`'s rows; those of contacts before it (not walked: group
        /// cards, other books) are passed over.
        mutating func values(of id: Int64) throws -> [Value] {
            var values: [Value] = []
            while true {
                if pending == nil {
                    guard let row = try cursor.next() else { return values }
                    pending = (row["contact_id"], read(row))
                }
                guard let (owner, value) = pending, owner <= id else { return values }
                if owner == id { values.append(value) }
                pending = nil
            }
        }
    }
}
