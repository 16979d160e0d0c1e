import CarnetModels
import Foundation

/// Maps the properties of one card onto a `ContactDraft`. What maps, and how, is documented on
/// `VCardReader`; everything else is kept in `ContactDraft/extras` as its unfolded line.
struct VCardImport {
    let properties: [VCardProperty]
    /// Where the card begins.
    let line: Int

    /// What became of one property.
    private enum Outcome {
        /// Mapped onto the draft (or, for `VERSION`, `PRODID` and `REV`, deliberately not kept).
        case mapped
        /// Not a property Carnet models: kept in extras.
        case unmodelled
        /// A property Carnet models, kept in extras because it cannot be mapped as it is; the
        /// reason goes into the record's notes.
        case refused(String)
    }

    /// The parameters every list entry may have: its type, its preference, its value type.
    private static let entryParameters: Set<String> = ["TYPE", "PREF", "VALUE"]
    private static let messagingParameters: Set<String> = ["TYPE", "PREF", "VALUE", "X-SERVICE-TYPE"]
    /// The parameters a one-value text property may have (its language is not kept).
    private static let textParameters: Set<String> = ["LANGUAGE", "VALUE"]
    private static let textValue: Set<String> = ["text"]
    private static let uriValue: Set<String> = ["uri"]
    private static let textOrURIValue: Set<String> = ["text", "uri"]

