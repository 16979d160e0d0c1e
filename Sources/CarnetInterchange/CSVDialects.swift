import CarnetModels
import Foundation

/// The CSV dialects `CSVReader` reads, told apart by their header row.
public enum CSVDialect: String, Sendable, CaseIterable {
    /// Carnet's own columns (`CSVColumn`), and any spreadsheet using them.
    case carnet
    /// Google Contacts' "Google CSV", old and current: `Given Name` or `First Name` … numbered
    /// groups such as `E-mail 1 - Type` (or `- Label`) with `E-mail 1 - Value`, several values in
    /// one cell separated by ` ::: `, `* ` before the type of the primary one.
    case google
    /// Outlook's export (and Google's "Outlook CSV"): `First Name`, `Last Name`, `Company`,
    /// `E-mail Address`, `Business Phone`, `Home Street`, … a column per kind of value.
    case outlook
    /// Gmail's first CSV export: `Name`, `E-mail Address`, then per section
    /// `Section 1 - Description`, `Section 1 - Email`, `Section 1 - Phone`, …
    case gmail
    /// Thunderbird's address book export: `First Name`, `Display Name`, `Primary Email`,
    /// `Work Phone`, `Home Address`, … and the birthday in `Birth Year`, `Birth Month`, `Birth Day`.
    case thunderbird
    /// abook's `--outformat csv`: no header row, every field quoted, the columns `NAME`, `EMAIL`
    /// (several addresses separated by commas), `PHONE`, `NOTES`, `NICK`; or its `allcsv`, whose
    /// header names its 17 columns after a `#` (`#"NAME","EMAIL","ADDRESS",…,"GROUPS"`).
    case abook

    /// How an import report names it.
    public var displayName: String {
        switch self {
        case .carnet: "Carnet CSV"
        case .google: "Google Contacts CSV"
        case .outlook: "Outlook CSV"
        case .gmail: "Gmail CSV (first format)"
        case .thunderbird: "Thunderbird CSV"
        case .abook: "abook CSV"
        }
    }
}

/// Reads the rows of another program's CSV onto drafts.
///
/// Nothing is dropped: a non-empty cell no column maps, and a value Carnet's rules refuse (with
/// a note), become extras lines `X-CSV;X-COLUMN=Gender:Female` holding the column's name and
/// the cell, so they survive an export to vCard and back. That includes the defaults Outlook
/// writes into every row (`Priority` `Normal`, a birthday `0/0/00`, an `E-mail Type` `SMTP`)
/// and Google's `Address N - Formatted` beside the parts it was made from. Only empty cells are
/// not kept.
struct ForeignCSV: Sendable {
    let dialect: CSVDialect
    /// Whether the file has no header row (abook's csv): its first row is a contact.
    let headerless: Bool
    private let headers: [String]
    private let targets: [Target]
    /// For each column of `targets` that fills a text field: that field's rule, to check a cell by.
    private let textRules: [(field: Field, multiline: Bool)?]

    var columnCount: Int { headers.count }

    /// The columns of abook's csv export, which has no header row.
    static let abookColumns = ["NAME", "EMAIL", "PHONE", "NOTES", "NICK"]
    /// The columns of abook's allcsv export, named by its header after a `#`.
    static let abookAllColumns = [
        "NAME", "EMAIL", "ADDRESS", "ADDRESS2", "CITY", "STATE", "ZIP", "COUNTRY", "PHONE", "WORKPHONE", "FAX", "MOBILEPHONE",
        "NICK", "URL", "NOTES", "ANNIVERSARY", "GROUPS",
    ]
    static let abookHeaderless = ForeignCSV(abook: abookColumns, headerless: true)

    private init(abook columns: [String], headerless: Bool) {
        self.init(dialect: .abook, headerless: headerless, headers: columns, targets: columns.map { Self.abookTarget(Self.key($0)) })
    }

    private init(dialect: CSVDialect, headerless: Bool, headers: [String], targets: [Target]) {
        self.dialect = dialect
        self.headerless = headerless
        self.headers = headers
        self.targets = targets
        textRules = targets.map { target in
            guard case let .text(keyPath) = target else { return nil }
            return Self.textFields.first { $0.keyPath == keyPath }.map { ($0.field, $0.multiline) }
        }
    }

