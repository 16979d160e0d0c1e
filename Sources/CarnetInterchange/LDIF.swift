import CarnetModels
import Foundation

/// The LDIF attributes (RFC 2849) of an address book entry, as Thunderbird (`mozillaAbPersonAlpha`)
/// and Evolution export them, and the Carnet field each one fills.
///
/// | LDIF | Carnet |
/// |---|---|
/// | `cn` | name |
/// | `givenName`, `sn` | given and family name |
/// | `mozillaNickname` (`xmozillanickname`) | nickname (each text field's `ContactFieldSpec/ldif` attribute) |
/// | `mail`, `mozillaSecondEmail` (`xmozillasecondemail`) | emails |
/// | `telephoneNumber`, `homePhone`, `mobile`, `facsimileTelephoneNumber`, `pager` | phones `work`, `home`, `cell`, `fax`, `pager` |
/// | `street`, `mozillaWorkStreet2`, `l`, `st`, `postalCode`, `c` | the `work` address |
/// | `mozillaHomeStreet`, `mozillaHomeStreet2`, `mozillaHomeLocalityName`, `mozillaHomeState`, `mozillaHomePostalCode`, `mozillaHomeCountryName` | the `home` address |
/// | `title`, `ou`, `o` | title, department, organization |
/// | `mozillaWorkUrl` (`workurl`), `mozillaHomeUrl` (`homeurl`) | URLs `work`, `home` |
/// | `birthyear`, `birthmonth`, `birthday` | the birthday |
/// | `anniversary` (abook's) | the anniversary |
/// | `description` | note |
/// | `uid` | the contact's UID, so a re-import updates the contact instead of adding it again |
///
/// abook's LDIF names its one address and its mobile as Netscape did (`streetaddress`,
/// `streetaddress2`, `locality`, `countryname`, `cellphone`): read as the `work` address and
/// the `cell` phone, as `st` and `postalcode` beside them are.
///
/// `dn` is made again from the name and first email on export, and `objectclass` from the kind
/// of entry, so neither is kept. A mailing list (`objectclass: groupOfNames`, as Thunderbird
/// exports one) is read as a group; its `member` values name the members by DN
/// (`cn=Ada Lovelace,mail=ada@example.com`): a member whose DN is an entry's of the same file
/// is that entry's contact (by the UID the import gives it), one named by no entry of the file
/// is kept as it came. An export names each member by the DN its own entry gets in the file.
/// Any other attribute, and a value Carnet's rules refuse, is kept as an extras line
/// `X-LDIF;X-ATTRIBUTE=custom1:value` (with a note), and written back under its own name.
enum LDIFAttributes {
    /// The text fields LDIFWriter and LDIFReader handle by their own attributes (`cn`, `sn`, `o`)
    /// or report by hand.
    private static let byHand: Set<Field> = [.name, .prefix, .given, .additional, .family, .suffix, .organization, .department, .title, .role, .note]

    /// The other text fields with an attribute (`ContactFieldSpec/ldif`), in description order.
    static let written: [(spec: ContactFieldSpec, keyPath: WritableKeyPath<ContactDraft, String> & Sendable)] =
        ContactFields.text.filter { !byHand.contains($0.spec.field) && $0.spec.ldif != nil }

    /// The other text fields, which LDIF has no attribute for: an export names them as not written.
    static let notWritten: [ContactFieldSpec] = ContactFields.text.map(\.spec).filter { !byHand.contains($0.field) && $0.ldif == nil }

    /// The lists of labelled values LDIFWriter writes by hand (some of their entries).
    private static let listsByHand: Set<Field> = [.email, .phone, .url, .handle]

    /// The other lists of labelled values (``DraftField/labeledValues``), which LDIF has no
    /// attribute for: an export names them as not written, from their entries alone.
    static let listsNotWritten: [(spec: ContactFieldSpec, keyPath: WritableKeyPath<ContactDraft, [LabeledValue]> & Sendable)] =
        ContactFields.all.compactMap { spec in
            guard let keyPath = spec.labeledValues, !listsByHand.contains(spec.field) else { return nil }
            return (spec, keyPath)
        }

    /// `written`'s fields by attribute, lower-cased as the reader compares names.
    static let described: [String: (ContactFieldSpec, WritableKeyPath<ContactDraft, String> & Sendable)] = Dictionary(
        written.map { (($0.spec.ldif ?? "").lowercased(), ($0.spec, $0.keyPath)) }, uniquingKeysWith: { first, _ in first })

