import CarnetModels
import Foundation
import GRDB

extension StorageController {
    /// A stand-in error that rolls a dry run's transaction back after it has counted everything.
    private struct DryRunRollback: Error { let report: ImportReport }

    /// Imports records in one transaction: all of them or, when one fails, none.
    ///
    /// `next` is called until it returns nil, so the records can stream from a file that never
    /// sits in memory whole. A record whose UID matches a contact updates it (bumping its
    /// version) instead of adding a duplicate; if that contact was changed after the record's
    /// `updatedAt`, that is a conflict, as for edits. A record that breaks a rule, a conflict or
    /// a syntax error stops the import with `CarnetError.importFailed(source:line:reason:)`,
    /// unless `ImportOptions.skipInvalid` skips and lists it. A syntax error always
    /// stops it, but in a record of a directory import (one card per file, the error names its
    /// `InterchangeError.file`), which --skip-invalid skips like any broken card.
    /// A Carnet JSON export also restores ids (when free), creation dates, versions and favorites.
    public func importContacts(
        source: String, options: ImportOptions = ImportOptions(), progress: ((Int) -> Void)? = nil,
        next: @escaping () throws(InterchangeError) -> InterchangeRecord?
    ) throws(CarnetError) -> ImportReport {
        let environment = self.options.environment
        do {
            defer { feed.poke() }
            return try writer.writeWithoutTransaction { db in try Self.immediateTransaction(db, indexing: indexesOtherWriters) {
            try HistoryRecorder.record(db, enabled: !options.dryRun) { history in
                var report = ImportReport()
                report.dryRun = options.dryRun
                var seen = 0
                // Ids this file issued before the import: none of them is free to give again.
                let issuedBefore = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'contacts'") ?? 0
                let phones = try Self.phoneRegionSetting(db, environment: environment).normalForm
                while true {
                    let record: InterchangeRecord?
                    do {
                        record = try next()
                    } catch let error as InterchangeError {
                        // In a directory of one card per file, a file that cannot be read is one
                        // card that cannot be read: --skip-invalid skips it and goes on.
                        guard options.skipInvalid, let file = error.file else {
                            throw CarnetError.importFailed(source: error.file ?? source, line: error.line, reason: error.message)
                        }
                        report.skipped.append(ImportReport.Skipped(line: error.line, reason: error.message, file: file))
                        continue
                    }
                    guard let record else { break }
                    seen += 1
                    if seen % 10_000 == 0 { progress?(seen) }
                    do {
                        try Self.importOne(db, record, options: options, issuedBefore: issuedBefore, phones: phones, into: &report)
                    } catch let error as CarnetError {
                        let reason: String
                        switch error {
                        case let .invalid(issues): reason = "invalid " + issues.map(\.description).joined(separator: "; ")
                        default: reason = error.description
                        }
                        guard options.skipInvalid else {
                            throw CarnetError.importFailed(source: record.file ?? source, line: record.line, reason: reason)
                        }
                        report.skipped.append(ImportReport.Skipped(line: record.line, reason: reason, file: record.file))
                    }
                    try history.checkpoint()
                }
                progress?(seen)
                if options.dryRun { throw DryRunRollback(report: report) }
                history.note = Self.importNote(report, source: source, sample: options.keepsExisting)
                return report
            }
            } }
        } catch let rollback as DryRunRollback {
            return rollback.report
        } catch {
            throw ErrorMapping.map(error, path: path)
        }
    }

    /// "imported 1,204 contacts from contacts.vcf (1,200 added, 4 updated)"; `carnet sample`
    /// (the only import that keeps existing contacts) says "added the sample contacts".
    static func importNote(_ report: ImportReport, source: String, sample: Bool) -> HistoryNote {
        let count = HistoryNote.count(report.added + report.updated, "contact")
        let file = (source as NSString).lastPathComponent
        let detail = report.updated > 0 && report.added > 0
            ? " (\(HistoryNote.grouped(report.added)) added, \(HistoryNote.grouped(report.updated)) updated)"
            : report.updated > 0 ? " (updated)" : ""
        let groupCount = report.groupsAdded + report.groupsUpdated
        let groups = groupCount == 0 ? "" : " and " + HistoryNote.count(groupCount, "group")
        if sample { return HistoryNote(.sample, subject: "", "added the sample contacts: \(count)") }
        return HistoryNote(.import, subject: file, "imported \(count)\(groups)\(file.isEmpty ? "" : " from \(file)")\(detail)")
    }