    func record() -> InterchangeRecord {
        var draft = ContactDraft()
        var uid: String?
        var revision: Date?
        var formattedName: String?
        var structuredName: PersonName?
        var seen: Set<String> = []  // the one-value properties already mapped
        // The index of a group marker of the other form than the group's, when the card has both.
        var otherGroupForm: Int?
        // The first FN the name's rules refused.
        var refusedName: String?
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(properties.count)
        // Preference ranks of the entries of each list, to mark one preferred at the end: by
        // field, not kind, since two described lists may share a kind.
        var ranks: [Field: [Int]] = [:]

        // The label each group's first non-blank X-ABLabel gives its property, and which line it is.
        var groupLabels: [String: (index: Int, text: String)] = [:]
        for (index, property) in properties.enumerated() where property.name == "X-ABLABEL" {
            guard let group = property.group, groupLabels[group] == nil else { continue }
            let text = property.text()
            if !VCardText.isBlank(text) { groupLabels[group] = (index, text) }
        }
        var usedLabels: Set<Int> = []

        /// The label and rank of an entry: its group's X-ABLabel if it has one, else its TYPEs.
        func labelled(_ property: VCardProperty, _ kind: EntryKind) -> (label: String, rank: Int, labelLine: Int?) {
            let rank = property.preferenceRank
            if let group = property.group, let groupLabel = groupLabels[group] {
                return (VCardLabels.label(abLabel: groupLabel.text, kind: kind), rank, groupLabel.index)
            }
            return (VCardLabels.label(types: property.values("TYPE"), kind: kind).label, rank, nil)
        }

        /// Appends an entry to a list when the field's rules take it (`valid`, as `ValueRules`
        /// judges it); the reason when they don't.
        func add<E>(
            _ entry: E, to keyPath: WritableKeyPath<ContactDraft, [E]>, _ field: Field, rank: Int,
            labelLine: Int?, isEmpty: Bool, valid: Bool
        ) -> Outcome {
            if isEmpty { return .refused("it is empty") }
            if !valid {
                var scratch = ContactDraft()
                scratch[keyPath: keyPath] = [entry]
                return .refused(Self.problem(field, scratch))
            }
            draft[keyPath: keyPath].append(entry)
            ranks[field, default: []].append(rank)
            if let labelLine { usedLabels.insert(labelLine) }
            return .mapped
        }

        /// A one-line entry (email, phone, URL, handle): refused for a parameter or `VALUE` it does
        /// not model (see `unknownEntryParameter(_:values:understood:)`), else added as `add`
        /// adds it.
        func addText(
            _ property: VCardProperty, _ entry: LabeledValue, to keyPath: WritableKeyPath<ContactDraft, [LabeledValue]>,
            _ field: Field, rank: Int, labelLine: Int?, values: Set<String> = Self.textValue,
            understood: Set<String> = Self.entryParameters
        ) -> Outcome {
            unknownEntryParameter(property, values: values, understood: understood)
                ?? add(
                    entry, to: keyPath, field, rank: rank, labelLine: labelLine,
                    isEmpty: Rules.trimmed(entry.value).isEmpty, valid: ValueRules.entry(entry.value, entry.label, field))
        }

        /// Sets a one-value text field when it is the first of its property and the rules take it.
        func single(_ property: VCardProperty, _ value: String, _ keyPath: WritableKeyPath<ContactDraft, String>, _ field: Field) -> Outcome {
            guard !seen.contains(property.name) else { return .refused("only the first \(property.name) is modelled") }
            if let unknown = property.parameterNames(notIn: Self.textParameters).first {
                return .refused("the \(unknown) parameter is not modelled")
            }
            if Rules.trimmed(value).isEmpty { return .refused("it is empty") }
            if !(field == .note ? ValueRules.text(value, field) : ValueRules.line(value, field)) {
                var scratch = ContactDraft()
                scratch[keyPath: keyPath] = value
                return .refused(Self.problem(field, scratch))
            }
            draft[keyPath: keyPath] = value
            seen.insert(property.name)
            return .mapped
        }

        /// A text field described as a property of its own (`ContactFields/vCardText`), under
        /// either of its names: a structured value's components joined as the field holds them,
        /// judged by the field's own rule as a save would write it.
        func described(
            _ property: VCardProperty, _ spec: ContactFieldSpec, _ keyPath: WritableKeyPath<ContactDraft, String>, _ vCard: VCardMapping
        ) -> Outcome {
            guard !seen.contains(vCard.name) else { return .refused("only the first \(vCard.name) is modelled") }
            let value = vCard.components > 1 ? vCard.text(of: property.components().map(Rules.trimmed)) : property.text()
            var normalized = Rules.trimmed(value)
            // A structured value's first component is that component even alone (`GENDER:Q` is a
            // sex, not an identity): judged with its `;`, so the rule sees it in its place.
            if vCard.components > 1, !normalized.isEmpty, !normalized.contains(";") { normalized += ";" }
            if let canonical = spec.canonical, !normalized.isEmpty { normalized = canonical(normalized) }
            if let rule = spec.rule, !normalized.isEmpty, let broken = rule(normalized) {
                return .refused("\(spec.field) \(broken)")
            }
            let outcome = single(property, value, keyPath, spec.field)
            if case .mapped = outcome { seen.insert(vCard.name) }
            return outcome
        }

        /// An entry of a list described as a property of its own (`ContactFields/vCardLists`),
        /// under either of its names: its text, labelled by the mapping's label parameter (or, for
        /// a mapping without one, by its `TYPE`s as an email is), preferred by its rank. A
        /// parameter the entry cannot say (`ALTID`, `LANGUAGE`, a `TYPE` other than `pref`, a
        /// second label) keeps the line as it came.
        func describedEntry(_ property: VCardProperty, _ list: DescribedList) -> Outcome {
            let field = list.spec.field
            guard let labelParameter = list.vCard.labelParameter?.uppercased() else {
                let (label, rank, labelLine) = labelled(property, list.kind)
                let entry = LabeledValue(property.text(), label: label)
                return unknownEntryParameter(property)
                    ?? add(
                        entry, to: list.keyPath, field, rank: rank, labelLine: labelLine, isEmpty: Rules.trimmed(entry.value).isEmpty,
                        valid: ValueRules.entry(entry.value, entry.label, field) && Self.follows(list, entry))
            }
            if let refused = unknownEntryParameter(property, understood: ["PREF", "VALUE", "TYPE", labelParameter]) { return refused }
            // `TYPE=pref` is 3.0's and 2.1's preference; any other type is not the label.
            if property.values("TYPE").contains(where: { $0.asciiLowercased != "pref" }) { return .refused("its TYPE is not modelled") }
            let labels = property.values(labelParameter)
            if labels.count > 1 { return .refused("it has more than one \(labelParameter)") }
            let entry = LabeledValue(property.text(), label: list.kind.normalizedLabel(Rules.trimmed(labels.first ?? "")))
            return add(
                entry, to: list.keyPath, field, rank: property.preferenceRank, labelLine: nil, isEmpty: Rules.trimmed(entry.value).isEmpty,
                valid: ValueRules.entry(entry.value, entry.label, field) && Self.follows(list, entry))
        }

        /// Why an entry's parameters keep it from being mapped: one Carnet does not model, or a
        /// `VALUE` other than `values`.
        func unknownEntryParameter(
            _ property: VCardProperty, values: Set<String> = Self.textValue, understood: Set<String> = Self.entryParameters
        ) -> Outcome? {
            if property.parameters.isEmpty { return nil }
            if let type = property.valueType, !values.contains(type) { return .refused("a VALUE=\(type) value is not modelled") }
            return property.parameterNames(notIn: understood).first.map { .refused("the \($0) parameter is not modelled") }
        }

        for property in properties {
            let outcome: Outcome
            switch property.name {
            case "VERSION", "PRODID":
                outcome = .mapped
            case "KIND", "X-ADDRESSBOOKSERVER-KIND":
                let value = VCardText.trimmed(property.text()).lowercased()
                if value == "group" {
                    let form: GroupForm = property.name == "KIND" ? .vcard4 : .apple
                    if draft.kind == .group, draft.groupForm != form {
                        // Both forms' markers: the first is the group's form, the other is
                        // written back beside it (see VCardForms), so every reader keeps it a group.
                        otherGroupForm = otherGroupForm ?? outcomes.count
                    } else {
                        draft.kind = .group
                        draft.groupForm = form
                    }
                    outcome = .mapped
                } else {
                    // individual is the default; org and location are kept as they came.
                    outcome = value == "individual" ? .mapped : .unmodelled
                }
            case "MEMBER", "X-ADDRESSBOOKSERVER-MEMBER":
                if let member = GroupMember.uid(fromReference: property.text()) {
                    draft.members.append(member)
                    outcome = .mapped
                } else {
                    outcome = .refused("only a member named by urn:uuid: is modelled")
                }
            case "REV":
                if revision == nil { revision = InterchangeDate.parse(property.text()) }
                outcome = .mapped
            case "UID":
                // Kept as it came, `urn:uuid:` and all: it is the other clients' name for the card.
                let value = VCardText.trimmed(property.text())
                if uid == nil, UIDRule.issues(value).isEmpty {
                    uid = value
                    outcome = .mapped
                } else {
                    outcome = .refused(uid == nil ? "the UID is not usable" : "only the first UID is modelled")
                }
            case "FN":
                let value = property.text()
                if formattedName != nil {
                    outcome = .refused("only the first FN is modelled")
                } else if Rules.trimmed(value).isEmpty {
                    outcome = .refused("it is blank")
                } else {
                    if !ValueRules.line(value, .name) {
                        var scratch = ContactDraft()
                        scratch.name = value
                        refusedName = refusedName ?? value
                        outcome = .refused(Self.problem(.name, scratch))
                    } else {
                        formattedName = value
                        outcome = .mapped
                    }
                }
            case "N":
                let parts = property.components()
                let part = { (i: Int) -> String in i < parts.count ? parts[i] : "" }
                let name = PersonName(prefix: part(3), given: part(1), additional: part(2), family: part(0), suffix: part(4))
                if structuredName != nil {
                    outcome = .refused("only the first N is modelled")
                } else if parts.dropFirst(5).contains(where: { !VCardText.isBlank($0) }) {
                    outcome = .refused("it has more than the five parts of a name")
                } else {
                    let parts: [(Field, String)] = [
                        (.prefix, name.prefix), (.given, name.given), (.additional, name.additional), (.family, name.family),
                        (.suffix, name.suffix),
                    ]
                    if let broken = parts.first(where: { !ValueRules.line($0.1, $0.0) }) {
                        var scratch = ContactDraft()
                        scratch.nameParts = name
                        outcome = .refused(Self.problem(broken.0, scratch))
                    } else {
                        structuredName = name
                        outcome = .mapped
                    }
                }
            case "NOTE":
                // A quoted-printable note breaks its lines with CRLF, as a save would not.
                var note = property.text()
                if note.contains("\r") {
                    note = note.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
                }
                outcome = single(property, note, \.note, .note)
            case "ORG":
                var parts = property.components()
                let organization = parts.removeFirst()
                while parts.last.map(VCardText.isBlank) == true { parts.removeLast() }
                if seen.contains("ORG") {
                    outcome = .refused("only the first ORG is modelled")
                } else if let unknown = property.parameterNames(notIn: Self.textParameters).first {
                    outcome = .refused("the \(unknown) parameter is not modelled")
                } else {
                    var scratch = ContactDraft()
                    scratch.organization = organization
                    scratch.department = parts.joined(separator: ";")
                    if Rules.trimmed(organization).isEmpty, Rules.trimmed(scratch.department).isEmpty {
                        outcome = .refused("it is empty")
                    } else if !ValueRules.line(organization, .organization) {
                        outcome = .refused(Self.problem(.organization, scratch))
                    } else if !ValueRules.line(scratch.department, .department) {
                        outcome = .refused(Self.problem(.department, scratch))
                    } else {
                        draft.organization = scratch.organization
                        draft.department = scratch.department
                        seen.insert("ORG")
                        outcome = .mapped
                    }
                }
            case "EMAIL":
                var value = property.text()
                if value.hasASCIIPrefixIgnoringCase("mailto:") { value = String(value.dropFirst(7)) }
                let (label, rank, labelLine) = labelled(property, .email)
                outcome = addText(property, LabeledValue(value, label: label), to: \.emails, .email, rank: rank, labelLine: labelLine)
            case "TEL":
                var value = property.text()
                if value.hasASCIIPrefixIgnoringCase("tel:") { value = String(value.dropFirst(4)) }
                let (label, rank, labelLine) = labelled(property, .phone)
                outcome = addText(
                    property, LabeledValue(value, label: label), to: \.phones, .phone, rank: rank, labelLine: labelLine,
                    values: Self.textOrURIValue)
            case "ADR":
                let parts = property.components()
                let part = { (i: Int) -> String in i < parts.count ? parts[i] : "" }
                let (label, rank, labelLine) = labelled(property, .address)
                let address = PostalAddress(
                    label: label, poBox: part(0), extended: part(1), street: part(2), locality: part(3), region: part(4),
                    postalCode: part(5), country: part(6))
                if parts.dropFirst(7).contains(where: { !VCardText.isBlank($0) }) {
                    outcome = .refused("it has more than the seven parts of an address")
                } else {
                    outcome = unknownEntryParameter(property)
                        ?? add(
                            address, to: \.addresses, .address, rank: rank, labelLine: labelLine,
                            isEmpty: parts.prefix(7).allSatisfy { Rules.trimmed($0).isEmpty }, valid: ValueRules.address(address))
                }
            case "URL":
                let (label, rank, labelLine) = labelled(property, .url)
                outcome = addText(
                    property, LabeledValue(property.text(), label: label), to: \.urls, .url, rank: rank, labelLine: labelLine,
                    values: Self.uriValue)
            case "IMPP":
                let value = property.text()
                let colon = value.firstIndex(of: ":")
                let scheme = colon.map { value[..<$0].lowercased() } ?? ""
                let service = VCardLabels.messagingSchemes[scheme]
                if let service, let colon {
                    let serviceType = property.first("X-SERVICE-TYPE")
                    if let serviceType, serviceType.lowercased() != service.lowercased(), serviceType.lowercased() != scheme {
                        outcome = .refused("its X-SERVICE-TYPE \(serviceType) is not the service of \(scheme):")
                    } else if property.values("TYPE").contains(where: { $0.lowercased() != "pref" }) {
                        outcome = .refused("its TYPE is not modelled (a handle's label is its service)")
                    } else {
                        let handle = LabeledValue(String(value[value.index(after: colon)...]), label: scheme)
                        outcome = addText(
                            property, handle, to: \.handles, .handle, rank: property.preferenceRank, labelLine: nil,
                            values: Self.textOrURIValue, understood: Self.messagingParameters)
                    }
                } else {
                    outcome = .refused("its scheme is not one of \(VCardLabels.messagingSchemes.keys.sorted().joined(separator: ", "))")
                }
            case _ where VCardLabels.vendorMessaging[property.name] != nil:
                // The line is kept as it came (its TYPE and vendor parameters with it) and
                // written back while the handle keeps its value; the handle's label is the service.
                let handle = LabeledValue(Rules.trimmed(property.text()), label: VCardLabels.vendorMessaging[property.name] ?? "")
                outcome = add(
                    handle, to: \.handles, .handle, rank: property.preferenceRank, labelLine: nil,
                    isEmpty: handle.value.isEmpty, valid: ValueRules.entry(handle.value, handle.label, .handle))
            case "X-SOCIALPROFILE":
                let types = property.values("TYPE").filter { $0.lowercased() != "pref" }
                if types.count > 1 {
                    outcome = .refused("it has more than one TYPE")
                } else {
                    let handle = LabeledValue(property.text(), label: types.first.map(Rules.trimmed) ?? "")
                    outcome = addText(property, handle, to: \.handles, .handle, rank: property.preferenceRank, labelLine: nil)
                }
            case "BDAY", "ANNIVERSARY", "X-ANNIVERSARY", "X-EVOLUTION-ANNIVERSARY", "X-MS-ANNIVERSARY",
                "X-KADDRESSBOOK-X-ANNIVERSARY", "X-ABDATE":
                var label = property.name == "BDAY" ? ContactDate.birthday : ContactDate.anniversary
                var labelLine: Int?
                if property.name == "X-ABDATE" {
                    label = ""
                    if let group = property.group, let groupLabel = groupLabels[group] {
                        label = VCardLabels.label(abLabel: groupLabel.text, kind: .date)
                        labelLine = groupLabel.index
                    }
                }
                if let unknown = property.parameterNames(notIn: ["VALUE", "X-APPLE-OMIT-YEAR", "TYPE"]).first {
                    outcome = .refused("the \(unknown) parameter is not modelled")
                } else if property.values("TYPE").contains(where: { $0.lowercased() != "pref" }) {
                    outcome = .refused("its TYPE is not modelled")
                } else if let type = property.valueType, !["date", "date-time", "date-and-or-time"].contains(type) {
                    outcome = .refused("a VALUE=\(type) date is not modelled")
                } else if var parsed = VCardDate.parse(property.text()) {
                    if let omitted = property.first("X-APPLE-OMIT-YEAR").flatMap({ Int(VCardText.trimmed($0)) }), omitted == parsed.year {
                        parsed.year = nil
                    }
                    let date = ContactDate(label: label, year: parsed.year, month: parsed.month, day: parsed.day)
                    outcome = add(date, to: \.dates, .date, rank: 101, labelLine: labelLine, isEmpty: false, valid: ValueRules.date(date))
                } else {
                    outcome = .refused("it is not a date like 1815-12-10 or --12-10")
                }
            case "CATEGORIES":
                let items = property.listItems().map(Rules.trimmed).filter { !$0.isEmpty }
                var scratch = ContactDraft()
                scratch.categories = items
                if let unknown = property.parameterNames(notIn: Self.textParameters).first {
                    outcome = .refused("the \(unknown) parameter is not modelled")
                } else if items.isEmpty {
                    outcome = .refused("it is empty")
                } else if !items.allSatisfy({ ValueRules.line($0, .category) }) {
                    outcome = .refused(Self.problem(.category, scratch))
                } else {
                    // A set, not a search of the list per item, which is quadratic in the
                    // number of categories on the line.
                    var known = Set(draft.categories.map(\.asciiLowercased))
                    for item in items where known.insert(item.asciiLowercased).inserted {
                        draft.categories.append(item)
                    }
                    outcome = .mapped
                }
            case "PHOTO":
                if draft.photo != nil {
                    outcome = .refused("only the first PHOTO is modelled")
                } else if let unknown = property.parameterNames(notIn: ["ENCODING", "TYPE", "VALUE", "MEDIATYPE"]).first {
                    outcome = .refused("the \(unknown) parameter is not modelled")
                } else if let data = property.inlineData(), !data.isEmpty {
                    if !ValueRules.photo(data) {
                        var scratch = ContactDraft()
                        scratch.photo = data
                        outcome = .refused(Self.problem(.photo, scratch))
                    } else {
                        draft.photo = data
                        outcome = .mapped
                    }
                } else if property.inlineData() == nil, property.encoding == "b" || property.encoding == "base64"
                    || VCardText.trimmed(InterchangeText.string(property.value.prefix(5))).hasASCIIPrefixIgnoringCase("data:") {
                    outcome = .refused("its data cannot be decoded")
                } else {
                    outcome = .refused(property.value.isEmpty ? "it is empty" : "it is a link, not an image")
                }
            default:
                if let (spec, keyPath, vCard) = Self.described[property.name] {
                    outcome = described(property, spec, keyPath, vCard)
                } else if let list = Self.describedLists[property.name] {
                    outcome = describedEntry(property, list)
                } else {
                    outcome = .unmodelled
                }
            }
            outcomes.append(outcome)
        }

        // One preferred entry per list: the most preferred (lowest rank), the first of equals.
        func markPreferred(_ keyPath: WritableKeyPath<ContactDraft, [LabeledValue]>, _ field: Field) {
            guard let list = ranks[field], let best = list.min(), best <= 100, let index = list.firstIndex(of: best) else { return }
            draft[keyPath: keyPath][index].preferred = true
        }
        markPreferred(\.emails, .email)
        markPreferred(\.phones, .phone)
        markPreferred(\.urls, .url)
        markPreferred(\.handles, .handle)
        for (spec, keyPath, _) in ContactFields.vCardLists { markPreferred(keyPath, spec.field) }
        if let list = ranks[.address], let best = list.min(), best <= 100, let index = list.firstIndex(of: best) {
            draft.addresses[index].preferred = true
        }

        if draft.kind == .individual, !draft.members.isEmpty {
            // MEMBER on a card that is not a group: kept as it came, as any unmodelled line.
            for (index, property) in properties.enumerated()
            where property.name == "MEMBER" || property.name == "X-ADDRESSBOOKSERVER-MEMBER" {
                outcomes[index] = .refused("only a group card (KIND:group) has members")
            }
            draft.members = []
        }
        if let structuredName { draft.nameParts = structuredName }
        // Without an FN, the name comes from N, then ORG, then the first email, then the first phone.
        draft.name = formattedName
            ?? [structuredName?.displayName ?? "", draft.organization, draft.emails.first?.value ?? "", draft.phones.first?.value ?? ""]
            .map(Rules.trimmed).first { !$0.isEmpty } ?? ""
        if draft.name.isEmpty, let refusedName {
            // No other name to show: the card is refused by the rule its FN breaks (too long, a
            // control character), not as a card without a name.
            draft.name = refusedName
        }

        var notes: [InterchangeNote] = []
        var forms: [VCardProperty] = []
        for (index, outcome) in outcomes.enumerated() {
            switch outcome {
            case .mapped:
                if let conversion = Self.conversion(properties[index]) {
                    notes.append(InterchangeNote(line: properties[index].line, message: conversion, kind: .converted))
                }
                let property = properties[index]
                let label = property.group.flatMap { groupLabels[$0] }.map { VCardLabels.label(abLabel: $0.text, kind: .date) }
                if VCardForms.keepsForm(property, label: label) || index == otherGroupForm { forms.append(property) }
                continue
            case .unmodelled:
                // A group's label whose property was mapped went with it.
                if properties[index].name == "X-ABLABEL", usedLabels.contains(index) { continue }
                let property = properties[index]
                let verbatim = property.verbatim()
                let message = VCardWriter.isProfileLine(verbatim)
                    ? "\(property.preview) kept, but not written back: it only says this is a vCard, and readers such as khard cannot read a card with it"
                    : "\(property.preview) kept verbatim: Carnet has no field for it"
                notes.append(InterchangeNote(line: property.line, message: message, kind: .unmodelled))
            case let .refused(reason):
                let property = properties[index]
                notes.append(InterchangeNote(
                    line: property.line, message: "\(property.preview) kept as an unmodelled property: \(reason)"))
            }
            draft.extras.append(properties[index].verbatim())
        }
        draft.extras += VCardForms.lines(forms, for: draft)
        return InterchangeRecord(uid: uid, draft: draft, updatedAt: revision, line: line, notes: notes)
    }


