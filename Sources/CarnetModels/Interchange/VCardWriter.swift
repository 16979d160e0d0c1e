import Foundation

/// The vCard version to export: 3.0 for older address books (and Google's importer), 4.0 for
/// everything current.
public enum VCardVersion: String, Sendable, CaseIterable {
    case v3 = "3.0"
    case v4 = "4.0"
}

/// Writes contacts as vCards that other address books import, and that ``VCardReader`` reads
/// back to the same fields, so export → import → export gives the same bytes.
///
/// Output is deterministic: always the same properties in the same order, CRLF line endings,
/// lines folded at 75 octets without splitting a UTF-8 character, text values escaped.
///
/// - `FN` is the name. `N` is derived from it, as an approximation (a name alone cannot say which
///   part is the family name): the last word is the family name, the words before it the given
///   name. ``VCardReader`` reads `FN`, so the approximation never changes a round trip.
/// - The position is split at its first ", ": what comes before is `TITLE`, what comes after is
///   `ORG` ("Head of HR, Globaviations" → `TITLE:Head of HR`, `ORG:Globaviations`). A position
///   without ", " (or with nothing, or padding, on one side of it) is all `TITLE`.
/// - `PHOTO` is inline, typed from the image's bytes: `ENCODING=b;TYPE=JPEG` in 3.0, a
///   `data:image/jpeg;base64,` URI in 4.0.
/// - `UID` is written as `urn:uuid:…` in 4.0 when it is a UUID; `REV` is a UTC timestamp to the
///   second (vCard timestamps have no fractions).
/// - Empty fields are left out.
public enum VCardWriter {
    /// The `PRODID` Carnet writes.
    public static let productID = "-//Carnet//Carnet//EN"

    /// One vCard, `BEGIN:VCARD` to `END:VCARD`, each line ending in CRLF.
    public static func card(uid: String?, draft: ContactDraft, updatedAt: Date?, version: VCardVersion = .v4) -> String {
        var lines: [String] = ["BEGIN:VCARD", "VERSION:\(version.rawValue)", "PRODID:\(productID)"]
        if let uid, !uid.isEmpty {
            switch version {
            case .v3:
                lines.append("UID:" + VCardText.escape(uid))
            case .v4:
                if VCardText.isUUID(uid.utf8) {
                    lines.append("UID:urn:uuid:" + uid)
                } else {
                    lines.append("UID;VALUE=text:" + VCardText.escape(uid))
                }
            }
        }
        lines.append("FN:" + VCardText.escape(draft.name))
        let words = draft.name.split(whereSeparator: { $0.isWhitespace || $0.isNewline })
        let family = words.last.map(String.init) ?? ""
        let given = words.dropLast().joined(separator: " ")
        lines.append("N:" + VCardText.escape(family) + ";" + VCardText.escape(given) + ";;;")
        let (title, organization) = split(position: draft.position)
        if !title.isEmpty { lines.append("TITLE:" + VCardText.escape(title)) }
        if !organization.isEmpty { lines.append("ORG:" + VCardText.escape(organization)) }
        if !draft.email.isEmpty { lines.append("EMAIL:" + VCardText.escape(draft.email)) }
        if !draft.phone.isEmpty {
            // 4.0 TEL is a tel: URI unless marked text; text keeps the number as the user wrote it.
            lines.append((version == .v4 ? "TEL;VALUE=text:" : "TEL:") + VCardText.escape(draft.phone))
        }
        if let photo = draft.photo, !photo.isEmpty {
            let kind = ImageKind(of: photo)
            switch version {
            case .v3:
                let type = kind.map { ";TYPE=" + $0.rawValue.uppercased() } ?? ""
                lines.append("PHOTO;ENCODING=b\(type):" + photo.base64EncodedString())
            case .v4:
                let media = kind.map { "image/" + $0.rawValue } ?? "application/octet-stream"
                lines.append("PHOTO:data:\(media);base64," + photo.base64EncodedString())
            }
        }
        if let updatedAt { lines.append("REV:" + InterchangeDate.basic(updatedAt)) }
        lines.append("END:VCARD")

        var out: [UInt8] = []
        out.reserveCapacity(lines.reduce(0) { $0 + $1.utf8.count + 8 })
        for line in lines { fold(line, into: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// One vCard for a record, as ``card(uid:draft:updatedAt:version:)``.
    public static func card(_ record: InterchangeRecord, version: VCardVersion = .v4) -> String {
        card(uid: record.uid, draft: record.draft, updatedAt: record.updatedAt, version: version)
    }

    /// One vCard for a saved contact.
    public static func card(contact: Contact, version: VCardVersion = .v4) -> String {
        card(uid: contact.uid, draft: contact.draft, updatedAt: contact.updatedAt, version: version)
    }

    /// The position as (`TITLE`, `ORG`): split at the first ", " when both sides are non-empty.
    public static func split(position: String) -> (title: String, organization: String) {
        guard let comma = position.range(of: ", ") else { return (position, "") }
        let title = String(position[..<comma.lowerBound])
        let organization = String(position[comma.upperBound...])
        // Readers trim TITLE and ORG, so sides that are blank or padded would not come back as
        // they were: keep such a position whole.
        guard !title.isEmpty, !organization.isEmpty, VCardText.trimmed(title) == title,
              VCardText.trimmed(organization) == organization
        else { return (position, "") }
        return (title, organization)
    }

    /// Appends `line` and CRLF, folded so no line is longer than 75 octets and no UTF-8
    /// character is cut (RFC 6350 section 3.2).
    private static func fold(_ line: String, into out: inout [UInt8]) {
        let bytes = Array(line.utf8)
        var start = 0
        var limit = 75
        while bytes.count - start > limit {
            var cut = start + limit
            while cut > start + 1, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            out.append(contentsOf: bytes[start..<cut])
            out.append(contentsOf: [13, 10, 32])
            start = cut
            limit = 74
        }
        out.append(contentsOf: bytes[start...])
        out.append(contentsOf: [13, 10])
    }
}
