import CarnetModels
import Foundation

/// The file formats `carnet import` and `carnet export` speak, named by their usual extension so
/// a file name alone can choose the codec.
public enum InterchangeFormat: String, Sendable, CaseIterable {
    /// vCard 3.0 or 4.0 (`.vcf`, `.vcard`).
    case vcf
    /// RFC 4180 CSV with a header row (`.csv`).
    case csv
    /// The JSON array `carnet list --json` prints (`.json`).
    case json
    /// A directory of one vCard file per contact, as khard and vdirsyncer keep an address book
    /// (see ``VDir``).
    case vdir
    /// LDIF as Thunderbird and Evolution export an address book (`.ldif`, `.ldi`; see ``LDIFReader``).
    case ldif

    /// The format for a file extension, with or without its dot, in any case; nil if unknown.
    public init?(fileExtension: String) {
        var ext = Substring(fileExtension)
        if ext.hasPrefix(".") { ext = ext.dropFirst() }
        switch String(ext).asciiLowercased {
        case "vcf", "vcard": self = .vcf
        case "csv": self = .csv
        case "json": self = .json
        case "ldif", "ldi": self = .ldif
        default: return nil
        }
    }

    /// The extension files of this format are written with (a vdir's files are `.vcf`).
    public var fileExtension: String { self == .vdir ? "vcf" : rawValue }
}

/// A vdir (vdirsyncer's "storage of type filesystem", khard's address book): a directory with
/// one vCard file per contact. This is the naming rule; reading and writing the directory is the
/// caller's I/O.
public enum VDir {
    /// The file a contact is written to, from its UID alone, so an export names the same contact
    /// the same way every time: `UID.vcf` when the UID is made of safe characters (ASCII letters
    /// and digits, `-`, `_`, `.`, `@`, `+`; not starting with `.`; at most 200 of them), else the
    /// UID with every other character made `_` (at most 64 of them) and `-` and 16 hex digits of
    /// a hash of the whole UID (FNV-1a, 64 bits), so two UIDs that differ only in unsafe
    /// characters still get two files. A `urn:uuid:` UUID is named by its UUID, the name it had
    /// when Carnet kept UIDs without that prefix, so a vdir written then is written over, not doubled.
    public static func fileName(uid: String) -> String {
        if uid.hasASCIIPrefixIgnoringCase("urn:uuid:"), VCardText.isUUID(uid.utf8.dropFirst(9)) {
            return String(uid.dropFirst(9)) + ".vcf"
        }
        let scalars = uid.unicodeScalars
        if !scalars.isEmpty, scalars.count <= 200, scalars.first != ".", scalars.allSatisfy(isSafe) {
            return uid + ".vcf"
        }
        let stem = String(String.UnicodeScalarView(scalars.prefix(64).map { isSafe($0) ? $0 : "_" }))
        return (stem.hasPrefix(".") ? "_" + stem.dropFirst() : Substring(stem)) + "-" + StableHash.hex16(uid) + ".vcf"
    }

    private static func isSafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", "@", "+": return true
        default: return false
        }
    }

    /// Whether a directory entry is one of a vdir's cards: a `.vcf` file (any case), not hidden.
    public static func isCard(_ name: String) -> Bool {
        !name.hasPrefix(".") && name.lowercased().hasSuffix(".vcf") && name.count > 4
    }
}