    /// Each phone attribute, as written, and the label of its phone.
    static let phones: [(attribute: String, label: String)] = [
        ("telephoneNumber", "work"), ("homePhone", "home"), ("mobile", "cell"), ("facsimileTelephoneNumber", "fax"),
        ("pager", "pager"),
    ]
    /// The parts of an address, in the order each block of `addresses` names them.
    static let addressParts: [WritableKeyPath<PostalAddress, String> & Sendable] = [
        \.street, \.extended, \.locality, \.region, \.postalCode, \.country,
    ]
    /// The two address blocks: the same parts under other attribute names.
    static let addresses: [(label: String, attributes: [String])] = [
        ("work", ["street", "mozillaWorkStreet2", "l", "st", "postalCode", "c"]),
        ("home", [
            "mozillaHomeStreet", "mozillaHomeStreet2", "mozillaHomeLocalityName", "mozillaHomeState", "mozillaHomePostalCode",
            "mozillaHomeCountryName",
        ]),
    ]
    /// Older Thunderbird names, and abook's, for the same attributes (all in lower case).
    static let aliases: [String: String] = [
        "xmozillanickname": "mozillanickname", "xmozillasecondemail": "mozillasecondemail", "workurl": "mozillaworkurl",
        "homeurl": "mozillahomeurl", "fax": "facsimiletelephonenumber", "mozillaworkstreet": "street",
        "homepostaladdress": "mozillahomestreet", "postofficebox": "street", "cellphone": "mobile", "streetaddress": "street",
        "streetaddress2": "mozillaworkstreet2", "locality": "l", "countryname": "c",
    ]
    static let extraPrefix = "X-LDIF;X-ATTRIBUTE="
}

/// A mailing list's `member` value: the attribute as written, the member's DN, its line.
typealias LDIFMember = (name: String, dn: String, line: Int)

/// Reads LDIF (RFC 2849): entries separated by blank lines, `name: value`, `name:: base64`,
/// continuation lines starting with a space, `#` comments, an optional `version: 1`. Each entry
/// becomes a record (see `LDIFAttributes` for what maps).
///
/// A change record (`changetype: delete`, `modify`, `modrdn` or `moddn`) says what to do to a
/// directory, not what an entry holds: it is an error naming its line as a change record Carnet
/// does not read, and reading goes on with the next record. A `changetype: add` record holds
/// the whole entry it adds, and is read as that entry.
///
/// A mailing list names its members by DN, and Thunderbird writes the list before them: a list
/// with members is held until the end of the file, when every DN of the file is known, and
/// handed out by `finishAll()` after the other entries. The reader keeps each entry's DN and
/// UID (not the entry) to find them by.
public struct LDIFReader: InterchangeReader, LineConsumingReader {
    var splitter = LineSplitter()
    private var lineNumber = 0
    private var attributes: [(name: String, value: String, line: Int)] = []
    private var entryLine = 0
    private var pending: [UInt8]?
    private var pendingLine = 0
    private var inComment = false
    /// Inside a change record already named as not read: its lines (`replace: mail`, `-`) are
    /// passed over to the blank line that ends it.
    private var inChangeRecord = false
    /// The UID each entry's contact gets on import, by the entry's DN (as `dnKey(_:)` compares
    /// them); the first entry of a DN wins. Only the DNs of `memberDNs`, when it was given.
    private var uidsByDN: [String: String] = [:]
    /// The mailing lists read so far with their members' DNs, held until the end of the file.
    private var heldGroups: [(record: InterchangeRecord, members: [LDIFMember])] = []
    private let memberDNs: Set<String>?

    /// `memberDNs`: the DNs the file's mailing lists name (``LDIFMemberScan``, as `dnKey(_:)`
    /// writes them), when the file could be read ahead; the reader then keeps the UIDs of those
    /// entries only, not of every entry of a million-entry file. Nil keeps every entry's.
    public init(memberDNs: Set<String>?) {
        self.memberDNs = memberDNs
    }

    public init() { memberDNs = nil }