    /// What one column holds.
    private enum Target: Sendable {
        case unmapped
        case name
        case text(WritableKeyPath<ContactDraft, String> & Sendable)
        /// Part of an entry: a numbered group's (`E-mail 1 - Value`), or a column that is all one
        /// kind (`Mobile Phone`). `section` is the Gmail section whose description labels it.
        case entry(EntryKind, slot: String, part: EntryPart, section: String?)
        /// Part of an address; `label` for Outlook's `Business …`, `Home …` columns.
        case address(slot: String, part: AddressPart, label: String?)
        case categories(separator: String)
        /// A Gmail section's description: the label of that section's values.
        case sectionLabel(String)
        /// Thunderbird's `Birth Year`, `Birth Month` or `Birth Day` (named by its squashed column).
        case birth(String)
    }

    private enum EntryPart: Sendable, Equatable {
        case value
        case label
        /// An IM's service: the handle's label.
        case service
        /// A column whose every value has this label (`Mobile Phone` → `cell`; `pref` marks
        /// Outlook's `Primary Phone` preferred).
        case labelled(String)
    }

    private enum AddressPart: Sendable, Equatable {
        case label, formatted, street, locality, region, postalCode, country, poBox, extended
    }

    /// The dialect a header is in, with the way to read its rows; nil for Carnet's own.
    init?(header cells: [String]) {
        // abook's allcsv: `#"NAME","EMAIL",…` (the first cell keeps its quotes after the `#`).
        let bare = cells.map { $0.uppercased().trimmingCharacters(in: CharacterSet(charactersIn: "#\" ")) }
        if cells.first?.hasPrefix("#") == true, bare == Self.abookAllColumns {
            self.init(abook: bare, headerless: false)
            return
        }
        let keys = cells.map(Self.key)
        let names = Set(keys.map(Self.squashed))
        let has = { (name: String) in names.contains(name) }
        let dialect: CSVDialect
        if has("primaryemail"), has("displayname") {
            // Thunderbird's columns include `First Name` and `Last Name`, as Outlook's do.
            dialect = .thunderbird
        } else if keys.contains(where: { Self.numbered($0).map { $0.kind != "section" } ?? false })
            || (has("givenname") && has("familyname")) {
            dialect = .google
        } else if has("firstname"), has("lastname") || has("company") || has("emailaddress") || has("businessphone") {
            // Outlook's "Comma Separated Values (Windows)" names its columns `First Name`, its
            // "(DOS)" variant `FirstName`: both squash to the same name.
            dialect = .outlook
        } else if has("name"), keys.contains(where: { $0.hasPrefix("section ") }) || keys.contains("e-mail") || has("emailaddress") {
            dialect = .gmail
        } else {
            return nil
        }
        self.init(dialect: dialect, headerless: false, headers: cells.map(VCardText.trimmed), targets: keys.map { Self.target($0, dialect) })
    }

    /// A header cell as compared: lower case, trimmed, runs of spaces as one.
    private static func key(_ cell: String) -> String {
        VCardText.trimmed(cell).lowercased().split(separator: " ").joined(separator: " ")
    }

    /// A key without spaces, hyphens, apostrophes and slashes, so `E-mail 2 Address`,
    /// `Email2Address`, `Assistant's Phone` and `AssistantsPhone` name the same column.
    private static func squashed(_ key: String) -> String {
        String(key.unicodeScalars.filter { !" -'/".unicodeScalars.contains($0) })
    }

    /// `e-mail 1 - value` → (`e-mail`, `1`, `value`): Google's numbered groups, Gmail's sections.
    private static func numbered(_ key: String) -> (kind: String, number: String, part: String)? {
        guard let dash = key.range(of: " - ") else { return nil }
        let head = key[..<dash.lowerBound]
        guard let space = head.lastIndex(of: " ") else { return nil }
        let number = head[head.index(after: space)...]
        guard !number.isEmpty, number.allSatisfy(\.isNumber) else { return nil }
        let kind = String(head[..<space])
        let kinds = [
            "e-mail", "email", "phone", "address", "website", "im", "event", "relation", "organization", "custom field",
            "external id", "section",
        ]
        guard kinds.contains(kind) else { return nil }
        return (kind, String(number), String(key[dash.upperBound...]))
    }

