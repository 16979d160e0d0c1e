import CarnetModels
import Foundation

/// The vCard version to export: 4.0 for everything current, 3.0 for older address books (and
/// Google's importer), 2.1 for old phones and Outlook.
public enum VCardVersion: String, Sendable, CaseIterable {
    case v3 = "3.0"
    case v4 = "4.0"
    case v21 = "2.1"

    /// The version a card says it is (its first `VERSION` line), nil when it names none Carnet
    /// writes. A card another client made goes back in its own version, so that client sees
    /// only the change, not every line rewritten in another version.
    public init?(of card: String) {
        for line in card.split(whereSeparator: \.isNewline).prefix(64) where String(line).hasASCIIPrefixIgnoringCase("VERSION:") {
            self.init(rawValue: line.dropFirst(8).trimmingCharacters(in: .whitespaces))
            return
        }
        return nil
    }
}

/// Writes contacts as vCards that other address books import, and that `VCardReader` reads
/// back to the same draft, so export → import → export gives the same bytes.
///
/// Output is deterministic: always the same properties in the same order, CRLF line endings,
/// lines folded at 75 octets without splitting a UTF-8 character, text values escaped. Empty
/// fields are left out. In order:
///
/// | Carnet | 4.0 | 3.0 | 2.1 |
/// |---|---|---|---|
/// | uid | `UID:…` as it came (`UID;VALUE=text:…` when it needs escapes) | `UID:…` | `UID:…` |
/// | name | `FN` | `FN` | `FN` |
/// | structured name | `N:family;given;additional;prefix;suffix` (always) | the same | the same |
/// | each text field described as a property of its own (`ContactFields/vCardText`: nickname, title, role, …), at its place in `ContactFields/all` | its property (`NICKNAME`) | its older name where the description gives one (`X-…`), else the same | as 3.0 |
/// | organization, department | `ORG:organization;department` (each part escaped: `ORG:Smith\; Jones LLP;Sales\; EMEA`) | the same | the same |
/// | emails | `EMAIL;TYPE=work;PREF=1:…` | `EMAIL;TYPE=work,pref:…` | `EMAIL;INTERNET;WORK;PREF:…` |
/// | phones | `TEL;VALUE=text;TYPE=cell:…` (the number as written) | `TEL;TYPE=cell:…` | `TEL;CELL:…` |
/// | addresses | `ADR;TYPE=home:PO box;extended;street;locality;region;postal code;country` | the same | `ADR;HOME:…` |
/// | URLs | `URL;TYPE=work:…` | the same | `URL;WORK:…` |
/// | handles | `IMPP;X-SERVICE-TYPE=Skype:skype:…` for a messaging scheme, else `X-SOCIALPROFILE;TYPE=mastodon:…` | the same | the same |
/// | first birthday | `BDAY:18151210` or `BDAY:--1210` | `BDAY:1815-12-10` or `BDAY:--12-10` | as 3.0 |
/// | first anniversary | `ANNIVERSARY:…` | `X-ANNIVERSARY:1815-12-10` | as 3.0 |
/// | other dates | `itemN.X-ABDATE:1815-12-10` + `itemN.X-ABLabel:label` | the same | the same |
/// | note | `NOTE` (line breaks as `\n`) | the same | quoted-printable, line breaks as `=0D=0A` |
/// | categories | `CATEGORIES:a,b` | the same | the same |
/// | each entry of each list of labelled values described as a property of its own (`ContactFields/vCardLists`), in `ContactFields/all` order | its property, the label as the mapping's label parameter (`;<parameter>=label`, left out when empty), `PREF=1` | its older name where the description gives one, else the same (a reader takes it in any version), `TYPE=pref` | as 3.0 but a bare `PREF` |
/// | photo | `PHOTO:data:image/jpeg;base64,…` | `PHOTO;ENCODING=b;TYPE=JPEG:…` | `PHOTO;ENCODING=BASE64;TYPE=JPEG:…` and a blank line |
/// | extras | each line as it is, in 3.0 and 4.0 syntax (see `extra(_:version:)`) | the same | as it came; quoted-printable broken with soft line breaks |
/// | updated at | `REV:20261123T085507Z` (to the second) | the same | the same |
///
/// A label made of vCard types is written as `TYPE=` (bare in 2.1); any other label puts the
/// property in an `itemN.` group with an `itemN.X-ABLabel` (see `VCardLabels`). Group numbers
/// skip the groups the extras use, so a kept `item1.X-ABLabel` never labels a different property.
///
/// 2.1 has no escapes but `\;` and no UTF-8 by default: a value with a character outside ASCII,
/// a line break, or too long for one line is written `CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE`,
/// broken with soft line breaks rather than folded.
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
            if version == .v4 {
                // Byte for byte as it came, in every version: a UID another client gave the card
                // (`UID:X`, `UID:urn:uuid:X`) written any other way is another card to that client.
                // Only a value that needs escapes is marked as text.
                let plain = VCardText.escape(uid) == uid
                card.line(plain ? "UID:" + uid : "UID;VALUE=text:" + VCardText.escape(uid))
            } else {
                card.property("UID", card.escape(uid))
            }
        }
        // A group goes out in the form it came in, so the program that made it keeps it a group;
        // one made here takes the form of the version written (Apple's is a 3.0 card's).
        let groupForm = draft.kind == .group ? draft.groupForm ?? (version == .v4 ? .vcard4 : .apple) : nil
        // A group that came with both forms' markers goes out with both, members and all: a
        // reader of either form (khard reads only KIND) keeps it a group.
        let groupForms = groupForm.map { form in [form] + GroupForm.allCases.filter { $0 != form && card.keptMarker(of: $0) } } ?? []
        for form in groupForms { card.line(VCardForms.groupMarker(form) + ":group") }
        // A value read in a form Carnet has no field for goes back in that form (see VCardForms).
        if !card.kept(["FN"], .text, { VCardForms.says($0, text: draft.name) }) {
            card.property("FN", card.escape(draft.name))
        }
        let n = draft.nameParts
        let nameParts = [n.family, n.given, n.additional, n.prefix, n.suffix]
        if !card.kept(["N"], .components(5), { VCardForms.says($0, components: nameParts) }) {
            card.property("N", nameParts.map(card.escape).joined(separator: ";"))
        }
        let organization = ContactFields.all.firstIndex { $0.field == .organization } ?? 0
        // The text fields that are a property of their own (``ContactFields/vCardText``), at
        // their place in the description: those before the organization here, the rest after ORG.
        for (spec, _, vCard) in ContactFields.vCardText where (ContactFields.all.firstIndex { $0 === spec } ?? 0) < organization {
            card.described(vCard, spec.string(of: draft))
        }
        if !draft.organization.isEmpty || !draft.department.isEmpty {
            // The department is one unit: a `;` in it is text, escaped like every component's.
            let units = draft.department.isEmpty ? [draft.organization] : [draft.organization, draft.department]
            if !card.kept(["ORG"], .components(units.count), { VCardForms.says($0, components: units) }) {
                card.property("ORG", units.map(card.escape).joined(separator: ";"))
            }
        }
        for (spec, _, vCard) in ContactFields.vCardText where (ContactFields.all.firstIndex { $0 === spec } ?? 0) > organization {
            card.described(vCard, spec.string(of: draft))
        }
        for email in draft.emails {
            card.entry(
                "EMAIL", label: email.label, preferred: email.preferred, kind: .email, value: card.escape(email.value),
                parameters: version == .v21 ? ["INTERNET"] : [])
        }
        for phone in draft.phones {
            card.entry(
                "TEL", label: phone.label, preferred: phone.preferred, kind: .phone, value: card.escape(phone.value),
                parameters: version == .v4 ? ["VALUE=text"] : [])
        }
        for address in draft.addresses {
            let parts = [address.poBox, address.extended, address.street, address.locality, address.region, address.postalCode, address.country]
            card.entry(
                "ADR", label: address.label, preferred: address.preferred, kind: .address,
                value: parts.map(card.escape).joined(separator: ";"))
        }
        for url in draft.urls {
            card.entry("URL", label: url.label, preferred: url.preferred, kind: .url, value: card.escape(url.value))
        }
        for handle in draft.handles {
            if card.keptLine(VCardLabels.vendorMessagingNames, { form in
                VCardLabels.vendorMessaging[form.name].map { VCardForms.says(form, handle: handle, service: $0) } ?? false
            }) {
                continue
            }
            if let service = VCardLabels.messagingSchemes[handle.label] {
                card.entry(
                    "IMPP", label: "", preferred: handle.preferred, kind: .handle,
                    value: handle.label + ":" + card.escape(handle.value),
                    parameters: ["X-SERVICE-TYPE=" + VCardText.parameterValue(service)])
            } else {
                card.entry(
                    "X-SOCIALPROFILE", label: "", preferred: handle.preferred, kind: .handle, value: card.escape(handle.value),
                    parameters: handle.label.isEmpty ? [] : ["TYPE=" + VCardText.parameterValue(handle.label)])
            }
        }
        var wroteBirthday = false
        var wroteAnniversary = false
        for date in draft.dates {
            if date.label == ContactDate.birthday, !wroteBirthday {
                wroteBirthday = true
                if !card.kept(["BDAY"], .asItCame(date), { VCardForms.says($0, date) }) {
                    card.line("BDAY:" + (version == .v4 ? VCardDate.basic(date) : VCardDate.extended(date)))
                }
            } else if date.label == ContactDate.anniversary, !wroteAnniversary {
                wroteAnniversary = true
                if !card.kept(VCardForms.vendorAnniversaries.union(["ANNIVERSARY", "X-ABDATE"]), .asItCame(date), { VCardForms.says($0, date) }) {
                    card.line(version == .v4 ? "ANNIVERSARY:" + VCardDate.basic(date) : "X-ANNIVERSARY:" + VCardDate.extended(date))
                }
            } else if date.label.isEmpty {
                card.line("X-ABDATE:" + VCardDate.extended(date))
            } else {
                let group = card.nextGroup()
                card.line(group + ".X-ABDATE:" + VCardDate.extended(date))
                card.property(group + ".X-ABLabel", card.escape(VCardLabels.abLabel(for: date.label, kind: .date)))
            }
        }
        card.text("NOTE", draft.note)
        if !draft.categories.isEmpty {
            card.property("CATEGORIES", draft.categories.map { card.escape($0, list: true) }.joined(separator: ","))
        }
        // The lists described as a property an entry (``ContactFields/vCardLists``), at their
        // place in the description, after the lists written here by hand.
        for (spec, keyPath, vCard) in ContactFields.vCardLists {
            guard let kind = spec.list?.kind else { continue }
            for entry in draft[keyPath: keyPath] { card.described(vCard, kind: kind, entry) }
        }
        for form in groupForms {
            let name = form == .vcard4 ? "MEMBER:" : "X-ADDRESSBOOKSERVER-MEMBER:"
            for member in draft.members { card.line(name + GroupMember.reference(member)) }
        }
        if let photo = draft.photo, !photo.isEmpty {
            let kind = ImageKind(of: photo)
            switch version {
            case .v3:
                let type = kind.map { ";TYPE=" + $0.rawValue.uppercased() } ?? ""
                card.line("PHOTO;ENCODING=b\(type):" + photo.base64EncodedString())
            case .v4:
                let media = kind.map { "image/" + $0.rawValue } ?? "application/octet-stream"
                card.line("PHOTO:data:\(media);base64," + photo.base64EncodedString())
            case .v21:
                // 2.1 ends a base64 value with a blank line.
                let type = kind.map { ";TYPE=" + $0.rawValue.uppercased() } ?? ""
                card.line("PHOTO;ENCODING=BASE64\(type):" + photo.base64EncodedString())
                card.line("")
            }
        }
        for extra in draft.extras { card.extra(extra) }
        if let updatedAt { card.line("REV:" + InterchangeDate.basic(updatedAt)) }
        card.line("END:VCARD")
        return String(decoding: card.bytes, as: UTF8.self)
    }

    /// One vCard for a record, as `card(uid:draft:updatedAt:version:)`.
    public static func card(_ record: InterchangeRecord, version: VCardVersion = .v4) -> String {
        card(uid: record.uid, draft: record.draft, updatedAt: record.updatedAt, version: version)
    }

    /// One vCard for a saved contact.
    public static func card(contact: Contact, version: VCardVersion = .v4) -> String {
        card(uid: contact.uid, draft: contact.draft, updatedAt: contact.updatedAt, version: version)
    }

    /// `card` (one vCard as this writer makes it) with its properties in the order `previous`
    /// has them: a card another client wrote goes back with only what changed, not every line
    /// moved to Carnet's order. A property `previous` does not have follows the line it follows
    /// here; lines of one property keep their order. Each line keeps its folding.
    public static func card(_ card: String, orderedLike previous: String) -> String {
        var rank: [String: Int] = [:]
        for (index, line) in logicalLines(previous).enumerated() where rank[propertyKey(line)] == nil {
            rank[propertyKey(line)] = index
        }
        var last = -1
        var placed: [(rank: Int, index: Int, line: Substring)] = []
        for (index, line) in logicalLines(card).enumerated() {
            let key = propertyKey(line)
            // BEGIN first and END last, whatever the other card had between.
            let own = key == "BEGIN" ? Int.min : key == "END" ? Int.max : rank[key] ?? last
            if key != "END" { last = own }
            placed.append((own, index, line))
        }
        placed.sort { ($0.rank, $0.index) < ($1.rank, $1.index) }
        return placed.map { $0.line + "\r\n" }.joined()
    }

    /// What `card(uid:draft:updatedAt:version:)` writes of `draft`'s kept lines in another form
    /// than they are kept in, one printable sentence each, for `export --verbose`: a line
    /// re-encoded for the version, a name made valid, a `PROFILE` left out. Empty when every
    /// kept line goes out as it is.
    public static func conversions(of draft: ContactDraft, version: VCardVersion) -> [String] {
        var said: [String] = []
        for kept in draft.extras {
            var line = kept
            if kept.hasPrefix(VCardForms.prefix) {
                // A handle's line is written as an unmodelled line is (a kept date or text form
                // is written in the property's own syntax, which says the same).
                line = String(kept.dropFirst(VCardForms.prefix.count))
                guard let form = try? VCardProperty(Array(line.utf8), line: 1), VCardLabels.vendorMessagingNames.contains(form.name) else { continue }
            }
            if isProfileLine(line) {
                said.append("\(shown(line)) not written: it only says this is a vCard")
                continue
            }
            let written = extra(line, version: version)
            if written != line { said.append("\(shown(line)) written as \(shown(written))") }
        }
        return said
    }

    private static func shown(_ line: String) -> String {
        var text = line
        if text.unicodeScalars.count > 60 { text = String(String.UnicodeScalarView(text.unicodeScalars.prefix(59))) + "…" }
        return TextRules.escapedForDisplay(text)
    }

    /// A line kept verbatim in `ContactDraft/extras`, in the syntax of `version`.
    ///
    /// Kept lines are stored as the source wrote them, so a card imported from 2.1 goes back out
    /// as 2.1 the way it came. Written as 3.0 or 4.0, a line in 2.1's syntax is re-encoded, the
    /// value unchanged: a quoted-printable value and a `CHARSET` decoded to UTF-8 (line breaks
    /// as `\n`), `ENCODING=BASE64` written `ENCODING=b` in 3.0 and as a `data:` URI in 4.0, bare
    /// types (`LABEL;WORK`) as `TYPE=WORK`. A name no vCard version allows
    /// (`X-messaging/gadu-All`) is written, in every version, as an `X-` name with each other
    /// character made `-`, the original in `X-CARNET-NAME`: `X-messaging-gadu-All;X-CARNET-NAME=
    /// X-messaging/gadu-All:…`. Base64 that cannot be decoded (a truncated export) is written as
    /// text with `X-CARNET-ENCODING=BASE64`, so a strict reader still reads the card. Every other
    /// line is written exactly as it is.
    static func extra(_ text: String, version: VCardVersion) -> String {
        guard let property = try? VCardProperty(Array(text.utf8), line: 1) else { return text }
        let head = property.bytes[..<(property.value.startIndex - 1)]
        let nameEnd = head.firstIndex { $0 == 59 || $0 == 58 } ?? head.endIndex
        let fullName = String(decoding: head[..<nameEnd], as: UTF8.self)
        let validName = fullName.utf8.allSatisfy(isNameByte)
        let bare = property.parameters.contains { !property.bytes[$0.range].contains(61) }
        let encoded = property.parameters.contains { $0.name == "CHARSET" || $0.name == "ENCODING" }
        if validName && (version == .v21 || (!bare && !encoded)) { return text }
        if version == .v21 || (!bare && !encoded) {
            // Only the name needs mending.
            return renamed(fullName) + String(decoding: property.bytes[nameEnd...], as: UTF8.self)
        }
        var parameters: [String] = []
        var types: [String] = []
        var typeSlot: Int?  // where the bare types go, as one TYPE=
        var base64 = false
        for parameter in property.parameters {
            let written = String(decoding: property.bytes[parameter.range], as: UTF8.self)
            switch parameter.name {
            case "CHARSET":
                continue
            case "ENCODING":
                let encoding = parameter.values.first?.asciiLowercased ?? ""
                if encoding == "b" || encoding == "base64" {
                    base64 = true
                    if version == .v3 { parameters.append("ENCODING=b") }
                } else if !["quoted-printable", "8bit", "7bit"].contains(encoding) {
                    parameters.append(written)
                }
            case "TYPE" where !property.bytes[parameter.range].contains(61):
                if typeSlot == nil {
                    typeSlot = parameters.count
                    parameters.append("")
                }
                types += parameter.values
            default:
                parameters.append(written)
            }
        }
        var value: String
        if base64, property.inlineData() == nil {
            // Base64 no reader can decode (a truncated export) would make a strict reader give up
            // on the whole card: it is carried as text, its encoding named in a parameter.
            parameters.removeAll { $0 == "ENCODING=b" }
            parameters.append("X-CARNET-ENCODING=BASE64")
            value = VCardText.trimmed(InterchangeText.string(property.value))
        } else if base64 {
            let data = property.inlineData()
            let payload = data?.base64EncodedString() ?? VCardText.trimmed(InterchangeText.string(property.value))
            if version == .v4 {
                // 4.0 has no ENCODING: the media type goes in the URI, from a 2.1 type like JPEG.
                let top = ["PHOTO": "image", "LOGO": "image", "SOUND": "audio"][property.name]
                var media = "application/octet-stream"
                if let top, let format = types.first(where: { $0.utf8.allSatisfy { isNameByte($0) && $0 != 45 } }) {
                    media = top + "/" + format.asciiLowercased
                    types.removeAll { $0 == format }
                } else if let top, let data, let kind = ImageKind(of: data), top == "image" {
                    media = "image/" + kind.rawValue
                }
                value = "data:" + media + ";base64," + payload
            } else {
                value = payload
            }
        } else if encoded {
            value = property.rawText()
            if value.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
                value = value.replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\n")
                    .replacingOccurrences(of: "\n", with: "\\n")
            }
        } else {
            value = InterchangeText.string(property.value)
        }
        if let typeSlot {
            if types.isEmpty {
                parameters.remove(at: typeSlot)
            } else {
                parameters[typeSlot] = "TYPE=" + types.map(VCardText.parameterValue).joined(separator: ",")
            }
        }
        let name = validName ? fullName : renamed(fullName)
        return name + parameters.map { ";" + $0 }.joined() + ":" + value
    }

    /// Whether a kept line is RFC 2426's `PROFILE:VCARD`, which is not written back: it says only
    /// that the text is a vCard, and readers built on vobject (khard) take it for a second
    /// `BEGIN` and cannot read the card, or the vdir it is in. The import report says so.
    static func isProfileLine(_ text: String) -> Bool {
        guard text.utf8.count < 40, text.hasASCIIPrefixIgnoringCase("PROFILE") else { return false }
        guard let property = try? VCardProperty(Array(text.utf8), line: 1) else { return false }
        return property.name == "PROFILE" && property.group == nil && VCardText.trimmed(property.text()).asciiLowercased == "vcard"
    }

    /// The characters a property name (and group) may have in every version: letters, digits, `-`.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45 || byte == 46
    }

    /// `X-messaging/gadu-All` → `X-messaging-gadu-All;X-CARNET-NAME=X-messaging/gadu-All`: a valid
    /// `X-` name, and the name as it came in a parameter, so nothing of it is lost.
    private static func renamed(_ fullName: String) -> String {
        let dot = fullName.lastIndex(of: ".")
        let group = dot.map { String(fullName[..<$0]) }
        let name = dot.map { String(fullName[fullName.index(after: $0)...]) } ?? fullName
        func mend(_ text: String) -> String {
            String(decoding: text.utf8.map { isNameByte($0) && $0 != 46 ? $0 : 45 }, as: UTF8.self)
        }
        var valid = mend(name)
        if !valid.hasASCIIPrefixIgnoringCase("X-") { valid = "X-" + valid }
        let prefix = group.map { mend($0) + "." } ?? ""
        return prefix + valid + ";X-CARNET-NAME=" + VCardText.parameterValue(fullName)
    }

    /// The card's logical lines, each with its folded continuations (CRLF or LF line ends).
    private static func logicalLines(_ card: String) -> [Substring] {
        var lines: [Substring] = []
        for line in card.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\r\n" || $0 == "\n" }) {
            if let first = line.first, first == " " || first == "\t", let previous = lines.popLast() {
                lines.append(Substring(String(previous) + "\r\n" + line))
            } else {
                lines.append(line)
            }
        }
        return lines
    }

    /// A line's property name with its group, upper-cased (`ITEM1.EMAIL`, `TEL`).
    private static func propertyKey(_ line: Substring) -> String {
        String(line.prefix { $0 != ";" && $0 != ":" }).uppercased()
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
    /// The forms fields were read in.
    private var keptForms: VCardForms.Kept

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
        keptForms = VCardForms.Kept(extras: extras)
        bytes.reserveCapacity(512 + extras.reduce(0) { $0 + $1.utf8.count })
    }

    mutating func line(_ text: String) { VCardWriter.fold(text, into: &bytes) }

    /// A text value escaped for this version: RFC 6350's escapes for 3.0 and 4.0; for 2.1 only
    /// `\\`, `\;` (and `\,` in a list), line breaks left as CRLF for quoted-printable.
    func escape(_ text: String) -> String { escape(text, list: false) }

    func escape(_ text: String, list: Bool) -> String {
        guard version == .v21 else { return VCardText.escape(text) }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result.append(contentsOf: "\\\\".unicodeScalars)
            case ";": result.append(contentsOf: "\\;".unicodeScalars)
            case "," where list: result.append(contentsOf: "\\,".unicodeScalars)
            case "\n": result.append(contentsOf: "\r\n".unicodeScalars)
            case "\r": continue
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// `head:value` with `value` already escaped; in 2.1, quoted-printable when it must be.
    mutating func property(_ head: String, _ value: String) {
        guard version == .v21,
              value.utf8.contains(where: { $0 >= 0x80 || $0 == 10 || $0 == 13 }) || head.utf8.count + 1 + value.utf8.count > 75
        else {
            line(head + ":" + value)
            return
        }
        quotedPrintable(head + ";CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:", value)
    }

    /// A quoted-printable value with soft line breaks (`=` and CRLF) so no line is longer than
    /// 75 octets. A continuation never starts with a space or tab (which would read as a fold),
    /// and a value never ends in one (which readers strip): those are written `=20` and `=09`.
    private mutating func quotedPrintable(_ head: String, _ value: String) {
        quotedPrintable(head, Array(value.utf8))
    }

    /// The bytes of a value in whatever charset its `CHARSET` says, as quoted-printable.
    private mutating func quotedPrintable(_ head: String, _ bytes: [UInt8]) {
        let hex = Array("0123456789ABCDEF".utf8)
        var current = Array(head.utf8)
        for (index, byte) in bytes.enumerated() {
            let atEnd = index == bytes.count - 1
            let lineStart = current.isEmpty
            let literal = (byte > 32 && byte < 127 && byte != 61) || ((byte == 32 || byte == 9) && !atEnd && !lineStart)
            var token: [UInt8] = literal ? [byte] : [61, hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            if current.count + token.count > 74 {
                emit(current + [61])
                current = []
                if byte == 32 || byte == 9 { token = [61, hex[Int(byte >> 4)], hex[Int(byte & 15)]] }
            }
            current += token
        }
        emit(current)
    }

    private mutating func emit(_ line: [UInt8]) {
        bytes += line
        bytes += [13, 10]
    }

    /// A one-value text property, left out when empty; in its kept form while it says `value`.
    mutating func text(_ name: String, _ value: String) {
        if !value.isEmpty, !kept([name], .text, { VCardForms.says($0, text: value) }) { property(name, escape(value)) }
    }

    /// A text field described as a property of its own: its name in this version; a structured
    /// value's components each escaped (`GENDER:O;non-binary\; mostly`). A form it came in is
    /// kept under either of its names.
    mutating func described(_ vCard: VCardMapping, _ value: String) {
        guard !value.isEmpty else { return }
        let name = vCard.name(forVersion: version.rawValue)
        let names = Set(vCard.names)
        guard vCard.components > 1 else {
            if !kept(names, .text, { VCardForms.says($0, text: value) }) { property(name, escape(value)) }
            return
        }
        let parts = vCard.components(of: value)
        if !kept(names, .components(vCard.components), { VCardForms.says($0, components: parts) }) {
            property(name, parts.map(escape).joined(separator: ";"))
        }
    }

    /// An entry of a list described as a property of its own: its label as the mapping's label
    /// parameter (quoted and escaped as a parameter value is), or, for a mapping without one, as
    /// any list's label is; its preference as any list's.
    mutating func described(_ vCard: VCardMapping, kind: EntryKind, _ item: LabeledValue) {
        let name = vCard.name(forVersion: version.rawValue)
        guard let parameter = vCard.labelParameter else {
            entry(name, label: item.label, preferred: item.preferred, kind: kind, value: escape(item.value))
            return
        }
        let label = item.label.isEmpty ? [] : [parameter + "=" + VCardText.parameterValue(item.label)]
        entry(name, label: "", preferred: item.preferred, kind: kind, value: escape(item.value), parameters: label)
    }

    /// How a kept form's value is written.
    enum KeptValue {
        /// The line as it came (in this version's syntax): a date. Apple's `X-ABDATE` goes in a
        /// group of its own with its `_$!<Anniversary>!$_` label.
        case asItCame(ContactDate)
        /// Its text (trailing spaces and all), escaped as this writer escapes text.
        case text
        /// Its first `count` components, each escaped.
        case components(Int)
    }

    /// Writes the kept form of a field (see `VCardForms`) when one among `names` still says
    /// the field's value; false when there is none. A text form keeps its name and parameters
    /// (`LANGUAGE`) and its text; the text is escaped for this version, as Carnet writes text (a
    /// 2.1 `,` is not a list separator in 3.0).
    mutating func kept(_ names: Set<String>, _ kind: KeptValue, _ matches: (VCardProperty) -> Bool) -> Bool {
        guard let line = keptForms.take(names, matching: matches) else { return false }
        let rewritten = version == .v21 ? line : VCardWriter.extra(line, version: version)
        guard case let .asItCame(date) = kind else {
            guard let form = try? VCardProperty(Array(line.utf8), line: 1),
                  let written = try? VCardProperty(Array(rewritten.utf8), line: 1)
            else {
                extra(line)
                return true
            }
            var head = String(decoding: written.bytes.prefix { $0 != 58 && $0 != 59 }, as: UTF8.self)
            for parameter in written.parameters where parameter.name != "CHARSET" && parameter.name != "ENCODING" {
                head += ";" + String(decoding: written.bytes[parameter.range], as: UTF8.self)
            }
            switch kind {
            case .asItCame, .text:
                property(head, escape(form.text()))
            case let .components(count):
                var parts = Array(form.components().prefix(count))
                while parts.count < count { parts.append("") }
                property(head, parts.map(escape).joined(separator: ";"))
            }
            return true
        }
        if line.uppercased().contains("X-ABDATE"), let form = try? VCardProperty(Array(line.utf8), line: 1), form.name == "X-ABDATE" {
            let group = nextGroup()
            self.line(group + ".X-ABDATE:" + VCardDate.extended(date))
            property(group + ".X-ABLabel", escape(VCardLabels.abLabel(for: date.label, kind: .date)))
            return true
        }
        extra(line)
        return true
    }

    /// A line kept verbatim (see `VCardWriter/extra(_:version:)`); in 2.1, a quoted-printable
    /// value is broken with soft line breaks, never folded after a `=`.
    /// Writes the first unused kept line among `names` that `matches` as an unmodelled line is
    /// written (its name made valid where the version needs it); false if there is none.
    mutating func keptLine(_ names: Set<String>, _ matches: (VCardProperty) -> Bool) -> Bool {
        guard let line = keptForms.take(names, matching: matches) else { return false }
        extra(line)
        return true
    }

    mutating func extra(_ text: String) {
        if VCardWriter.isProfileLine(text) || text.hasPrefix(VCardForms.prefix) { return }
        let rewritten = VCardWriter.extra(text, version: version)
        if version == .v21, rewritten.utf8.count > 75, let property = try? VCardProperty(Array(rewritten.utf8), line: 1),
           property.isQuotedPrintable {
            softBroken(Array(property.bytes[..<(property.value.startIndex)]), Array(property.value))
        } else {
            line(rewritten)
        }
    }

    /// A quoted-printable value, its bytes as they are, broken with soft line breaks between its
    /// `=XX` and other characters so no line is longer than 75 octets (76 if a continuation would
    /// otherwise start with a space or tab, which would read as a fold).
    private mutating func softBroken(_ head: [UInt8], _ value: [UInt8]) {
        var current = head
        var i = 0
        while i < value.count {
            let length = value[i] == 61 && i + 2 < value.count ? 3 : 1
            let token = value[i..<(i + length)]
            if current.count + length > 74, !current.isEmpty, token.first != 32, token.first != 9 {
                emit(current + [61])
                current = []
            }
            current += token
            i += length
        }
        emit(current)
    }

    /// Whether the card came with `form`'s group marker besides its own form's (kept as a form
    /// line by the importer); the kept line is used up.
    mutating func keptMarker(of form: GroupForm) -> Bool {
        keptForms.take([VCardForms.groupMarker(form)]) { VCardText.trimmed($0.text()).lowercased() == "group" } != nil
    }

    /// The next `itemN` no extra uses.
    mutating func nextGroup() -> String {
        while true {
            groups += 1
            let group = "item\(groups)"
            if !taken.contains(group) { return group }
        }
    }

    /// An entry of a list: its label as `TYPE=` (bare in 2.1) or as an `X-ABLabel` in a group,
    /// its preference as `PREF=1` (4.0), `TYPE=pref` (3.0) or `PREF` (2.1). `value` is already
    /// escaped.
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
        switch version {
        case .v4:
            if !types.isEmpty { parameters.append("TYPE=" + types.joined(separator: ",")) }
            if preferred { parameters.append("PREF=1") }
        case .v3:
            if preferred { types.append("pref") }
            if !types.isEmpty { parameters.append("TYPE=" + types.joined(separator: ",")) }
        case .v21:
            parameters += types.map { $0.uppercased() }
            if preferred { parameters.append("PREF") }
        }
        let prefix = group.map { $0 + "." } ?? ""
        property(prefix + name + parameters.map { ";" + $0 }.joined(), value)
        if let group { property(group + ".X-ABLabel", escape(VCardLabels.abLabel(for: label, kind: kind))) }
    }
}
