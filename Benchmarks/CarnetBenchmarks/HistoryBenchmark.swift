import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation
import GRDBSQLite
import Observation
import Synchronization

// Import and edit/save with the history recorded, and the undo of one edit.
extension Benchmark {
    /// `--only history`: the history rows at N, on a book made untimed with the history off.
    func runHistoryOnly(n: Int, withImport: Bool) throws {
        progress("[\(formatCount(n))] generating \(n) contacts")
        let drafts = ContactData.drafts(count: n)
        if withImport { try runHistoryImport(n: n, drafts: drafts, reps: plan.importReps(n)) }
        progress("[\(formatCount(n))] making the book (untimed)")
        let book = dbPath("book-\(n)")
        let storage = try StorageController(path: book)
        try storage.setHistoryKeep(0)
        _ = try storage.insertContacts(drafts)
        try storage.close()
        try settle(book)
        defer { removeDatabase(book) }
        try runEditsWithHistory(n: n, book: book, ids: editIDs(n: n))
    }

    /// The contacts the edit workloads edit: 1,000 per repetition, none twice.
    func editIDs(n: Int) -> [Int64] {
        ContactData.distinctIDs(count: plan.editReps * plan.editsPerRep, upTo: n, seed: 0xED17 &+ UInt64(n))
    }

    /// The import with the history on (its changeset written in the same transaction), against
    /// the raw import without one.
    func runHistoryImport(n: Int, drafts: [ContactDraft], reps: Int) throws {
        progress("[\(formatCount(n))] import with history ×\(reps)")
        var historyBytes = 0
        let recorded = try alternating(
            reps: reps,
            carnet: { rep in
                let path = dbPath("import-history-\(n)-\(rep)")
                let storage = try StorageController(path: path)
                let seconds = try timed { _ = try storage.insertContacts(drafts) }
                historyBytes = try storage.history(limit: 1).first?.bytes ?? 0
                try storage.close()
                removeDatabase(path)
                return seconds
            },
            raw: { rep in try rawImportIntoScratch("import-raw-h-\(n)-\(rep)", drafts: drafts) })
        addRatioRow(1, "import with history ÷ raw without", n, recorded, target: Target.historyImportRatio)
        if n == plan.largest {
            notes.append("history: the import of \(formatCount(n)) contacts keeps \(historyBytes / max(n, 1)) bytes per contact to undo it (\(formatCount(historyBytes / 1_048_576)) MiB).")
        }
    }

    /// The same edits with the history on, against the raw edits without one; then one
    /// edit and its undo, one at a time, the undo against the edit.
    func runEditsWithHistory(n: Int, book: String, ids: [Int64]) throws {
        let (carnetFile, rawFile) = try copies(of: book, "edit-history", n: n)
        defer { removeDatabase(carnetFile, rawFile) }
        let reps = plan.editReps
        let count = plan.editsPerRep
        let storage = try StorageController(path: carnetFile)
        defer { try? storage.close() }
        try storage.setHistoryKeep(1000)  // the default; the book was made with the history off
        let state = try StateController(storage: storage)
        let db = try RawConnection(path: rawFile)
        let rawEdit = try RawEditTransaction(db)
        let reader = try RawPager(db, limit: 1)
        func edit(_ base: Contact, _ k: Int) throws {
            let edit = EditContactViewModel(state: state, contact: base)
            edit.draft.position = "Edited \(k), Gale Foods"
            edit.draft.email = "edited.\(k)@example.com"
            try edit.save()
        }
        progress("[\(formatCount(n))] edit/save with history \(count) × \(reps)")
        let samples = try alternating(
            reps: reps,
            carnet: { rep in
                let bases = try ids[(rep * count)..<((rep + 1) * count)].map { id throws(CarnetError) in try state.contact(id: id) }
                return try timed { for (k, base) in bases.enumerated() { try edit(base, k) } }
            },
            raw: { rep in
                let bases = try ids[(rep * count)..<((rep + 1) * count)].map { try reader.contact(id: $0) }
                return try timed {
                    // The edit of the row above, the search index kept as Carnet keeps it, so both
                    // sides do the same work.
                    for (k, base) in bases.enumerated() {
                        try rawEdit.edit(base, title: "Edited \(k)", organization: "Gale Foods", email: "edited.\(k)@example.com")
                    }
                }
            })
        addRatioRow(6, "edit/save with history ÷ raw without", n, samples, target: Target.historyEditRatio)
        let perAction = try storage.history(limit: count).map(\.bytes)
        if n == plan.largest, !perAction.isEmpty {
            notes.append("history: an edit of title, organization and email keeps \(perAction.reduce(0, +) / perAction.count) bytes to undo and redo it.")
        }

        // One edit, then its undo, each timed alone (a person undoes right after a change).
        var edits: [Double] = []
        var undos: [Double] = []
        for (k, id) in ids.prefix(plan.quick ? 15 : 41).enumerated() {
            let base = try state.contact(id: id)
            edits.append(try timed { try edit(base, 10_000 + k) })
            undos.append(try timed { _ = try state.undo() })
        }
        addRatioRow(6, "undo of one edit ÷ the edit", n, (undos, edits), target: Target.undoRatio)
    }
}
