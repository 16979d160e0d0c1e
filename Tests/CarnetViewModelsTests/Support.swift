import CarnetModels
@_exported import CarnetTestSupport
import CarnetState
import CarnetStorage
import Foundation
import Synchronization


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

/// Set from an observation callback, read by the test.
final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
