import Foundation

/// The vCard version to export: 3.0 for older address books (and Google's importer), 4.0 for
/// everything current.
public enum VCardVersion: String, Sendable, CaseIterable {
    case v3 = "3.0"
    case v4 = "4.0"
}

/// Writes contacts as vCards that other address books import, and that ``VCardReader`` reads
/// back to the same draft, so export → import → export gives the same bytes.
///
/// Output is deterministic: always the same properties in the same order, CRLF line endings,
/// lines folded at 75 octets without splitting a UTF-8 character, text values escaped. Empty
/// fields are left out. In order:
///
/// | Carnet | 4.0 | 3.0 |
/// |---|---|---|
/// | uid | `UID:urn:uuid:…` for a UUID, else `UID;VALUE=text:…` | `UID:…` |
/// | name | `FN` | `FN` |
/// | structured name | `N:family;given;additional;prefix;suffix` (always) | the same |
/// | nickname, title, role | `NICKNAME`, `TITLE`, `ROLE` | the same |
/// | organization, department | `ORG:organization;department` (a department with `;` is several units) | the same |
/// | emails | `EMAIL;TYPE=work;PREF=1:…` | `EMAIL;TYPE=work,pref:…` |
/// | phones | `TEL;VALUE=text;TYPE=cell:…` (the number as written) | `TEL;TYPE=cell:…` |
/// | addresses | `ADR;TYPE=home:PO box;extended;street;locality;region;postal code;country` | the same |
/// | URLs | `URL;TYPE=work:…` | the same |
/// | handles | `IMPP;X-SERVICE-TYPE=Skype:skype:…` for a messaging scheme, else `X-SOCIALPROFILE;TYPE=mastodon:…` | the same |
/// | first birthday | `BDAY:18151210` or `BDAY:--1210` | `BDAY:1815-12-10` or `BDAY:--12-10` |
/// | first anniversary | `ANNIVERSARY:…` | `X-ANNIVERSARY:1815-12-10` |
/// | other dates | `itemN.X-ABDATE:1815-12-10` + `itemN.X-ABLabel:label` | the same |
/// | note | `NOTE` (line breaks as `\n`) | the same |
/// | categories | `CATEGORIES:a,b` | the same |
/// | photo | `PHOTO:data:image/jpeg;base64,…` | `PHOTO;ENCODING=b;TYPE=JPEG:…` |
/// | extras | each line as it is | the same |
/// | updated at | `REV:20261123T085507Z` (to the second) | the same |
///
/// A label made of vCard types is written as `TYPE=`; any other label puts the property in an
/// `itemN.` group with an `itemN.X-ABLabel` (see ``VCardLabels``). Group numbers skip the groups
/// the extras use, so a kept `item1.X-ABLabel` never labels a different property.
public enum VCardWriter {
    /// The `PRODID` Carnet writes.
    public static let productID = "-//Carnet//Carnet//EN"

    /// One vCard, `BEGIN:VCARD` to `END:VCARD`, each line ending in CRLF.
    public static func card(uid: String?, draft: ContactDraft, updatedAt: Date?, version: VCardVersion = .v4) -> String {
        var card = CardText(version: version, extras: draft.extras)
        card.line("BEGIN:VCARD")
        card.line("VERSION:" + version.rawValue)
        card.line("PRODID:" + productID)
        if let uid, !uid.isEmpty {
            switch version {
            case .v3: card.line("UID:" + VCardText.escape(uid))
            case .v4:
                card.line(VCardText.isUUID(uid.utf8) ? "UID:urn:uuid:" + uid : "UID;VALUE=text:" + VCardText.escape(uid))
            }
        }
        card.line("FN:" + VCardText.escape(draft.name))
        let n = draft.nameParts
        card.line("N:" + [n.family, n.given, n.additional, n.prefix, n.suffix].map(VCardText.escape).joined(separator: ";"))
        card.text("NICKNAME", draft.nickname)
        if !draft.organization.isEmpty || !draft.department.isEmpty {
            var units = [draft.organization]
            if !draft.department.isEmpty { units += draft.department.split(separator: ";", omittingEmptySubsequences: false).map(String.init) }
            card.line("ORG:" + units.map(VCardText.escape).joined(separator: ";"))
        }
        card.text("TITLE", draft.title)
        card.text("ROLE", draft.role)
        for email in draft.emails {
            card.entry("EMAIL", label: email.label, preferred: email.preferred, kind: .email, value: VCardText.escape(email.value))
        }
        for phone in draft.phones {
            card.entry(
                "TEL", label: phone.label, preferred: phone.preferred, kind: .phone, value: VCardText.escape(phone.value),
                parameters: version == .v4 ? ["VALUE=text"] : [])
        }
        for address in draft.addresses {
            let parts = [address.poBox, address.extended, address.street, address.locality, address.region, address.postalCode, address.country]
            card.entry(
                "ADR", label: address.label, preferred: address.preferred, kind: .address,
                value: parts.map(VCardText.escape).joined(separator: ";"))
        }
        for url in draft.urls {
            card.entry("URL", label: url.label, preferred: url.preferred, kind: .url, value: VCardText.escape(url.value))
        }
        for handle in draft.handles {
            if let service = VCardLabels.messagingSchemes[handle.label] {
                card.entry(
                    "IMPP", label: "", preferred: handle.preferred, kind: .handle,
                    value: handle.label + ":" + VCardText.escape(handle.value),
                    parameters: ["X-SERVICE-TYPE=" + VCardText.parameterValue(service)])
            } else {
                card.entry(
                    "X-SOCIALPROFILE", label: "", preferred: handle.preferred, kind: .handle, value: VCardText.escape(handle.value),
                    parameters: handle.label.isEmpty ? [] : ["TYPE=" + VCardText.parameterValue(handle.label)])
            }
        }
        var wroteBirthday = false
        var wroteAnniversary = false
        for date in draft.dates {
            if date.label == ContactDate.birthday, !wroteBirthday {
                wroteBirthday = true
                card.line("BDAY:" + (version == .v4 ? VCardDate.basic(date) : VCardDate.extended(date)))
            } else if date.label == ContactDate.anniversary, !wroteAnniversary {
                wroteAnniversary = true
                card.line(version == .v4 ? "ANNIVERSARY:" + VCardDate.basic(date) : "X-ANNIVERSARY:" + VCardDate.extended(date))
            } else if date.label.isEmpty {
                card.line("X-ABDATE:" + VCardDate.extended(date))
            } else {
                let group = card.nextGroup()
                card.line(group + ".X-ABDATE:" + VCardDate.extended(date))
                card.line(group + ".X-ABLabel:" + VCardText.escape(VCardLabels.abLabel(for: date.label, kind: .date)))
            }
        }
        if !draft.note.isEmpty { card.line("NOTE:" + VCardText.escape(draft.note)) }
        if !draft.categories.isEmpty { card.line("CATEGORIES:" + draft.categories.map(VCardText.escape).joined(separator: ",")) }
        if let photo = draft.photo, !photo.isEmpty {
            let kind = ImageKind(of: photo)
            switch version {
            case .v3:
                let type = kind.map { ";TYPE=" + $0.rawValue.uppercased() } ?? ""
                card.line("PHOTO;ENCODING=b\(type):" + photo.base64EncodedString())
            case .v4:
                let media = kind.map { "image/" + $0.rawValue } ?? "application/octet-stream"
                card.line("PHOTO:data:\(media);base64," + photo.base64EncodedString())
            }
        }
        for extra in draft.extras { card.line(extra) }
        if let updatedAt { card.line("REV:" + InterchangeDate.basic(updatedAt)) }
        card.line("END:VCARD")
        return String(decoding: card.bytes, as: UTF8.self)
    }