    /// The text fields described as a property of their own, by each of their names.
    private static let described: [String: (ContactFieldSpec, WritableKeyPath<ContactDraft, String> & Sendable, VCardMapping)] = {
        var byName: [String: (ContactFieldSpec, WritableKeyPath<ContactDraft, String> & Sendable, VCardMapping)] = [:]
        for (spec, keyPath, vCard) in ContactFields.vCardText {
            for name in vCard.names { byName[name] = (spec, keyPath, vCard) }
        }
        return byName
    }()

    /// A list of labelled values described as a property an entry (`ContactFields/vCardLists`).
    struct DescribedList: Sendable {
        let spec: ContactFieldSpec
        let keyPath: WritableKeyPath<ContactDraft, [LabeledValue]> & Sendable
        let vCard: VCardMapping
        /// The kind of its entries: the labels it knows.
        let kind: EntryKind
    }

    /// The lists described as a property an entry, by each of their names.
    private static let describedLists: [String: DescribedList] = {
        var byName: [String: DescribedList] = [:]
        for (spec, keyPath, vCard) in ContactFields.vCardLists {
            guard let kind = spec.list?.kind else { continue }
            for name in vCard.names { byName[name] = DescribedList(spec: spec, keyPath: keyPath, vCard: vCard, kind: kind) }
        }
        return byName
    }()

