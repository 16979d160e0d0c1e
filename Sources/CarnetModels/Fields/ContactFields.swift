import Foundation

/// A contact's field description.
public typealias ContactFieldSpec = DraftField<ContactDraft>

/// The editable fields of a contact, in the order screens and files show them.
public enum ContactFields {
    /// A one-line text field stored in its own column of `contacts` (the field's name unless
    /// `column` says otherwise).
    private static func line(
        _ field: Field, _ label: String, _ keyPath: WritableKeyPath<ContactDraft, String> & Sendable, max: Int, search: SearchColumn? = nil,
        section: FieldSection = .name, column: String? = nil, vCard: VCardMapping? = nil, csv: [String] = [], ldif: String? = nil,
        rule: (@Sendable (String) -> String?)? = nil, canonical: (@Sendable (String) -> String)? = nil, _ help: String
    ) -> ContactFieldSpec {
        ContactFieldSpec(
            field: field, label: label, value: .text(keyPath), help: help, maxLength: max, search: search, section: section,
            column: column ?? field.rawValue, vCard: vCard, csvColumns: csv, ldif: ldif, rule: rule, canonical: canonical)
    }

    /// A list of labelled values stored in the child table `contact_` + `key`; with `vCard`, each
    /// entry is that property (the vCard reader and writer take it from this entry alone).
    private static func labeled(
        _ field: Field, _ label: String, key: String, _ keyPath: WritableKeyPath<ContactDraft, [LabeledValue]> & Sendable, kind: EntryKind,
        max: Int, search: SearchColumn?, section: FieldSection = .reach, vCard: VCardMapping? = nil, _ help: String,
        rule: @escaping @Sendable (String) -> String?
    ) -> ContactFieldSpec {
        let list = EntryList<ContactDraft>.of(keyPath, kind: kind, codec: .preferable) { entry, max in
            var messages = Rules.lineMessages(entry.value, max: max)
            if messages.isEmpty, let broken = rule(entry.value) { messages.append(broken) }
            messages += Rules.lineMessages(entry.label, max: Limits.labelLength).map { "label " + $0 }
            return messages
        }
        return ContactFieldSpec(
            field: field, label: label, value: .list(list), help: help, key: key, maxLength: max, search: search, section: section,
            vCard: vCard, table: "contact_" + key, labeledValues: keyPath)
    }