    /// Outlook's phone columns (squashed, see `squashed(_:)`) and the label of each.
    private static let outlookPhones: [String: String] = [
        "businessphone": "work", "businessphone2": "work", "homephone": "home", "homephone2": "home",
        "mobilephone": "cell", "businessfax": "work,fax", "homefax": "home,fax", "otherfax": "fax", "pager": "pager",
        "otherphone": "other", "carphone": "car", "companymainphone": "main", "isdn": "isdn",
        "assistantsphone": "Assistant", "callback": "Callback", "radiophone": "Radio", "ttytddphone": "TTY/TDD",
        "telex": "Telex", "primaryphone": "pref",
    ]

    /// The text fields' columns in other programs' files (squashed), from the field description
    /// (`ContactFieldSpec/csvColumns`): `Job Title`, `Middle Name`.
    private static let describedColumns: [String: WritableKeyPath<ContactDraft, String> & Sendable] = {
        var columns: [String: WritableKeyPath<ContactDraft, String> & Sendable] = [:]
        for spec in ContactFields.all {
            guard let keyPath = spec.text ?? spec.multilineText else { continue }
            for column in spec.csvColumns where columns[column] == nil { columns[column] = keyPath }
        }
        return columns
    }()

    /// The field of each text key path, and whether it may span lines, to check a cell by its rules.
    private static let textFields: [(keyPath: WritableKeyPath<ContactDraft, String> & Sendable, field: Field, multiline: Bool)] =
        ContactFields.all.flatMap { spec in
            [spec.text.map { ($0, spec.field, false) }, spec.multilineText.map { ($0, spec.field, true) }].compactMap { $0 }
        }

    /// Thunderbird's own columns (squashed); the others are read as in every dialect.
    private static let thunderbirdTargets: [String: Target] = {
        var targets: [String: Target] = [
            "organization": .text(\.organization), "birthyear": .birth("birthyear"), "birthmonth": .birth("birthmonth"),
            "birthday": .birth("birthday"),
        ]
        for (column, label) in [("primaryemail", ""), ("secondaryemail", "")] {
            targets[column] = .entry(.email, slot: column, part: .labelled(label), section: nil)
        }
        for (column, label) in [("workphone", "work"), ("homephone", "home"), ("faxnumber", "fax"), ("pagernumber", "pager"), ("mobilenumber", "cell")] {
            targets[column] = .entry(.phone, slot: column, part: .labelled(label), section: nil)
        }
        for (column, label) in [("webpage1", "work"), ("webpage2", "home")] {
            targets[column] = .entry(.url, slot: column, part: .labelled(label), section: nil)
        }
        for place in ["home", "work"] {
            let parts: [(String, AddressPart)] = [
                ("address", .street), ("address2", .extended), ("city", .locality), ("state", .region), ("zipcode", .postalCode),
                ("country", .country),
            ]
            for (suffix, part) in parts { targets[place + suffix] = .address(slot: place, part: part, label: place) }
        }
        return targets
    }()

    /// abook's columns (lower case): its one address has no type, `PHONE` is the home phone (its
    /// vCard export writes it `TEL;HOME`), `GROUPS` are separated by commas.
    private static func abookTarget(_ key: String) -> Target {
        let address: [String: AddressPart] = [
            "address": .street, "address2": .extended, "city": .locality, "state": .region, "zip": .postalCode, "country": .country,
        ]
        let phones = ["phone": "home", "workphone": "work", "fax": "fax", "mobilephone": "cell"]
        switch key {
        case "name": return .name
        case "email": return .entry(.email, slot: key, part: .labelled(""), section: nil)
        case "nick": return .text(\.nickname)
        case "url": return .entry(.url, slot: key, part: .labelled(""), section: nil)
        case "notes": return .text(\.note)
        case "anniversary": return .entry(.date, slot: key, part: .labelled(ContactDate.anniversary), section: nil)
        case "groups": return .categories(separator: ",")
        default:
            if let part = address[key] { return .address(slot: "address", part: part, label: "") }
            if let label = phones[key] { return .entry(.phone, slot: key, part: .labelled(label), section: nil) }
            return .unmapped
        }
    }

