import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation

// The composition root of an embedding program: one storage controller, one state
// controller, handed to every view model.
@MainActor
func run(databasePath: String) throws {
    let storage = try StorageController(path: databasePath)
    let state = try StateController(storage: storage)

    // The contacts tab and the favorites tab share that one state.
    let contacts = ContactsViewModel(state: state)
    let favorites = ContactsViewModel(state: state, favoritesOnly: true)
    try contacts.onAppear()

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
    try storage.close()
}

// The address book named on the command line, kept; else a throwaway one in a directory of its
// own, removed at the end with the -wal and -shm files SQLite keeps beside it.
let scratch = CommandLine.arguments.count > 1
    ? nil : FileManager.default.temporaryDirectory.appendingPathComponent("embed-carnet-\(getpid())", isDirectory: true)
let path = scratch?.appendingPathComponent("carnet.sqlite").path ?? CommandLine.arguments[1]
var failed = false
do {
    try MainActor.assumeIsolated { try run(databasePath: path) }
} catch {
    FileHandle.standardError.write(Data("EmbedCarnet: \(error)\n".utf8))
    failed = true
}
if let scratch { try? FileManager.default.removeItem(at: scratch) }
exit(failed ? 1 : 0)
