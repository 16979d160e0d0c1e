import CarnetModels
import Foundation

/// The form a mapped property came in, when Carnet's fields cannot say it: a `LANGUAGE`
/// parameter on `FN`, a note's trailing spaces, `BDAY:19850128T00:00:00Z`, Apple's
/// `X-APPLE-OMIT-YEAR`, a vendor's name for the anniversary (`X-MS-ANNIVERSARY`).
///
/// The importer keeps such a line in `ContactDraft/extras` as `X-CARNET-FORM:` followed by the
/// line as it came. The writer writes that line in place of its own while the field still holds
/// the value the line says, so a card goes back in its own form unless the person changed it;
/// once the value changes, the field is written in Carnet's form and the old line is not
/// written (it stays in the contact's kept lines). An `X-CARNET-FORM` line is never written as it is.
enum VCardForms {
    static let prefix = "X-CARNET-FORM:"

    /// The names of the text fields described as a property of their own (both names of each),
    /// those the writer writes before `ORG` and those after.
    private static let described: (before: [String], after: [String]) = {
        let organization = ContactFields.all.firstIndex { $0.field == .organization } ?? 0
        var before: [String] = []
        var after: [String] = []
        for (spec, _, vCard) in ContactFields.vCardText {
            let names = vCard.names
            if (ContactFields.all.firstIndex { $0 === spec } ?? 0) < organization { before += names } else { after += names }
        }
        return (before, after)
    }()
    private static let textNames: Set<String> = Set(["FN", "N", "NOTE", "ORG"] + described.before + described.after)
    static let vendorAnniversaries: Set<String> = ["X-EVOLUTION-ANNIVERSARY", "X-MS-ANNIVERSARY", "X-KADDRESSBOOK-X-ANNIVERSARY"]

    /// The property that marks a card as a group in `form`. A card can carry both forms' markers;
    /// the first is its `GroupForm`, the other is kept as a form line and written beside it.
    static func groupMarker(_ form: GroupForm) -> String {
        form == .vcard4 ? "KIND" : "X-ADDRESSBOOKSERVER-KIND"
    }

    /// Whether a property mapped onto a field says more than the field will write back.
    static func keepsForm(_ property: VCardProperty, label: String? = nil) -> Bool {
        // Apple's grouped X-ABDATE labelled as the anniversary: written back so, not as X-ANNIVERSARY.
        if property.name == "X-ABDATE" { return property.group != nil && label == ContactDate.anniversary }
        if VCardLabels.vendorMessagingNames.contains(property.name) { return true }
        if property.group != nil { return false }
        if textNames.contains(property.name) {
            if property.parameters.contains(where: { !["CHARSET", "ENCODING", "VALUE"].contains($0.name) }) { return true }
            if property.name == "NOTE" || property.name == "FN" {
                let text = property.text()
                return text != Rules.trimmed(text)
            }
            return false
        }
        switch property.name {
        case "BDAY", "ANNIVERSARY":
            return property.first("X-APPLE-OMIT-YEAR") != nil || property.text().contains(where: { $0 == "T" || $0 == "t" })
        case _ where vendorAnniversaries.contains(property.name):
            return true
        default:
            return false
        }
    }

    /// The order the writer writes the fields in, which the kept forms follow, so a card read,
    /// written and read again keeps the same lines in the same order.
    private static let order = ["FN", "N"] + described.before + ["ORG"] + described.after + ["BDAY", "ANNIVERSARY", "X-ABDATE"]
        + vendorAnniversaries.sorted() + ["NOTE"]

    /// The `X-CARNET-FORM:` lines to keep for the mapped properties `forms` (each a property
    /// `keepsForm(_:)` took) of a card read as `draft`: only the forms the writer will use, one
    /// per field, in the writer's order.
    static func lines(_ forms: [VCardProperty], for draft: ContactDraft) -> [String] {
        if forms.isEmpty { return [] }
        var kept: [(rank: Int, line: String)] = []
        var fields: Set<String> = []
        let birthday = draft.dates.first { $0.label == ContactDate.birthday }
        let anniversary = draft.dates.first { $0.label == ContactDate.anniversary }
        for form in forms {
            // Every vendor handle line the draft still holds, each its own entry.
            if let service = VCardLabels.vendorMessaging[form.name] {
                if draft.handles.contains(where: { says(form, handle: $0, service: service) }) {
                    kept.append((order.count, prefix + form.verbatim()))
                }
                continue
            }
            let isDate = form.name == "BDAY" || form.name == "ANNIVERSARY" || form.name == "X-ABDATE" || vendorAnniversaries.contains(form.name)
            let field = form.name == "BDAY" ? "birthday" : isDate ? "anniversary" : form.name
            guard !fields.contains(field) else { continue }
            if isDate {
                // The first date of its kind is the one the writer writes as BDAY or ANNIVERSARY.
                guard let date = form.name == "BDAY" ? birthday : anniversary, says(form, date) else { continue }
            }
            fields.insert(field)
            kept.append((order.firstIndex(of: form.name) ?? order.count, prefix + form.verbatim()))
        }
        return kept.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }.map(\.element.line)
    }

    /// The kept forms of a card's extras, by property name, in order.
    struct Kept {
        private var forms: [(name: String, line: String, property: VCardProperty)] = []
        private var used: Set<Int> = []

        init(extras: [String]) {
            for extra in extras where extra.hasPrefix(VCardForms.prefix) {
                let line = String(extra.dropFirst(VCardForms.prefix.count))
                if let property = try? VCardProperty(Array(line.utf8), line: 1) {
                    forms.append((property.name, line, property))
                }
            }
        }

        /// The first unused kept line among `names` whose value `matches`, marked used.
        mutating func take(_ names: Set<String>, matching matches: (VCardProperty) -> Bool) -> String? {
            if forms.isEmpty { return nil }
            for (index, form) in forms.enumerated() where !used.contains(index) && names.contains(form.name) && matches(form.property) {
                used.insert(index)
                return form.line
            }
            return nil
        }
    }

    /// Whether a kept date line says `date` (its year left out as `X-APPLE-OMIT-YEAR` says).
    static func says(_ property: VCardProperty, _ date: ContactDate) -> Bool {
        guard var parsed = VCardDate.parse(property.text()) else { return false }
        if let omitted = property.first("X-APPLE-OMIT-YEAR").flatMap({ Int(VCardText.trimmed($0)) }), omitted == parsed.year {
            parsed.year = nil
        }
        return parsed.year == date.year && parsed.month == date.month && parsed.day == date.day
    }

    /// Whether a kept vendor messaging line (`X-JABBER:ada@jabber.org`) says `handle`.
    static func says(_ property: VCardProperty, handle: LabeledValue, service: String) -> Bool {
        handle.label == service && Rules.trimmed(property.text()) == handle.value
    }

    /// Whether a kept text line says `value` once trimmed as a save trims it.
    static func says(_ property: VCardProperty, text value: String) -> Bool {
        Rules.trimmedText(property.text()) == value
    }

    static func says(_ property: VCardProperty, components: [String]) -> Bool {
        var parts = property.components()
        while parts.count < components.count { parts.append("") }
        while parts.count > components.count, parts.last.map(VCardText.isBlank) == true { parts.removeLast() }
        return parts.map(Rules.trimmed) == components.map(Rules.trimmed)
    }
}