    private static func target(_ key: String, _ dialect: CSVDialect) -> Target {
        let name = squashed(key)
        if dialect == .thunderbird, let target = thunderbirdTargets[name] { return target }
        if let keyPath = describedColumns[name] { return .text(keyPath) }
        switch name {
        case "name", "fullname", "displayname": return .name
        case "title" where dialect == .outlook: return .text(\.nameParts.prefix)
        case "birthday": return .entry(.date, slot: name, part: .labelled(ContactDate.birthday), section: nil)
        case "anniversary": return .entry(.date, slot: name, part: .labelled(ContactDate.anniversary), section: nil)
        case "groupmembership", "labels": return .categories(separator: " ::: ")
        case "categories": return .categories(separator: ";")
        // Gmail's first format has one `E-mail` column; Outlook's are `E-mail Address` …
        case "email" where dialect == .gmail, "emailaddress", "email2address", "email3address":
            return .entry(.email, slot: name, part: .labelled(""), section: nil)
        case "webpage": return .entry(.url, slot: name, part: .labelled(""), section: nil)
        default: break
        }
        if dialect == .outlook {
            if let label = outlookPhones[name] { return .entry(.phone, slot: name, part: .labelled(label), section: nil) }
            for (prefix, label) in [("business", "work"), ("home", "home"), ("other", "other")] where name.hasPrefix(prefix) {
                let parts: [String: AddressPart] = [
                    "street": .street, "street2": .street, "street3": .street, "city": .locality, "state": .region,
                    "postalcode": .postalCode, "countryregion": .country, "country": .country, "addresspobox": .poBox,
                ]
                if let part = parts[String(name.dropFirst(prefix.count))] { return .address(slot: prefix, part: part, label: label) }
            }
        }
        guard let (kind, number, part) = numbered(key) else { return .unmapped }
        let slot = kind + " " + number
        let entryPart: EntryPart? = part == "type" || part == "label" ? .label : part == "value" ? .value : nil
        switch kind {
        case "e-mail", "email": if let entryPart { return .entry(.email, slot: slot, part: entryPart, section: nil) }
        case "phone": if let entryPart { return .entry(.phone, slot: slot, part: entryPart, section: nil) }
        case "website": if let entryPart { return .entry(.url, slot: slot, part: entryPart, section: nil) }
        case "event": if let entryPart { return .entry(.date, slot: slot, part: entryPart, section: nil) }
        case "im":
            if part == "service" { return .entry(.handle, slot: slot, part: .service, section: nil) }
            if part == "value" { return .entry(.handle, slot: slot, part: .value, section: nil) }
        case "address":
            let parts: [String: AddressPart] = [
                "type": .label, "label": .label, "formatted": .formatted, "street": .street, "city": .locality,
                "region": .region, "postal code": .postalCode, "country": .country, "po box": .poBox,
                "extended address": .extended,
            ]
            if let addressPart = parts[part] { return .address(slot: slot, part: addressPart, label: nil) }
        case "organization" where number == "1":
            switch part {
            case "name": return .text(\.organization)
            case "title": return .text(\.title)
            case "department": return .text(\.department)
            default: break
            }
        case "section":
            switch part {
            case "description": return .sectionLabel(slot)
            case "email": return .entry(.email, slot: key, part: .value, section: slot)
            case "phone": return .entry(.phone, slot: key, part: .value, section: slot)
            case "mobile": return .entry(.phone, slot: key, part: .labelled("cell"), section: nil)
            case "pager": return .entry(.phone, slot: key, part: .labelled("pager"), section: nil)
            case "fax": return .entry(.phone, slot: key, part: .labelled("fax"), section: nil)
            case "im": return .entry(.handle, slot: key, part: .value, section: nil)
            case "company": return .text(\.organization)
            case "title": return .text(\.title)
            default: break
            }
        default: break
        }
        return .unmapped
    }

