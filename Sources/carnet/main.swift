import CarnetModels
import CarnetStorage
import Foundation

// Minimal composition root: open the storage controller once, show the home screen.
// The full CLI (swift-argument-parser, one command per screen) replaces this.
var arguments = Array(CommandLine.arguments.dropFirst())
var dbPath: String?
if let index = arguments.firstIndex(of: "--db"), index + 1 < arguments.count {
    dbPath = arguments[index + 1]
}
let environment = ProcessInfo.processInfo.environment
let path = dbPath ?? environment["CARNET_DB"] ?? {
    let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
        ?? (NSHomeDirectory() + "/.local/share")
    return data + "/carnet/carnet.sqlite"
}()
do {
    let storage = try StorageController(path: path)
    let snapshot = try storage.snapshot()
    if let quote = snapshot.currentQuote {
        print("“\(quote.text)”\n    — \(quote.author)\n")
    }
    print("\(snapshot.contactCount) contacts, \(snapshot.favorites.count) favorites")
    try storage.close()
} catch {
    FileHandle.standardError.write(Data("carnet: \(error)\n".utf8))
    exit(1)
}