    /// Whether an entry of a described list keeps the list's own rule, which `ValueRules` does
    /// not know (it knows only the lines and lengths every list shares): checked on a draft
    /// holding only it, normalized as a save would.
    private static func follows(_ list: DescribedList, _ entry: LabeledValue) -> Bool {
        var draft = ContactDraft()
        draft[keyPath: list.keyPath] = [entry]
        list.spec.normalize(&draft)
        var issues: [FieldIssue] = []
        list.spec.check(draft, into: &issues)
        return issues.isEmpty
    }

    /// The names other programs give a date Carnet writes back as `ANNIVERSARY`.
    private static let vendorAnniversaries: Set<String> = [
        "X-ANNIVERSARY", "X-EVOLUTION-ANNIVERSARY", "X-MS-ANNIVERSARY", "X-KADDRESSBOOK-X-ANNIVERSARY",
    ]

    /// How a mapped property was converted on the way in, for the import report; nil when it
    /// mapped as written.
    private static func conversion(_ property: VCardProperty) -> String? {
        let vendorDate = vendorAnniversaries.contains(property.name)
        var what: [String] = []
        if property.name == "ORG" {
            var units = property.components()
            while units.last.map(VCardText.isBlank) == true { units.removeLast() }
            if units.count > 2 { what.append("units after the second joined into the department with ; (written back as one unit)") }
        }
        if property.parameters.isEmpty && !vendorDate && what.isEmpty { return nil }
        if vendorDate { what.append("read as the anniversary (written back as it came unless the date changes, else as ANNIVERSARY)") }
        if property.isQuotedPrintable { what.append("quoted-printable decoded") }
        if let charset = property.first("CHARSET"), !["utf-8", "utf8", "us-ascii"].contains(charset.asciiLowercased) {
            what.append("decoded from \(TextRules.escapedForDisplay(charset))")
        }
        if property.name == "PHOTO", let encoding = property.encoding, encoding == "b" || encoding == "base64" {
            what.append("inline base64 image (written back as a data: URI in 4.0)")
        }
        return what.isEmpty ? nil : "\(property.name) \(what.joined(separator: ", "))"
    }

