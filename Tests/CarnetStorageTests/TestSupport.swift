import CarnetModels
import Foundation
import GRDB
@testable import CarnetStorage

/// A fresh directory under the system temp dir, removed when the value is dropped.
final class TempDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("carnet-tests-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// The file's bytes, as a value that compares cheaply and prints short when a test fails.
struct FileBytes: Equatable, CustomStringConvertible {
    let data: Data
    var description: String { "\(data.count) bytes, hash \(data.hashValue)" }
}

func bytes(_ path: String) -> FileBytes {
    FileBytes(data: FileManager.default.contents(atPath: path) ?? Data())
}

/// Runs `body` and returns the CarnetError it throws (nil if it does not throw).
/// Anything other than a CarnetError comes back as `.database("unexpected …")`, failing the test.
func carnetError<T>(_ body: () throws -> T) -> CarnetError? {
    do {
        _ = try body()
        return nil
    } catch let error as CarnetError {
        return error
    } catch {
        return .database("unexpected \(type(of: error)): \(error)")
    }
}

let pngBytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