    mutating func consume(_ raw: [UInt8]) throws(InterchangeError) -> InterchangeRecord? {
        lineNumber += 1
        var line = raw
        while line.last == 13 { line.removeLast() }
        if line.first == 32 {
            if inComment { return nil }
            guard pending != nil else { throw InterchangeError(line: lineNumber, message: "a continuation line with no attribute before it") }
            pending! += line.dropFirst()
            return nil
        }
        let blank = line.allSatisfy { $0 == 32 || $0 == 9 }
        if inChangeRecord {
            if blank { inChangeRecord = false }
            return nil
        }
        do {
            try flush()
        } catch {
            // The blank line that ended the record the error is in: the next record starts
            // after it, clean.
            if blank {
                inChangeRecord = false
                attributes = []
            }
            throw error
        }
        inComment = false
        if blank { return entry() }
        if line.first == 35 {
            inComment = true
            return nil
        }
        pending = line
        pendingLine = lineNumber
        return nil
    }

    mutating func checkComplete() throws(InterchangeError) {}

    /// Ends the input and returns the entry the end completed; the mailing lists held until
    /// the end come from `finishAll()`, which calls this.
    @discardableResult
    public mutating func finish() throws(InterchangeError) -> InterchangeRecord? {
        var record: InterchangeRecord?
        if let last = splitter.flush() { record = try consume(last) }
        if inChangeRecord { return record }
        try flush()
        if let last = entry() { record = last }
        return record
    }

    /// Ends the input: the entry the end completed, then the mailing lists held until now,
    /// each member named by the DN of an entry of the file read as that entry's UID.
    public mutating func finishAll() throws(InterchangeError) -> [InterchangeRecord] {
        var records = try finish().map { [$0] } ?? []
        for (group, members) in heldGroups {
            var record = group
            for (name, dn, line) in members {
                if let uid = uidsByDN[Self.dnKey(dn)] {
                    if !record.draft.members.contains(uid) { record.draft.members.append(uid) }
                } else {
                    record.draft.extras.append(LDIFAttributes.extraPrefix + VCardText.parameterValue(name) + ":" + VCardText.escape(dn))
                    record.notes.append(InterchangeNote(
                        line: line, message: "member \"\(dn.shownBriefly)\" kept verbatim: no entry of this file has that DN",
                        kind: .unmodelled))
                }
            }
            records.append(record)
        }
        heldGroups = []
        return records
    }

    /// An attribute's value from what follows the name's colon: `: text`, `:: base64` (nil when
    /// it cannot be decoded) or `:< URL`, kept as written.
    static func value(_ rest: ArraySlice<UInt8>) -> String? {
        if rest.first == 58 {
            guard let data = InterchangeBase64.decode(rest.dropFirst().drop { $0 == 32 }) else { return nil }
            return InterchangeText.string(Array(data)[...])
        }
        if rest.first == 60 { return "<" + String(decoding: rest.dropFirst(), as: UTF8.self).trimmingCharacters(in: .whitespaces) }
        return InterchangeText.string(rest.drop { $0 == 32 })
    }

    /// A DN as compared: trimmed, in lower case (LDAP compares names and most values so).
    static func dnKey(_ dn: String) -> String { VCardText.trimmed(dn).lowercased() }

    /// The attribute being read, now that its continuations are in.
    private mutating func flush() throws(InterchangeError) {
        guard let line = pending else { return }
        pending = nil
        guard let colon = line.firstIndex(of: 58), colon > 0 else {
            throw InterchangeError(line: pendingLine, message: "expected an attribute (name: value), found \(InterchangeText.preview(line))")
        }
        // As written: an attribute kept goes back under its own name (`nsAIMid`); names are
        // compared in lower case, as LDAP compares them.
        let name = String(decoding: line[..<colon], as: UTF8.self)
        guard var value = Self.value(line[(colon + 1)...]) else {
            throw InterchangeError(line: pendingLine, message: "\(name): the base64 value cannot be decoded")
        }
        if name.lowercased() == "version", attributes.isEmpty { return }
        if attributes.isEmpty { entryLine = pendingLine }
        if name.lowercased() == "changetype" {
            let change = VCardText.trimmed(value).lowercased()
            if change == "add" { return }
            let line = attributes.first?.line ?? pendingLine
            attributes = []
            inChangeRecord = true
            throw InterchangeError(
                line: line,
                message: "an LDIF change record (changetype: \(change)), which Carnet does not read: it says what to change in a directory, "
                    + "not what an entry holds; export the address book as entries (without changetype) to import it")
        }
        value = value.replacingOccurrences(of: "\r\n", with: "\n")
        attributes.append((name, value, pendingLine))
    }