    private static func importOne(
        _ db: Database, _ record: InterchangeRecord, options: ImportOptions, issuedBefore: Int64, phones: PhoneNormalForm,
        into report: inout ImportReport
    ) throws {
        // The UID is derived from the card as read, as the reader derives it for the members
        // it resolves, before its members are taken to the contacts they were merged into.
        let validated = try record.draft.validated()
        let uid = record.uid ?? InterchangeRecord.derivedUID(validated)
        let draft = try resolvingMergedMembers(db, validated)
        let uidIssues = UIDRule.issues(uid)
        if !uidIssues.isEmpty { throw CarnetError.invalid(uidIssues) }
        // A file imported before UIDs were kept whole made its contact under the earlier UID.
        if let current = try fetchContact(db, uid: uid) ?? record.earlierUID.flatMap({ try fetchContact(db, uid: $0) }) {
            try importOver(db, current, draft, record, options: options, into: &report)
            return
        }
        // A card of a contact since merged into another: it updates the one it became, adding
        // what it holds that the merged contact lacks, rather than bringing the duplicate back.
        if let survivor = try mergedInto(db, uid: uid), let current = try fetchContact(db, id: survivor) {
            let united = ContactMerge.merge([current.draft, draft], phones: phones).draft
            if united == current.draft {
                report.unchanged += 1
            } else if options.keepsExisting {
                report.kept.append(current.id)
            } else {
                guard try ContactRecord.update(
                    db, id: current.id, uid: current.uid, expecting: current.version, with: try united.validated(), replacing: current.draft,
                    updatedAt: Timestamp.string(Timestamp.now()))
                else { throw CarnetError.deleted(.contact, id: current.id) }
                if draft.kind == .group { report.groupsUpdated += 1 } else { report.updated += 1 }
            }
            if record.favorite == true { try addFavoriteIfMissing(db, current.id) }
            return
        }
        try importNew(db, record, draft, uid: uid, options: options, issuedBefore: issuedBefore, into: &report)
    }

    /// A record whose UID is a contact's: it updates the contact (see `importContacts(source:options:progress:next:)`).
    private static func importOver(
        _ db: Database, _ current: Contact, _ draft: ContactDraft, _ record: InterchangeRecord, options: ImportOptions,
        into report: inout ImportReport
    ) throws {
        if current.draft == draft {
            report.unchanged += 1
        } else if options.keepsExisting {
            report.kept.append(current.id)
        } else {
            if !options.force, let stamp = record.updatedAt, current.updatedAt > stamp.addingTimeInterval(1) {
                let fields = draft.differences(from: current.draft).map(\.rawValue).joined(separator: ", ")
                throw CarnetError.refused(
                    "conflict: contact \(current.id) was changed after this record was written (\(fields) differ); export it again, or import with --force")
            }
            let now = record.updatedAt.map { Timestamp.date(milliseconds: Timestamp.milliseconds($0)) } ?? Timestamp.now()
            // The write lock is held since `current` was read, so this finds it as read.
            guard try ContactRecord.update(
                db, id: current.id, uid: current.uid, expecting: current.version, with: draft, replacing: current.draft,
                updatedAt: Timestamp.string(now))
            else { throw CarnetError.deleted(.contact, id: current.id) }
            if draft.kind == .group { report.groupsUpdated += 1 } else { report.updated += 1 }
        }
        if record.favorite == true { try addFavoriteIfMissing(db, current.id) }
    }

    private static func importNew(
        _ db: Database, _ record: InterchangeRecord, _ draft: ContactDraft, uid: String, options: ImportOptions, issuedBefore: Int64,
        into report: inout ImportReport
    ) throws {
        let now = Timestamp.now()
        let created = record.createdAt ?? now
        let updated = record.updatedAt ?? now
        // Keep the id a Carnet export carried when this file never issued it (so a restore into
        // a new file looks the same); an id issued before, even to a contact since deleted, is
        // never given to another contact. An id beyond ``IDSpace/largestRestored`` is not kept:
        // the next id is always the largest so far plus one, so a file carrying the largest
        // integer would leave no id for any later contact.
        let idIsFree = try record.id.map { id in
            try id > issuedBefore && id <= IDSpace.largestRestored
                && Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM contacts WHERE id = ?"), arguments: [id]) == 0
        } ?? false
        let id = try ContactRecord(
            id: idIsFree ? record.id : nil, uid: uid, draft: draft,
            createdAt: Timestamp.string(created), updatedAt: Timestamp.string(updated), version: max(1, record.version ?? 1),
            bookID: options.bookID ?? AddressBook.defaultID
        ).insertRow(db)
        if record.favorite == true { try addFavoriteIfMissing(db, id) }
        if draft.kind == .group {
            report.groupsAdded += 1
        } else {
            report.added += 1
            report.addedIDs.insert(id)
        }
    }

