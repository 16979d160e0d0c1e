import CarnetModels
@_exported import CarnetTestSupport
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation


/// The composition root of a test: one storage controller and one state controller on a real
/// file, the way `carnet` and an embedding app make them.
@MainActor
func makeState(_ path: String) throws -> StateController {
    try StateController(storage: try StorageController(path: path))
}

/// The main file and its write-ahead log, to compare before and after.
func fileState(_ path: String) -> [Data?] {
    [path, path + "-wal"].map { FileManager.default.contents(atPath: $0) }
}


@MainActor
func seed(_ state: StateController) throws -> [Contact] {
    try classicContacts.map { try state.addContact($0) }
}

/// ``makeState(_:)`` holding the classic contacts, and those contacts as saved.
@MainActor
func seededState(_ path: String) throws -> (StateController, [Contact]) {
    let state = try makeState(path)
    return (state, try seed(state))
}

/// The app's two tabs over one state controller, both shown: all contacts, and the favorites.
@MainActor
func shownTabs(_ state: StateController) throws -> (all: ContactsViewModel, favorites: ContactsViewModel) {
    let tabs = (all: ContactsViewModel(state: state), favorites: ContactsViewModel(state: state, favoritesOnly: true))
    try tabs.all.onAppear()
    try tabs.favorites.onAppear()
    return tabs
}

/// Ada, saved with two emails, a phone, a date and a category.
@MainActor
func saveAda(_ state: StateController) throws -> Contact {
    var draft = ContactDraft(name: "Ada Lovelace", position: "Analyst, Analytical Engines")
    draft.emails = [LabeledValue("ada@example.com", label: "work", preferred: true), LabeledValue("ada@home.example", label: "home")]
    draft.phones = [LabeledValue("+44 20 7946 0000", label: "cell")]
    draft.dates = [ContactDate(label: ContactDate.birthday, year: 1815, month: 12, day: 10)]
    draft.categories = ["friends"]
    return try state.addContact(draft)
}