    /// Values Outlook writes into every row, which say nothing: kept verbatim like any column
    /// Carnet has no field for, rather than read as a date (`0/0/00`) or an email's type.
    private static let outlookNones: [String: Set<String>] = [
        "emailtype": ["smtp"], "email2type": ["smtp"], "email3type": ["smtp"], "birthday": ["0/0/00"],
        "anniversary": ["0/0/00"],
    ]

    private static func isOutlookNone(_ column: String, _ cell: String, _ dialect: CSVDialect) -> Bool {
        dialect == .outlook && outlookNones[squashed(key(column))]?.contains(cell.lowercased()) == true
    }

    // MARK: Rows

    /// The values of one entry gathered from its columns.
    private struct Slot {
        var kind: EntryKind
        var values: [String] = []
        var labels: [String] = []
        var service: String?
        var fixedLabel: String?
        var section: String?
        /// The columns the values and labels came from, for what is kept unmodelled.
        var column = ""
        var labelColumn = ""
    }

    private struct AddressSlot {
        var parts: [AddressPart: [String]] = [:]
        var label: String?
        /// The columns and cells, to keep as they were when the address cannot be taken.
        var cells: [(column: String, text: String)] = []
        /// Google's `Address 1 - Formatted`, kept verbatim beside the parts it was made from
        /// (it can say more than they do, or differ from them).
        var formattedColumn: String?
    }