    /// The record of the entry read so far, if there is one and it is not a mailing list held
    /// until the end of the file.
    private mutating func entry() -> InterchangeRecord? {
        guard !attributes.isEmpty else { return nil }
        defer { attributes = [] }
        let (record, members) = LDIFReader.record(attributes, line: entryLine)
        if let dn = attributes.first(where: { $0.name.lowercased() == "dn" })?.value {
            let key = Self.dnKey(dn)
            if memberDNs?.contains(key) ?? true, uidsByDN[key] == nil { uidsByDN[key] = GroupMember.uid(of: record.importUID) }
        }
        if !members.isEmpty {
            heldGroups.append((record, members))
            return nil
        }
        return record
    }

    /// The record of an entry, and for a mailing list the DNs of its members (with their lines),
    /// which only the whole file can tell.
    static func record(
        _ attributes: [(name: String, value: String, line: Int)], line: Int
    ) -> (record: InterchangeRecord, members: [LDIFMember]) {
        var draft = ContactDraft()
        var notes: [InterchangeNote] = []
        var uid: String?
        /// Each address block's parts read so far, by attribute (lower case).
        var blocks = Array(repeating: [String: String](), count: LDIFAttributes.addresses.count)
        /// The blocks in the order the entry first names them, so the addresses keep their order.
        var blockOrder: [Int] = []
        var birth: [String: String] = [:]
        var birthLines: [(String, String, Int)] = []
        var members: [LDIFMember] = []

        func keep(_ name: String, _ value: String, _ at: Int, because reason: String? = nil) {
            draft.extras.append(LDIFAttributes.extraPrefix + VCardText.parameterValue(name) + ":" + VCardText.escape(value))
            let shown = "\(name.shownBriefly) \"\(value.shownBriefly)\""
            if let reason {
                notes.append(InterchangeNote(line: at, message: "\(shown) kept as an unmodelled property: \(reason)"))
            } else {
                notes.append(InterchangeNote(line: at, message: "\(shown) kept verbatim: Carnet has no field for it", kind: .unmodelled))
            }
        }
        func text(_ keyPath: WritableKeyPath<ContactDraft, String>, _ field: Field, _ name: String, _ value: String, _ at: Int) {
            let valid = field == .note ? ValueRules.text(value, field) : ValueRules.line(value, field)
            if draft[keyPath: keyPath].isEmpty, valid { draft[keyPath: keyPath] = value } else {
                keep(name, value, at, because: valid ? "only the first \(name) is modelled" : "\(field) breaks Carnet's rules")
            }
        }
        func entry(_ keyPath: WritableKeyPath<ContactDraft, [LabeledValue]>, _ field: Field, _ label: String, _ name: String, _ value: String, _ at: Int) {
            if ValueRules.entry(value, label, field) {
                draft[keyPath: keyPath].append(LabeledValue(value, label: label))
            } else {
                keep(name, value, at, because: "\(field) \(value.shownBriefly) breaks Carnet's rules")
            }
        }

        for (original, value, at) in attributes {
            let lower = original.lowercased()
            let name = LDIFAttributes.aliases[lower] ?? lower
            if value.isEmpty { continue }
            switch name {
            case "dn":
                continue
            case "objectclass":
                // Made again on export from the kind of entry; a mailing list's is its kind.
                if value.lowercased() == "groupofnames" { draft.kind = .group }
                continue
            case "uid":
                // Kept as it came, as a vCard's UID is: it names the contact across exports.
                let trimmed = VCardText.trimmed(value)
                if uid == nil, UIDRule.issues(trimmed).isEmpty { uid = trimmed } else {
                    keep(original, value, at, because: uid == nil ? "the UID is not usable" : "only the first uid is modelled")
                }
            case "anniversary":
                if let parsed = VCardDate.parse(VCardText.trimmed(value)),
                   case let date = ContactDate(label: ContactDate.anniversary, year: parsed.year, month: parsed.month, day: parsed.day),
                   ValueRules.date(date), !draft.dates.contains(where: { $0.label == ContactDate.anniversary }) {
                    draft.dates.append(date)
                } else {
                    keep(original, value, at, because: "it is not a date like 1815-12-10 or --12-10, or not the first")
                }
            case "cn": text(\.name, .name, original, value, at)
            case "givenname": text(\.nameParts.given, .given, original, value, at)
            case "sn": text(\.nameParts.family, .family, original, value, at)
            case "title": text(\.title, .title, original, value, at)
            case "ou": text(\.department, .department, original, value, at)
            case "o": text(\.organization, .organization, original, value, at)
            case "description": text(\.note, .note, original, value, at)
            case "member": members.append((original, value, at))
            case "mail", "mozillasecondemail": entry(\.emails, .email, "", original, value, at)
            case "mozillaworkurl": entry(\.urls, .url, "work", original, value, at)
            case "mozillahomeurl": entry(\.urls, .url, "home", original, value, at)
            case "birthyear", "birthmonth", "birthday":
                if birth[name] == nil { birth[name] = value } else { keep(original, value, at) }
                birthLines.append((original, value, at))
            default:
                if let (spec, keyPath) = LDIFAttributes.described[name] {
                    text(keyPath, spec.field, original, value, at)
                } else if let phone = LDIFAttributes.phones.first(where: { $0.attribute.lowercased() == name }) {
                    entry(\.phones, .phone, phone.label, original, value, at)
                } else if let block = LDIFAttributes.addresses.firstIndex(where: { $0.attributes.contains { $0.lowercased() == name } }),
                          blocks[block][name] == nil {
                    if blocks[block].isEmpty { blockOrder.append(block) }
                    blocks[block][name] = value
                } else {
                    keep(original, value, at)
                }
            }
        }
        for block in blockOrder {
            let (label, names) = LDIFAttributes.addresses[block]
            let parts = blocks[block]
            var address = PostalAddress(label: label)
            for (keyPath, name) in zip(LDIFAttributes.addressParts, names) { address[keyPath: keyPath] = parts[name.lowercased()] ?? "" }
            if ValueRules.address(address) { draft.addresses.append(address) } else {
                for name in names {
                    guard let value = parts[name.lowercased()] else { continue }
                    keep(name, value, line, because: "the address breaks Carnet's rules (each part is one line)")
                }
            }
        }
        if !birth.isEmpty {
            let year = birth["birthyear"].flatMap { Int(VCardText.trimmed($0)) }
            if let month = birth["birthmonth"].flatMap({ Int(VCardText.trimmed($0)) }),
               let day = birth["birthday"].flatMap({ Int(VCardText.trimmed($0)) }),
               case let date = ContactDate(label: ContactDate.birthday, year: year, month: month, day: day), ValueRules.date(date) {
                draft.dates.append(date)
            } else {
                for (name, value, at) in birthLines where birth[LDIFAttributes.aliases[name.lowercased()] ?? name.lowercased()] == value {
                    keep(name, value, at, because: "birthyear, birthmonth and birthday do not make a date")
                }
            }
        }
        // Only a mailing list has members; on any other entry they are kept as they came.
        if draft.kind != .group {
            for (original, value, at) in members { keep(original, value, at) }
            members = []
        }
        if Rules.trimmed(draft.name).isEmpty {
            draft.name = [draft.nameParts.displayName, draft.organization, draft.emails.first?.value ?? "", draft.phones.first?.value ?? ""]
                .map(Rules.trimmed).first { !$0.isEmpty } ?? ""
        }
        return (InterchangeRecord(uid: uid, draft: draft, line: line, notes: notes), members)
    }
}

