import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation
import GRDBSQLite
import Observation
import Synchronization

// Section 4: edit/save of single contacts, each its own transaction.
extension Benchmark {
    /// 1,000 single-contact edits per repetition, each its own transaction, on two copies of the
    /// book (one per side). Each repetition edits 1,000 contacts no repetition edited before, so
    /// every edit starts from version 1 on both sides.
    func runEdits(n: Int, book: String, observe: Bool) throws {
        let (carnetFile, rawFile) = try copies(of: book, "edit", n: n)
        defer { removeDatabase(carnetFile, rawFile) }
        let reps = plan.editReps
        let count = plan.editsPerRep
        let ids = editIDs(n: n)
        // The new field values, the same on both sides, made before timing.
        let positions = (0..<count).map { "Edited \($0), Gale Foods" }
        let titles = positions.map { ContactDraft.split(position: $0).title }
        let organizations = positions.map { ContactDraft.split(position: $0).organization }
        let emails = (0..<count).map { "edited.\($0)@example.com" }

        let storage = try StorageController(path: carnetFile)
        defer { try? storage.close() }
        try storage.setHistoryKeep(0)  // this row is the layer alone; the next one adds the history
        let state = try StateController(storage: storage)
        let db = try RawConnection(path: rawFile)
        let rawEdit = try RawEditTransaction(db)
        let reader = try RawPager(db, limit: 1)

        var syncs = SyncTally()
        progress("[\(formatCount(n))] edit/save \(count) × \(reps)")
        let samples = try alternating(
            reps: reps,
            carnet: { rep in
                // What a detail screen already holds when the user taps Edit: read untimed.
                let bases = try ids[(rep * count)..<((rep + 1) * count)].map { id throws(CarnetError) in
                    try state.contact(id: id)
                }
                return try syncs.carnet {
                    try timed {
                        for (k, base) in bases.enumerated() {
                            let edit = EditContactViewModel(state: state, contact: base)
                            edit.draft.position = positions[k]
                            edit.draft.email = emails[k]
                            try edit.save()
                        }
                    }
                }
            },
            raw: { rep in
                let bases = try ids[(rep * count)..<((rep + 1) * count)].map { try reader.contact(id: $0) }
                return try syncs.raw {
                    try timed {
                        // The same edit: title and organization, and the preferred email's value, so
                        // the row and the emails list are written (the other lists did not change).
                        for (k, base) in bases.enumerated() {
                            try rawEdit.edit(base, title: titles[k], organization: organizations[k], email: emails[k])
                        }
                    }
                }
            })
        // Both files must now hold the same edits, and the same contacts.
        let editedSQL = "SELECT count(*) FROM contacts WHERE version = 2 AND title LIKE 'Edited %' AND organization = 'Gale Foods'"
        let emailSQL = "SELECT count(*) FROM contact_emails WHERE value LIKE 'edited.%' AND preferred"
        let carnetDB = try RawConnection(path: carnetFile)
        let (edited, carnetEdited) = (try rawCount(db, editedSQL), try rawCount(carnetDB, editedSQL))
        let (emailed, carnetEmailed) = (try rawCount(db, emailSQL), try rawCount(carnetDB, emailSQL))
        guard edited == reps * count, carnetEdited == edited, emailed == edited, carnetEmailed == edited else {
            throw BenchError("edits: Carnet saved \(carnetEdited) (\(carnetEmailed) emails), raw \(edited) (\(emailed)), expected \(reps * count)")
        }
        for id in ids.prefix(20) {
            let (mine, theirs) = (try storage.contact(id: id), try reader.contact(id: id))
            guard mine.draft == theirs.draft, mine.version == theirs.version else {
                throw BenchError("edits: contact \(id) differs between Carnet and raw:\n  \(mine.draft)\n  \(theirs.draft)")
            }
        }
        addRatioRow(6, "edit/save, \(count) × 1 transaction, history off", n, samples, target: Target.editRatio)
        checkDurability(section: 6, n: n, syncs, perRep: count, what: "edit/save")
        try runEditsWithHistory(n: n, book: book, ids: ids)

        if observe { try runObservation(n: n, state: state) }
    }

    /// Two copies of the book, one for each side.
    func copies(of book: String, _ name: String, n: Int) throws -> (carnet: String, raw: String) {
        let (carnet, raw) = (dbPath("\(name)-carnet-\(n)"), dbPath("\(name)-raw-\(n)"))
        try FileManager.default.copyItem(atPath: book, toPath: carnet)
        try FileManager.default.copyItem(atPath: book, toPath: raw)
        return (carnet, raw)
    }
}