    /// The record of a row (its cells in header order).
    func record(_ row: [String], line: Int) -> InterchangeRecord {
        var draft = ContactDraft()
        var extras: [String] = []
        var notes: [InterchangeNote] = []
        var slotOrder: [String] = []
        var slots: [String: Slot] = [:]
        var addressOrder: [String] = []
        var addresses: [String: AddressSlot] = [:]
        var sectionLabels: [String: String] = [:]
        var birth: [String: (column: String, text: String)] = [:]

        func keep(_ column: String, _ text: String, because reason: String? = nil) {
            extras.append("X-CSV;X-COLUMN=" + VCardText.parameterValue(column) + ":" + VCardText.escape(text))
            if let reason {
                notes.append(InterchangeNote(
                    line: line,
                    message: "\(column.shownBriefly) \"\(text.shownBriefly)\" kept as an unmodelled property: \(reason)"))
            } else {
                notes.append(InterchangeNote(
                    line: line, message: "\(column.shownBriefly) \"\(text.shownBriefly)\" kept verbatim: Carnet has no field for it",
                    kind: .unmodelled))
            }
        }

        for (index, raw) in row.enumerated() where index < targets.count {
            let cell = VCardText.trimmed(raw)
            if cell.isEmpty { continue }
            let column = headers[index]
            switch targets[index] {
            case .unmapped:
                keep(column, cell)
            case .name:
                if draft.name.isEmpty { draft.name = cell } else { keep(column, cell) }
            case let .text(keyPath):
                if let field = textRules[index], !(field.multiline ? ValueRules.text(cell, field.field) : ValueRules.line(cell, field.field)) {
                    // Kept rather than set, so the rest of the row still imports (a tab in
                    // Thunderbird's notes is a control character to Carnet's rules).
                    keep(column, cell, because: "\(field.field) breaks Carnet's rules")
                } else if draft[keyPath: keyPath].isEmpty { draft[keyPath: keyPath] = cell } else { keep(column, cell) }
            case let .entry(kind, slot, part, section):
                if Self.isOutlookNone(column, cell, dialect) {
                    keep(column, cell)
                    continue
                }
                if slots[slot] == nil {
                    slotOrder.append(slot)
                    slots[slot] = Slot(kind: kind, section: section)
                }
                switch part {
                case .value:
                    slots[slot]?.values = Self.values(cell, kind, dialect)
                    slots[slot]?.column = column
                case .label:
                    slots[slot]?.labels = Self.values(cell, kind, dialect)
                    slots[slot]?.labelColumn = column
                case .service: slots[slot]?.service = cell
                case let .labelled(label):
                    slots[slot]?.values = Self.values(cell, kind, dialect)
                    slots[slot]?.column = column
                    slots[slot]?.fixedLabel = label
                }
            case let .address(slot, part, label):
                if addresses[slot] == nil {
                    addressOrder.append(slot)
                    addresses[slot] = AddressSlot(label: label)
                }
                addresses[slot]?.parts[part, default: []].append(cell)
                addresses[slot]?.cells.append((column, cell))
                if part == .formatted { addresses[slot]?.formattedColumn = column }
            case let .categories(separator):
                for name in cell.components(separatedBy: separator) {
                    var category = VCardText.trimmed(name)
                    if category.hasPrefix("* ") { category = VCardText.trimmed(String(category.dropFirst(2))) }
                    guard !category.isEmpty else { continue }
                    if !ValueRules.line(category, .category) {
                        keep(column, category, because: "category \(category.shownBriefly) breaks a rule")
                    } else if !draft.categories.contains(where: { $0.asciiLowercased == category.asciiLowercased }) {
                        draft.categories.append(category)
                    }
                }
            case let .sectionLabel(section):
                sectionLabels[section] = cell
            case let .birth(part):
                if birth[part] == nil { birth[part] = (column, cell) } else { keep(column, cell) }
            }
        }

        // Thunderbird's birthday, from its three columns.
        if !birth.isEmpty {
            let number = { (part: String) in birth[part].flatMap { Int($0.text) } }
            if let month = number("birthmonth"), let day = number("birthday"), birth["birthyear"] == nil || number("birthyear") != nil,
               case let date = ContactDate(label: ContactDate.birthday, year: number("birthyear"), month: month, day: day),
               ValueRules.date(date) {
                draft.dates.append(date)
            } else {
                for part in ["birthyear", "birthmonth", "birthday"] {
                    if let (column, text) = birth[part] { keep(column, text, because: "Birth Year, Birth Month and Birth Day do not make a date") }
                }
            }
        }

        // Entries, in the order of their columns.
        var preferred: Set<EntryKind> = []
        for key in slotOrder {
            guard let slot = slots[key] else { continue }
            for (position, value) in slot.values.enumerated() {
                var label = slot.fixedLabel
                    ?? (position < slot.labels.count ? slot.labels[position] : slot.labels.first)
                    ?? slot.section.flatMap { sectionLabels[$0] } ?? ""
                var isPreferred = false
                if label == "pref" {
                    label = ""
                    isPreferred = true
                }
                if label.hasPrefix("* ") {
                    label = VCardText.trimmed(String(label.dropFirst(2)))
                    isPreferred = position == 0
                }
                if isPreferred, preferred.contains(slot.kind) { isPreferred = false }
                label = Self.label(label, slot.kind)
                let column = slot.column
                switch slot.kind {
                case .email, .phone, .url, .handle:
                    let field: Field = slot.kind == .email ? .email : slot.kind == .phone ? .phone : slot.kind == .url ? .url : .handle
                    if slot.kind == .handle { label = slot.service.map { $0.lowercased() } ?? label }
                    guard ValueRules.entry(value, label, field) else {
                        keep(column, value, because: "\(field) \(value.shownBriefly) breaks Carnet's rules")
                        continue
                    }
                    let entry = LabeledValue(value, label: label, preferred: isPreferred)
                    switch slot.kind {
                    case .email: draft.emails.append(entry)
                    case .phone: draft.phones.append(entry)
                    case .url: draft.urls.append(entry)
                    default: draft.handles.append(entry)
                    }
                    if isPreferred { preferred.insert(slot.kind) }
                case .date:
                    let dateLabel = EntryKind.date.normalizedLabel(label)
                    guard let parsed = Self.date(value),
                          case let date = ContactDate(label: dateLabel, year: parsed.year, month: parsed.month, day: parsed.day),
                          ValueRules.date(date)
                    else {
                        keep(column, value, because: "it is not a date like 1815-12-10 or --12-10")
                        continue
                    }
                    draft.dates.append(date)
                    if VCardDate.parse(value) == nil {
                        notes.append(InterchangeNote(
                            line: line, message: "\(column.shownBriefly) \"\(value.shownBriefly)\" read as \(date.dateText)",
                            kind: .converted))
                    }
                default:
                    keep(column, value)
                }
            }
            if slot.values.isEmpty || (slot.kind == .handle && !slot.labels.isEmpty) {
                // A label without a value, or an IM's type (a handle's label is its service).
                keep(slot.labelColumn, slot.labels.joined(separator: " ::: "))
            }
            if slot.values.isEmpty, let service = slot.service { keep(key, service) }
        }

        for key in addressOrder {
            guard let slot = addresses[key] else { continue }
            let part = { (name: AddressPart) in (slot.parts[name] ?? []).joined(separator: ", ") }
            var address = PostalAddress(
                label: Self.label(part(.label), .address), poBox: part(.poBox), extended: part(.extended), street: part(.street),
                locality: part(.locality), region: part(.region), postalCode: part(.postalCode), country: part(.country))
            if let label = slot.label { address.label = label }
            if address.label.hasPrefix("* ") {
                address.label = Self.label(VCardText.trimmed(String(address.label.dropFirst(2))), .address)
                address.preferred = !draft.addresses.contains(where: \.preferred)
            }
            let hasParts = [address.poBox, address.extended, address.street, address.locality, address.region, address.postalCode, address.country]
                .contains { !$0.isEmpty }
            if !hasParts { address.street = part(.formatted) }
            if address.isEmpty { continue }
            if ValueRules.address(address) {
                draft.addresses.append(address)
                if hasParts, let column = slot.formattedColumn { keep(column, part(.formatted)) }
                continue
            }
            for (column, text) in slot.cells {
                keep(column, text, because: "the address breaks Carnet's rules (each part is one line)")
            }
        }

        // Without a name, one is made as for a vCard: from the name's parts, the organization,
        // the first email, the first phone.
        if VCardText.trimmed(draft.name).isEmpty {
            draft.name = [draft.nameParts.displayName, draft.organization, draft.emails.first?.value ?? "", draft.phones.first?.value ?? ""]
                .map(Rules.trimmed).first { !$0.isEmpty } ?? ""
        }
        draft.extras = extras
        return InterchangeRecord(draft: draft, line: line, notes: notes)
    }