/// Writes contacts as LDIF entries Thunderbird imports (`mozillaAbPersonAlpha`), which
/// `LDIFReader` reads back to the same contact where LDIF has room for it: the first phone of
/// each of `work`, `home`, `cell`, `fax`, `pager`, the first `work` and `home` address, two
/// emails (more as further `mail` values), the birthday and the first anniversary, the UID, and
/// the `X-LDIF` lines kept from an LDIF import.
/// What has no attribute (other phones and addresses, handles, other dates, categories, the
/// other lists of labelled values, the photo, vCard lines) is listed by `left(_:)`.
public enum LDIFWriter {
    /// `version: 1` and a blank line, before the entries.
    public static let header = "version: 1\n\n"

    /// The entry of a contact; `uid` is written as the `uid` attribute, which `LDIFReader` reads
    /// back as the UID, so importing the file again updates the contacts instead of adding them.
    /// `memberDNs` are a group's members as the DNs their entries have in the same file,
    /// written as `member` values as Thunderbird writes a mailing list's.
    public static func entry(_ draft: ContactDraft, uid: String? = nil, memberDNs: [String] = []) -> String {
        var out = ""
        func add(_ name: String, _ value: String) {
            guard !value.isEmpty else { return }
            out += line(name, value)
        }
        add("dn", dn(draft))
        // A group goes out as Thunderbird writes a mailing list, so it reads it back as one.
        let objectClasses = draft.kind == .group
            ? ["top", "groupOfNames"] : ["top", "person", "organizationalPerson", "inetOrgPerson", "mozillaAbPersonAlpha"]
        for objectClass in objectClasses { add("objectclass", objectClass) }
        add("uid", uid ?? "")
        add("givenName", draft.nameParts.given)
        add("sn", draft.nameParts.family)
        add("cn", draft.name)
        for (spec, _) in LDIFAttributes.written { add(spec.ldif ?? "", spec.string(of: draft)) }
        for (index, email) in draft.emails.enumerated() { add(index == 1 ? "mozillaSecondEmail" : "mail", email.value) }
        // The first phone, address and URL of each kind, in the contact's order, so they read
        // back in it.
        var written: Set<String> = []
        for phone in draft.phones {
            guard let attribute = LDIFAttributes.phones.first(where: { $0.label == phone.label })?.attribute,
                  written.insert(attribute).inserted else { continue }
            add(attribute, phone.value)
        }
        for address in draft.addresses {
            guard let names = LDIFAttributes.addresses.first(where: { $0.label == address.label })?.attributes,
                  written.insert("address " + address.label).inserted else { continue }
            for (keyPath, name) in zip(LDIFAttributes.addressParts, names) { add(name, address[keyPath: keyPath]) }
        }
        add("title", draft.title)
        add("ou", draft.department)
        add("o", draft.organization)
        for url in draft.urls {
            guard let attribute = ["work": "mozillaWorkUrl", "home": "mozillaHomeUrl"][url.label], written.insert(attribute).inserted else { continue }
            add(attribute, url.value)
        }
        if let birthday = draft.dates.first(where: { $0.label == ContactDate.birthday }) {
            if let year = birthday.year { add("birthyear", String(year)) }
            add("birthmonth", String(format: "%02d", birthday.month))
            add("birthday", String(format: "%02d", birthday.day))
        }
        if let anniversary = draft.dates.first(where: { $0.label == ContactDate.anniversary }) { add("anniversary", anniversary.dateText) }
        add("description", draft.note)
        for member in memberDNs { add("member", member) }
        for extra in draft.extras where extra.hasPrefix(LDIFAttributes.extraPrefix) {
            guard let property = try? VCardProperty(Array(extra.utf8), line: 1), let name = property.first("X-ATTRIBUTE") else { continue }
            add(name, property.text())
        }
        return out + "\n"
    }