    private static func addFavoriteIfMissing(_ db: Database, _ id: Int64) throws {
        try db.cachedStatement(sql: """
            INSERT INTO favorites (contact_id, position, created_at)
            SELECT ?, coalesce(max(position), 0) + 1, ? FROM favorites
            WHERE NOT EXISTS (SELECT 1 FROM favorites WHERE contact_id = ?)
            """)
            .execute(arguments: [id, Timestamp.string(Timestamp.now()), id])
    }

    /// Calls `body` with every contact in name order (or only the favorites, in their order),
    /// then every group card (not with the favorites),
    /// a page at a time, so an export of a million contacts holds one page in memory.
    /// Only address book `bookID`'s when given.
    public func forEachContact(
        favoritesOnly: Bool = false, bookID: Int64? = nil, pageSize: Int = 500, _ body: (Contact, Bool) throws -> Void
    ) throws(CarnetError) {
        let favorites = try favorites()
        if favoritesOnly {
            for favorite in favorites where bookID == nil || favorite.contact.bookID == bookID {
                do { try body(favorite.contact, true) } catch { throw ErrorMapping.map(error, path: path) }
            }
            return
        }
        let favoriteIDs = Set(favorites.map(\.contact.id))
        let path = self.path
        try forEachContact(query: ContactQuery(bookID: bookID), pageSize: pageSize) { contact throws(CarnetError) in
            do { try body(contact, favoriteIDs.contains(contact.id)) } catch { throw ErrorMapping.map(error, path: path) }
        }
        // Then the group cards (few), so an export holds every card of the file.
        for group in try groups() {
            do { try body(group, false) } catch { throw ErrorMapping.map(error, path: path) }
        }
    }

    /// The contacts matching `search` (all of them when empty) in name order, at most `limit`,
    /// read by keyset pages of `pageSize` and handed to `body` as they are read: one page is held
    /// at a time, whatever the table's size.
    public func forEachContact(
        matching search: String, limit: Int = .max, pageSize: Int = 500, _ body: (Contact) throws(CarnetError) -> Void
    ) throws(CarnetError) {
        try forEachContact(query: ContactQuery(search: search), limit: limit, pageSize: pageSize, body)
    }

    /// `forEachContact(query:limit:pageSize:_:)` for a listing: the contacts' summaries, read
    /// without their other child tables.
    public func forEachSummary(
        query: ContactQuery, limit: Int = .max, pageSize: Int = 500, _ body: (ContactSummary) throws(CarnetError) -> Void
    ) throws(CarnetError) {
        try walkKeysetPages(
            limit: limit, pageSize: pageSize,
            page: { key, size throws(CarnetError) in try summaries(after: key, limit: size, query: query) },
            key: \.key, body: { row throws(CarnetError) in try body(row.summary) })
    }

    /// The contacts of `query`, in its order, at most `limit`, a keyset page at a time.
    public func forEachContact(
        query: ContactQuery, limit: Int = .max, pageSize: Int = 500, _ body: (Contact) throws(CarnetError) -> Void
    ) throws(CarnetError) {
        try walkKeysetPages(
            limit: limit, pageSize: pageSize,
            page: { key, size throws(CarnetError) in
                let page = try contacts(after: key, limit: size, query: query)
                return (page.contacts, page.hasMore)
            },
            key: { query.sortKey(of: $0) }, body: body)
    }

    /// Reads pages of at most `pageSize` rows, each after the last row's sort key, and hands
    /// every row to `body`, until `limit` rows or the end: the one keyset walk of both listings.
    private func walkKeysetPages<Row>(
        limit: Int, pageSize: Int,
        page: (ContactSortKey?, Int) throws(CarnetError) -> ([Row], hasMore: Bool),
        key: (Row) -> ContactSortKey,
        body: (Row) throws(CarnetError) -> Void
    ) throws(CarnetError) {
        var remaining = limit
        var after: ContactSortKey?
        while remaining > 0 {
            let (rows, hasMore) = try page(after, min(max(1, pageSize), remaining))
            for row in rows { try body(row) }
            remaining -= rows.count
            guard hasMore, let last = rows.last else { return }
            after = key(last)
        }
    }
}
