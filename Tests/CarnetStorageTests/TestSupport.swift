import CarnetModels
@_exported import CarnetTestSupport
import Foundation
import GRDB
@testable import CarnetStorage

/// The file's bytes, as a value that compares cheaply and prints short when a test fails.
struct FileBytes: Equatable, CustomStringConvertible {
    let data: Data
    var description: String { "\(data.count) bytes, hash \(data.hashValue)" }
}

func bytes(_ path: String) -> FileBytes {
    FileBytes(data: FileManager.default.contents(atPath: path) ?? Data())
}

let pngBytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