    /// The DN of the contact's entry: `cn=` its name, `mail=` its first email, as Thunderbird
    /// makes them; a mailing list names its members by it.
    public static func dn(_ draft: ContactDraft) -> String {
        let firstEmail = draft.emails.first?.value ?? ""
        return "cn=" + dnEscaped(draft.name) + (firstEmail.isEmpty ? "" : ",mail=" + dnEscaped(firstEmail))
    }

    /// What of `draft` an LDIF entry has no attribute for, one printable phrase each;
    /// `membersWritten` of a group's members went out as `member` DNs.
    public static func left(_ draft: ContactDraft, membersWritten: Int = 0) -> [String] {
        var left: [String] = []
        var seen: Set<String> = []
        for phone in draft.phones {
            if LDIFAttributes.phones.contains(where: { $0.label == phone.label }), seen.insert(phone.label).inserted { continue }
            left.append("phone \(phone.value.shownBriefly)")
        }
        var addresses: Set<String> = []
        for address in draft.addresses {
            if ["work", "home"].contains(address.label), addresses.insert(address.label).inserted {
                if !address.poBox.isEmpty { left.append("PO box \(address.poBox.shownBriefly)") }
            } else {
                left.append("address \(address.street.shownBriefly)")
            }
        }
        var urls: Set<String> = []
        for url in draft.urls where !(["work", "home"].contains(url.label) && urls.insert(url.label).inserted) {
            left.append("URL \(url.value.shownBriefly)")
        }
        if draft.emails.contains(where: { !$0.label.isEmpty }) { left.append("email labels") }
        left += draft.handles.map { "handle \($0.value.shownBriefly)" }
        var dates: Set<String> = []
        for date in draft.dates where !([ContactDate.birthday, ContactDate.anniversary].contains(date.label) && dates.insert(date.label).inserted) {
            left.append("date \(date.dateText)")
        }
        if !draft.nameParts.prefix.isEmpty || !draft.nameParts.additional.isEmpty || !draft.nameParts.suffix.isEmpty { left.append("name prefix, middle name or suffix") }
        if !draft.role.isEmpty { left.append("role") }
        for spec in LDIFAttributes.notWritten where !spec.string(of: draft).isEmpty { left.append(spec.label.lowercased()) }
        for (spec, keyPath) in LDIFAttributes.listsNotWritten where !draft[keyPath: keyPath].isEmpty { left.append(spec.label.lowercased()) }
        if !draft.categories.isEmpty { left.append("categories") }
        if draft.photo != nil { left.append("photo") }
        // LDIF names a member by its DN, which this entry alone does not know (`LDIFFileWriter`
        // knows the DNs of the file it writes); the members kept from an LDIF import go back
        // as they came.
        let members = draft.members.count - membersWritten
        if members > 0 { left.append(members == 1 ? "1 member" : "\(members) members") }
        let vcardLines = draft.extras.filter { !$0.hasPrefix(LDIFAttributes.extraPrefix) }.count
        if vcardLines > 0 { left.append("\(vcardLines) kept vCard \(vcardLines == 1 ? "line" : "lines")") }
        return left
    }

