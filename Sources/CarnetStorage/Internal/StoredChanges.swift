import CSQLiteSession
import Foundation

/// A changeset as the history stores it: a long one (an import's part, an undo of it)
/// compressed (`CSQLiteSession/compress.c`), a short one (an edit) as it is. Every reader of
/// `history.changeset` and `history_changesets.changeset` reads through `changes(_:)`, which takes
/// either form, so a file holds both.
enum StoredChanges {
    /// Changesets this long or longer are compressed: below it the saving is a few bytes.
    static let compressedFrom = 4096

    /// `changes` as it is stored.
    static func stored(_ changes: Data) -> Data {
        guard changes.count >= compressedFrom else { return changes }
        return changes.withUnsafeBytes { buffer in
            var size: Int32 = 0
            var bytes: UnsafeMutableRawPointer?
            // Without libz the part is stored as it is: larger, never lost.
            guard carnet_history_compress(Int32(buffer.count), buffer.baseAddress, &size, &bytes) == 0, let bytes else { return changes }
            defer { carnet_free(bytes) }
            return Data(bytes: bytes, count: Int(size))
        }
    }

    /// The changeset a stored part holds.
    static func changes(_ stored: Data) throws -> Data {
        try stored.withUnsafeBytes { buffer in
            guard carnet_history_is_compressed(Int32(buffer.count), buffer.baseAddress) != 0 else { return stored }
            var size: Int32 = 0
            var bytes: UnsafeMutableRawPointer?
            try check(
                carnet_history_decompress(Int32(buffer.count), buffer.baseAddress, &size, &bytes),
                "a compressed part of the history could not be read (is libz.so.1 installed?)")
            defer { carnet_free(bytes) }
            guard let bytes else { return Data() }
            return Data(bytes: bytes, count: Int(size))
        }
    }
}
