import CarnetModels
@_exported import CarnetTestSupport
import CarnetState
import CarnetStorage
import Foundation


/// A test's composition root: one storage controller on a real file and the state controller
/// over it, the way `carnet` makes them. The storage controller is returned too, for tests that
/// look at the file underneath.
@MainActor
func makeState(_ path: String) throws -> (StateController, StorageController) {
    let storage = try StorageController(path: path)
    return (try StateController(storage: storage), storage)
}

/// Another connection to the same file: what another process (or another app's state) sees and
/// writes. Its commits reach a state controller only through `refresh()`.
func otherConnection(_ path: String) throws -> StorageController {
    try StorageController(path: path)
}


@MainActor
func seed(_ state: StateController) throws -> [Contact] {
    try classicContacts.map { try state.addContact($0) }
}

/// `count` contacts named "Person 00000"… inserted in a scrambled order (so ids do not follow
/// names), with every seventh name lowercased (the list sorts ignoring ASCII case) and a few
/// "Gale Foods" positions to search for. One transaction.
func seedMany(_ storage: StorageController, count: Int) throws {
    var order = Array(0..<count)
    var state: UInt64 = 0x5EED
    for i in order.indices.reversed() {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        order.swapAt(i, Int(state >> 33) % (i + 1))
    }
    try storage.insertContacts(order.map { i in
        let name = String(format: "Person %05d", i)
        return ContactDraft(
            name: i % 7 == 0 ? name.lowercased() : name,
            position: i % 10 == 0 ? "Sales, Gale Foods" : "Engineering, Acme Corp",
            email: "person\(i)@example.com")
    })
}

extension StateController {
    /// A contact list (see ``makeContactList(search:pageSize:maxRows:)``) with its first page
    /// loaded, as a screen that has appeared shows it.
    func loadedContactList(search: String = "", pageSize: Int = 50, maxRows: Int = 500) throws -> ContactList {
        let list = makeContactList(search: search, pageSize: pageSize, maxRows: maxRows)
        try list.loadNextPage()
        return list
    }
}