    /// `name: value`, or `name:: base64` when RFC 2849 does not allow the value as it is; lines
    /// folded at 76 characters with a leading space.
    static func line(_ name: String, _ value: String) -> String {
        let bytes = Array(value.utf8)
        let safe = !bytes.contains { $0 == 0 || $0 == 10 || $0 == 13 || $0 >= 128 }
            && bytes.first.map { $0 != 32 && $0 != 58 && $0 != 60 } ?? true && bytes.last != 32
        let text = safe ? name + ": " + value : name + ":: " + Data(bytes).base64EncodedString()
        var out = ""
        var rest = Substring(text)
        var limit = 76
        while rest.count > limit {
            out += rest.prefix(limit) + "\n "
            rest = rest.dropFirst(limit)
            limit = 75
        }
        return out + rest + "\n"
    }

    private static func dnEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if ",+\"\\<>;=".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}

/// The DNs an LDIF file's `member` attributes name, read ahead of its import so that
/// ``LDIFReader`` keeps the UIDs of those entries only (`LDIFReader/init(memberDNs:)`): lines
/// are split and continued as the reader does, and nothing but `member` is decoded. A DN named
/// outside a mailing list only makes the set larger, never a member unresolved.
public struct LDIFMemberScan {
    private var splitter = LineSplitter()
    /// The `member` line being read, until a line that does not continue it.
    private var member: [UInt8]?
    public private(set) var dnKeys: Set<String> = []

    public init() {}

    public mutating func feed(_ chunk: Data) {
        let lines = chunk.withUnsafeBytes { splitter.split($0) }
        for line in lines { consume(line) }
    }

    /// Ends the input and returns the DNs, as `LDIFReader` compares them.
    public mutating func finish() -> Set<String> {
        if let last = splitter.flush() { consume(last) }
        close()
        return dnKeys
    }

    private mutating func consume(_ raw: [UInt8]) {
        var line = raw[...]
        while line.last == 13 { line.removeLast() }
        if line.first == 32 {
            member? += line.dropFirst()
            return
        }
        close()
        // `member:` in any case, as LDAP compares attribute names.
        if line.count > 7, line[line.startIndex + 6] == 58,
           String(decoding: line.prefix(6), as: UTF8.self).lowercased() == "member" {
            member = Array(line)
        }
    }

    private mutating func close() {
        guard let line = member else { return }
        member = nil
        if let value = LDIFReader.value(line[7...]) { dnKeys.insert(LDIFReader.dnKey(value)) }
    }
}