    /// One vCard for a record, as ``card(uid:draft:updatedAt:version:)``.
    public static func card(_ record: InterchangeRecord, version: VCardVersion = .v4) -> String {
        card(uid: record.uid, draft: record.draft, updatedAt: record.updatedAt, version: version)
    }

    /// One vCard for a saved contact.
    public static func card(contact: Contact, version: VCardVersion = .v4) -> String {
        card(uid: contact.uid, draft: contact.draft, updatedAt: contact.updatedAt, version: version)
    }

    /// Appends `line` and CRLF, folded so no line is longer than 75 octets and no UTF-8
    /// character is cut (RFC 6350 section 3.2).
    static func fold(_ line: String, into out: inout [UInt8]) {
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

/// The lines of one card as they are written, and the `itemN.` groups they use.
private struct CardText {
    let version: VCardVersion
    var bytes: [UInt8] = []
    /// The groups the extras use, lower-cased: never given to another property.
    private let taken: Set<String>
    private var groups = 0

    init(version: VCardVersion, extras: [String]) {
        self.version = version
        var taken: Set<String> = []
        for extra in extras {
            let name = extra.utf8.prefix { $0 != 58 && $0 != 59 }
            if let dot = name.lastIndex(of: 46) {
                taken.insert(String(decoding: extra.utf8[..<dot].map(asciiLower), as: UTF8.self))
            }
        }
        self.taken = taken
        bytes.reserveCapacity(512 + extras.reduce(0) { $0 + $1.utf8.count })
    }

    mutating func line(_ text: String) { VCardWriter.fold(text, into: &bytes) }

    /// A one-value text property, left out when empty.
    mutating func text(_ name: String, _ value: String) {
        if !value.isEmpty { line(name + ":" + VCardText.escape(value)) }
    }

    /// The next `itemN` no extra uses.
    mutating func nextGroup() -> String {
        while true {
            groups += 1
            let group = "item\(groups)"
            if !taken.contains(group) { return group }
        }
    }

    /// An entry of a list: its label as `TYPE=` or as an `X-ABLabel` in a group, its preference
    /// as `PREF=1` (4.0) or `TYPE=pref` (3.0). `value` is already escaped.
    mutating func entry(
        _ name: String, label: String, preferred: Bool, kind: EntryKind, value: String, parameters: [String] = []
    ) {
        var types: [String] = []
        var group: String?
        if !label.isEmpty {
            if let values = VCardLabels.typeValues(for: label, kind: kind) {
                types = values
            } else {
                group = nextGroup()
            }
        }
        var parameters = parameters
        if preferred, version == .v3 { types.append("pref") }
        if !types.isEmpty { parameters.append("TYPE=" + types.joined(separator: ",")) }
        if preferred, version == .v4 { parameters.append("PREF=1") }
        let prefix = group.map { $0 + "." } ?? ""
        line(prefix + name + parameters.map { ";" + $0 }.joined() + ":" + value)
        if let group { line(group + ".X-ABLabel:" + VCardText.escape(VCardLabels.abLabel(for: label, kind: kind))) }
    }
}
