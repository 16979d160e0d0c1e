import CarnetModels
import CarnetState
import CarnetStorage
import Foundation
import Synchronization

final class TempDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("carnet-vm-tests-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var database: String { url.appendingPathComponent("book.sqlite").path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

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

let classicContacts = [
    ContactDraft(name: "Madison Thompson", position: "Sales, Gale Foods", email: "madison@example.com", phone: "555 0101"),
    ContactDraft(name: "Tyler Porter", position: "Software developer, Prophecy", email: "tyler@example.com", phone: "555 0102"),
    ContactDraft(name: "Katherine Price", position: "Marketing, Golden Roads", email: "katherine@example.com", phone: "555 0103"),
    ContactDraft(name: "Gary Edwards", position: "Web Developer, Bluewares", email: "gary@example.com", phone: "555 0104"),
    ContactDraft(name: "Rebecca Rogers", position: "HR, Globaviations", email: "rebecca@example.com", phone: "555 0105"),
]

@MainActor
func seed(_ state: StateController) throws -> [Contact] {
    try classicContacts.map { try state.addContact($0) }
}

/// Set from an observation callback, read by the test.
final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