    public static let all: [ContactFieldSpec] = [
        line(.name, "Name", \.name, max: Limits.nameLength, search: .names, "The name as shown (required unless --given or --family is given)."),
        line(.prefix, "Prefix", \.nameParts.prefix, max: Limits.namePartLength, search: .names, column: "name_prefix", csv: ["nameprefix"], "Honorific prefix, e.g. \"Dr.\"."),
        line(.given, "Given name", \.nameParts.given, max: Limits.namePartLength, search: .names, column: "given_name", csv: ["givenname", "firstname"], "Given (first) name."),
        line(.additional, "Additional names", \.nameParts.additional, max: Limits.namePartLength, search: .names, column: "additional_names", csv: ["additionalname", "middlename"], "Middle names or initials."),
        line(.family, "Family name", \.nameParts.family, max: Limits.namePartLength, search: .names, column: "family_name", csv: ["familyname", "lastname"], "Family (last) name."),
        line(.suffix, "Suffix", \.nameParts.suffix, max: Limits.namePartLength, search: .names, column: "name_suffix", csv: ["namesuffix", "suffix"], "Honorific suffix, e.g. \"Jr.\"."),
        line(.nickname, "Nickname", \.nickname, max: Limits.nameLength, search: .names, vCard: VCardMapping("NICKNAME"), csv: ["nickname"], ldif: "mozillaNickname", "A nickname."),
        line(.pronouns, "Pronouns", \.pronouns, max: 100, vCard: VCardMapping("PRONOUNS", olderName: "X-PRONOUNS"), csv: ["pronouns"],
             "The pronouns to use, e.g. she/her or they/them."),
        line(.gender, "Gender", \.gender, max: 200, vCard: VCardMapping("GENDER", components: 2),
             rule: Gender.rule, canonical: Gender.canonical,
             "Sex and gender identity: M, F, O (other), N (none), U (unknown), optionally then ;IDENTITY, e.g. F, O;non-binary, or ;agender (an identity alone)."),
        line(.organization, "Organization", \.organization, max: Limits.positionLength, search: .work, section: .work, csv: ["company", "organizationname"], "The organization (company)."),
        line(.department, "Department", \.department, max: Limits.positionLength, search: .work, section: .work, csv: ["department", "organizationdepartment"], "The department or unit."),
        line(.title, "Title", \.title, max: Limits.positionLength, search: .work, section: .work, vCard: VCardMapping("TITLE"), csv: ["jobtitle", "organizationtitle"], "The job title."),
        line(.role, "Role", \.role, max: Limits.positionLength, search: .work, section: .work, vCard: VCardMapping("ROLE"), "The role or function."),
        labeled(.email, "Emails", key: "emails", \.emails, kind: .email, max: Limits.emailLength, search: .emails,
                "An email, optionally typed: work:ada@example.com (types: home, work, other or a label; add ,pref for the preferred one).") {
            EmailRule.isValid($0) ? nil : "must look like name@example.com (no spaces or invisible characters)"
        },
        labeled(.phone, "Phones", key: "phones", \.phones, kind: .phone, max: Limits.phoneLength, search: .phones,
                "A phone, optionally typed: cell:+44 20 7946 0000 (cell, home, work, fax, pager, other or a label).") {
            PhoneRule.isValid($0) ? nil : "may hold only digits, spaces and + - ( ) . and must have a digit"
        },
        ContactFieldSpec(
            field: .address, label: "Addresses",
            value: .list(.of(\.addresses, kind: .address, codec: .preferable) { address, max in
                let parts = [address.poBox, address.extended, address.street, address.locality, address.region, address.postalCode, address.country]
                return parts.flatMap { Rules.lineMessages($0, max: max) }
                    + Rules.lineMessages(address.label, max: Limits.labelLength).map { "label " + $0 }
            }),
            help: "An address: [TYPE:]street; locality; region; postal code; country[; extended[; PO box]], e.g. home:12 Main St; Springfield; IL; 62701; USA.",
            key: "addresses", maxLength: Limits.addressPartLength, search: .addresses, section: .reach),
        labeled(.url, "URLs", key: "urls", \.urls, kind: .url, max: Limits.urlLength, search: .web, "A web address, optionally typed: work:https://example.com.") { _ in nil },
        labeled(.handle, "Handles", key: "handles", \.handles, kind: .handle, max: Limits.handleLength, search: .web,
                "An instant-messaging or social handle, SERVICE:NAME, e.g. mastodon:@ada@example.social.") { _ in nil },
        ContactFieldSpec(
            field: .date, label: "Dates",
            value: .list(.of(\.dates, kind: .date, codec: .entry()) { date, _ in
                var messages: [String] = []
                if !date.isRealDate { messages.append("is not a real calendar date") }
                messages += Rules.lineMessages(date.label, max: Limits.labelLength).map { "label " + $0 }
                return messages
            }),
            help: "A date: birthday:1815-12-10, anniversary:--06-01 (no year) or LABEL:YYYY-MM-DD.",
            key: "dates", section: .dates),
        ContactFieldSpec(
            field: .note, label: "Note", value: .multiline(\.note), help: "A note (line breaks allowed).",
            maxLength: Limits.noteLength, search: .note, section: .note, column: "note", csvColumns: ["notes", "note"]),
        ContactFieldSpec(
            field: .category, label: "Categories",
            value: .list(.of(\.categories, kind: .category, codec: .plain) { name, max in Rules.lineMessages(name, max: max) }),
            help: "A category (group) the contact is in, e.g. friends.", key: "categories", maxLength: Limits.categoryLength,
            search: .categories, section: .categories),
        labeled(.expertise, "Expertise", key: "expertise", \.expertise, kind: EntryKind("expertise", knownTypes: ["beginner", "average", "expert"]),
                max: Limits.positionLength, search: .work, section: .work, vCard: VCardMapping("EXPERTISE", labelParameter: "LEVEL"),
                "Something the person knows, optionally with its level: expert:Swift (beginner, average, expert).") { _ in nil },
        labeled(.hobby, "Hobbies", key: "hobbies", \.hobbies, kind: EntryKind("hobby", knownTypes: ["high", "medium", "low"]),
                max: Limits.positionLength, search: .categories, section: .other, vCard: VCardMapping("HOBBY", labelParameter: "LEVEL"),
                "Something the person does for pleasure, optionally with how much: high:sailing (high, medium, low).") { _ in nil },
        labeled(.interest, "Interests", key: "interests", \.interests, kind: EntryKind("interest", knownTypes: ["high", "medium", "low"]),
                max: Limits.positionLength, search: .categories, section: .other, vCard: VCardMapping("INTEREST", labelParameter: "LEVEL"),
                "Something the person is interested in, optionally with how much: medium:astronomy (high, medium, low).") { _ in nil },
        ContactFieldSpec(
            field: .photo, label: "Photo", value: .photo(\.photo), help: "An image: JPEG, PNG, GIF or WebP, at most 1 MiB.",
            section: .photo),
        ContactFieldSpec(
            field: .extra, label: "Other properties",
            value: .list(.of(\.extras, kind: .extra, codec: .plain) { line, max in Rules.extraMessages(line, max: max) }),
            help: "A vCard property Carnet does not model, kept verbatim (e.g. X-ABLabel:Work).", key: "extras",
            maxLength: Limits.extraLength, section: .other),
    ]

    /// The fields that are one line of text, with their key paths.
    public static let text: [(spec: ContactFieldSpec, keyPath: WritableKeyPath<ContactDraft, String> & Sendable)] =
        all.compactMap { spec in spec.text.map { (spec, $0) } }

    /// The one-line and multi-line fields stored in a column of `contacts`, in `all` order.
    public static let columns: [ContactFieldSpec] = all.filter { $0.column != nil }

    /// The text fields written as a vCard property of their own, in `all` order.
    public static let vCardText: [(spec: ContactFieldSpec, keyPath: WritableKeyPath<ContactDraft, String> & Sendable, vCard: VCardMapping)] =
        text.compactMap { spec, keyPath in spec.vCard.map { (spec, keyPath, $0) } }

    /// The lists of labelled values written as a vCard property an entry, in `all` order.
    public static let vCardLists: [(spec: ContactFieldSpec, keyPath: WritableKeyPath<ContactDraft, [LabeledValue]> & Sendable, vCard: VCardMapping)] =
        all.compactMap { spec in spec.labeledValues.flatMap { keyPath in spec.vCard.map { (spec, keyPath, $0) } } }

    /// The list fields.
    public static let lists: [(spec: ContactFieldSpec, list: EntryList<ContactDraft>)] =
        all.compactMap { spec in spec.list.map { (spec, $0) } }

    /// The field whose `ContactFieldSpec.key` or `ContactFieldSpec.flag` is `key`, ignoring case.
    public static func named(_ key: String) -> ContactFieldSpec? {
        let wanted = key.lowercased()
        return all.first { $0.key == wanted || $0.flag == wanted }
    }

    /// The spec of `field`.
    public static func spec(_ field: Field) -> ContactFieldSpec? { all.first { $0.field == field } }
}
