import Carnet
import Foundation

// A program that embeds Carnet: its screens share one live state, another process adds a
// contact and the screen shows it with no polling code, eight tasks read and write off the main
// actor, and the program keeps a table of its own in the same file. docs/embedding.md shows
// these lines; GuideTests holds every line it shows to this file.

// MARK: - The composition root

// The program's own table, beside the address book: a note per contact.
let notesTable = AppMigration("create notes") { db in
    try db.execute(sql: """
        CREATE TABLE app_notes (
            contact_id INTEGER PRIMARY KEY REFERENCES contacts (id) ON DELETE CASCADE,
            text       TEXT NOT NULL
        )
        """)
}

@MainActor
func run(databasePath: String, otherProcess: String?) async throws {
    let storage = try StorageController(path: databasePath, appMigrations: [notesTable])
    let state = try StateController(storage: storage, live: true)  // every commit, whoever makes it

    // The contacts tab and the favorites tab share that one state.
    let contacts = ContactsViewModel(state: state)
    let favorites = ContactsViewModel(state: state, favoritesOnly: true)
    try contacts.onAppear()

    // MARK: - Screens

    // Add a contact through the edit screen's view model: a draft, validated on save.
    let add = EditContactViewModel(state: state)
    add.draft = ContactDraft(name: "Ada Lovelace", position: "Analyst, Analytical Engines", email: "ada@example.com")
    let ada = try add.save()

    // Favorite it from the contacts tab; the favorites tab shows it at once.
    try contacts.favorite(ada.id)

    // Edit its lists as a screen bound to them would: add an email, make it the preferred one.
    // The save writes the contact and every list in one transaction, as one new version.
    let edit = contacts.detail(for: ada).edit()
    try edit.addEntry("home:ada@home.example", to: .email)
    try edit.makePreferred(at: 1, in: .email)
    try edit.save()

    print("Quote: \(state.currentQuote?.text ?? "-")")
    print("Contacts: \(contacts.rows.map(\.contact.name).joined(separator: ", "))")
    print("Favorites: \(favorites.rows.map(\.contact.name).joined(separator: ", "))")
    // The detail screen's rows, grouped as the field description groups them.
    for section in contacts.detail(for: ada).sections {
        print("\(section.title): " + section.rows.map { row in
            "\(row.label) \(row.value)" + (row.entryLabel.isEmpty ? "" : " (\(row.entryLabel))")
        }.joined(separator: "; "))
    }

    // Undo the last edit, as an Edit menu would; the next process to open the file could too.
    let history = HistoryViewModel(state: state)
    print(history.undoTitle ?? "Nothing to undo")
    try history.undo()
    print("Emails after undo: \(try state.contact(id: ada.id).draft.emails.map(\.value).joined(separator: ", "))")

    // MARK: - Another process's change reaches the screen

    // Observation tells the screen its rows changed; the live state applied the commit.
    let rowsChanged = Task { @MainActor in
        await withCheckedContinuation { (changed: CheckedContinuation<Void, Never>) in
            withObservationTracking { _ = contacts.rows } onChange: { changed.resume() }
        }
    }
    if let otherProcess {
        let add = Process()  // another person, with the command line, on the same file
        add.executableURL = URL(fileURLWithPath: otherProcess)
        add.arguments = ["--db", databasePath, "add", "--name", "Grace Hopper"]
        add.standardOutput = FileHandle.nullDevice
        try add.run()
        add.waitUntilExit()
    } else {
        // No `carnet` named: another connection plays the other process.
        try StorageController(path: databasePath).insertContact(ContactDraft(name: "Grace Hopper"))
    }
    await rowsChanged.value
    await Task.yield()
    print("Added elsewhere: \(contacts.rows.map(\.contact.name).joined(separator: ", "))")
    print("By this process: \(state.lastChange?.byThisProcess == true ? "yes" : "no")")

    // MARK: - Off the main actor

    // A program without screens observes the storage controller itself.
    let changes = storage.changes()  // an AsyncStream<StorageChange>, from now on
    let watcher = Task {
        var seen: Set<Int64> = []
        for await change in changes {
            seen.formUnion(change.contactIDs ?? [])  // nil: written outside the history, reread all
            if seen.count >= 8 { break }
        }
        return seen.count
    }

    // Eight tasks read and write at once; SQLite's waiting happens on Carnet's threads, never
    // on the cooperative pool.
    let names = try await withThrowingTaskGroup(of: String.self) { group in
        for task in 1...8 {
            group.addTask {
                let saved = try await storage.async.insertContact(ContactDraft(name: "Batch \(task)"))
                return try await storage.async.contact(id: saved.id).name
            }
        }
        var names: [String] = []
        for try await name in group { names.append(name) }
        return names
    }
    print("Written from eight tasks: \(names.count), seen by the watcher: \(await watcher.value)")

    // MARK: - The program's own table

    try await storage.async.perform { storage throws(CarnetError) in
        try storage.appWrite { db in
            try db.execute(sql: "INSERT INTO app_notes (contact_id, text) VALUES (?, ?)", arguments: [ada.id, "met at the Analytical Society"])
        }
    }
    let notes = try await storage.async.perform { storage throws(CarnetError) in
        try storage.appRead { db in try String.fetchAll(db, sql: "SELECT text FROM app_notes") }
    }
    print("The program's notes: \(notes.joined(separator: "; "))")
    try storage.close()
}

// The address book named on the command line, kept; else a throwaway one in a directory of its
// own, removed at the end with the -wal and -shm files SQLite keeps beside it. CARNET names a
// `carnet` binary to play the other process (`make test` gives the one it built).
let scratch = CommandLine.arguments.count > 1
    ? nil : FileManager.default.temporaryDirectory.appendingPathComponent("embed-carnet-\(getpid())", isDirectory: true)
let path = scratch?.appendingPathComponent("carnet.sqlite").path ?? CommandLine.arguments[1]
var failed = false
do {
    try await run(databasePath: path, otherProcess: ProcessInfo.processInfo.environment["CARNET"])
} catch {
    FileHandle.standardError.write(Data("EmbedCarnet: \(error)\n".utf8))
    failed = true
}
if let scratch { try? FileManager.default.removeItem(at: scratch) }
exit(failed ? 1 : 0)