    private static let specs: [Field: ContactFieldSpec] = Dictionary(
        ContactFields.all.map { ($0.field, $0) }, uniquingKeysWith: { first, _ in first })

    /// What the field's rules say of the value in `scratch` (a draft holding only it) once it is
    /// normalized as a save would: the message of a value `ValueRules` refused.
    private static func problem(_ field: Field, _ scratch: ContactDraft) -> String {
        guard let spec = specs[field] else { return "\(field) breaks a rule" }
        var draft = scratch
        spec.normalize(&draft)
        var issues: [FieldIssue] = []
        spec.check(draft, into: &issues)
        return issues.first.map { "\($0.field) \($0.message)" } ?? "\(field) breaks a rule"
    }
}

/// The rules of `ContactFields` for one value, checked without a draft: building a scratch
/// draft for every value would cost more than reading the rest of the card. They are the
/// field description's rules (the same checks, the same limits, on the value trimmed as a save
/// trims it); the tests hold the two together, and the message of a refused value still comes
/// from the field description.
enum ValueRules {
    private static let limits: [Field: Int] = Dictionary(
        ContactFields.all.map { ($0.field, $0.maxLength) }, uniquingKeysWith: { first, _ in first })

    /// A one-line field's value.
    static func line(_ value: String, _ field: Field) -> Bool {
        var issues: [FieldIssue] = []
        Rules.checkLine(Rules.trimmed(value), field, max: limits[field] ?? 0, into: &issues)
        return issues.isEmpty
    }

    /// A multi-line field's value (the note).
    static func text(_ value: String, _ field: Field) -> Bool {
        var issues: [FieldIssue] = []
        Rules.checkText(Rules.trimmedText(value), field, max: limits[field] ?? 0, into: &issues)
        return issues.isEmpty
    }

    static func label(_ label: String) -> Bool {
        Rules.lineMessages(Rules.trimmed(label), max: Limits.labelLength).isEmpty
    }

    /// An email, phone, URL or handle with its label.
    static func entry(_ value: String, _ label: String, _ field: Field) -> Bool {
        guard line(value, field), self.label(label) else { return false }
        switch field {
        case .email: return EmailRule.isValid(Rules.trimmed(value))
        case .phone: return PhoneRule.isValid(Rules.trimmed(value))
        default: return true
        }
    }

    static func address(_ address: PostalAddress) -> Bool {
        [address.poBox, address.extended, address.street, address.locality, address.region, address.postalCode, address.country]
            .allSatisfy { line($0, .address) } && label(address.label)
    }

    static func date(_ date: ContactDate) -> Bool { date.isRealDate && label(date.label) }

    static func photo(_ data: Data) -> Bool { data.count <= Limits.photoBytes && ImageKind(of: data) != nil }
}
