/// A hash that is the same in every run and on every machine (Swift's `Hasher` is seeded per
/// process), for names derived from values (a UID for a card without one, a vdir file name) and
/// for the block keys the duplicate finder sorts on disk.
public enum StableHash {
    /// FNV-1a, 64 bits, of the text's UTF-8, as 16 lower-case hex digits.
    public static func hex16(_ text: String) -> String {
        let hex = String(fnv1a(text), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// FNV-1a, 64 bits, of the text's UTF-8.
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash = FNV1a()
        hash.combine(text)
        return hash.value
    }

    /// FNV-1a fed a piece at a time: its value is `fnv1a` of the pieces joined, without joining
    /// them (the duplicate finder hashes each word of a name with each of several contexts).
    public struct FNV1a: Sendable {
        public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

        public init() {}

        public mutating func combine(byte: UInt8) {
            value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
        }

        public mutating func combine(_ text: String) {
            for byte in text.utf8 { combine(byte: byte) }
        }
    }
}