    /// The values of one cell: Google puts several in one, separated by ` ::: `, abook several
    /// emails separated by commas.
    private static func values(_ cell: String, _ kind: EntryKind, _ dialect: CSVDialect) -> [String] {
        if dialect == .abook, kind == .email {
            return cell.components(separatedBy: ",").map(VCardText.trimmed).filter { !$0.isEmpty }
        }
        guard dialect == .google, cell.contains(":::") else { return [cell] }
        return cell.components(separatedBy: ":::").map(VCardText.trimmed).filter { !$0.isEmpty }
    }

    /// Google's and Gmail's type names as Carnet's labels: `Mobile` → `cell`, `Home Fax` →
    /// `home,fax`, `Work` → `work`; a custom label as written.
    private static func label(_ text: String, _ kind: EntryKind) -> String {
        let lower = text.lowercased()
        if kind == .phone {
            let phones = ["home fax": "home,fax", "work fax": "work,fax", "other fax": "fax", "work mobile": "work,cell",
                          "work pager": "work,pager", "main": "main", "google voice": "Google Voice"]
            if let label = phones[lower] { return label }
        }
        if kind == .url, lower == "homepage" || lower == "home page" { return "HomePage" }
        return kind.normalizedLabel(text)
    }

    /// `1815-12-10`, `--12-10`, or Outlook's `12/10/1815` (month first).
    private static func date(_ text: String) -> (year: Int?, month: Int, day: Int)? {
        if let parsed = VCardDate.parse(text) { return parsed }
        let parts = text.split(separator: "/").map { Int($0) }
        guard parts.count == 3, let month = parts[0], let day = parts[1], let year = parts[2], String(text.split(separator: "/")[2]).count == 4
        else { return nil }
        return (year, month, day)
    }
}
