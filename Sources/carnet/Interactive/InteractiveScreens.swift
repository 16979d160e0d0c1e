import CarnetModels
import CarnetViewModels
import Foundation

/// What each screen of interactive mode draws.
extension InteractiveSession {
    func render() throws {
        try app.reappear()
        switch app.current {
        case let .contacts(list):
            terminal.print(terminal.bold("── Contacts (\(countLabel(list))) ──") + (list.search.isEmpty ? "" : "  search: \(list.search.shown)"))
            if list.hasEarlier { terminal.print("  … (prev)") }
            for row in list.rows { terminal.print(listLine(row)) }
            if list.rows.isEmpty { terminal.print("  no contacts (add)") }
            if list.hasMore { terminal.print("  … (next)") }
        case let .favorites(list):
            terminal.print(terminal.bold("── Favorites (\(countLabel(list))) ──") + (list.search.isEmpty ? "" : "  search: \(list.search.shown)"))
            for row in list.rows { terminal.print("  \(row.favoritePosition ?? 0). \(row.contact.name.shown)  [\(row.id)]") }
            if list.rows.isEmpty { terminal.print("  no favorites (fav ID)") }
        case let .contactDetail(detail):
            terminal.print(terminal.bold("── Contact ──"))
            terminal.print(ContactRendering.detail(detail.contact, favoritePosition: detail.favoritePosition, terminal: terminal), terminator: "")
        case let .editContact(edit):
            terminal.print(terminal.bold(edit.isNew ? "── New contact ──" : "── Edit contact ──") + (edit.isDirty ? "  (unsaved)" : ""))
            for line in fieldLines(edit) { terminal.print(line) }
            printIssuesAndClashes(edit)
        case let .quote(quote):
            terminal.print(terminal.bold("── Quote ──"))
            if let q = quote.quote { terminal.print(QuoteRendering.text(q, terminal: terminal), terminator: "") }
        case let .editQuote(edit):
            terminal.print(terminal.bold(edit.isNew ? "── New quote ──" : "── Edit quote ──") + (edit.isDirty ? "  (unsaved)" : ""))
            terminal.print("  text:   \(edit.draft.text.multiline)\n  author: \(edit.draft.author.shown)")
            printIssuesAndClashes(edit)
        case let .groups(groups):
            terminal.print(terminal.bold("── Groups (\(groups.rows.count)) ──"))
            for group in groups.rows {
                terminal.print("\(String(group.id).leftPad(5))  \(group.name.shown)  \(GroupRendering.members(group.draft.members.count))")
            }
            if groups.rows.isEmpty { terminal.print("  no groups (add NAME)") }
        case let .groupDetail(group):
            terminal.print(terminal.bold("── Group ──"))
            if group.isDeleted {
                terminal.print("group \(group.group.id) was deleted (back)")
            } else {
                terminal.print(GroupRendering.detail(try group.members(), terminal: terminal, noMembers: "add-member ID…"), terminator: "")
            }
        case let .books(books):
            terminal.print(terminal.bold("── Address books ──"))
            for book in books.books {
                terminal.print("  \(book.name.shown)\(book.isDefault ? " (default)" : "")  \(book.contents)")
            }
        }
    }

    /// Under an edit screen: each broken rule, and each field both edits changed, with both values.
    func printIssuesAndClashes<Record: DraftSaving>(_ edit: DraftEditor<Record>) {
        for issue in edit.issues { terminal.print("  ! \(issue)") }
        guard let theirs = edit.original?.draft else { return }
        for field in edit.clashes {
            terminal.print("  ? \(field): theirs \(describe(field, of: theirs).shown), yours \(describe(field, of: edit.draft).shown)")
        }
    }

    /// Every field of the draft, one per line under its key, empty ones too, so the screen shows
    /// what can be set; a list's entries numbered as the commands number them, a note's lines
    /// one under the other.
    func fieldLines(_ edit: EditContactViewModel) -> [String] {
        let width = (ContactFields.all.map(\.key.count).max() ?? 0) + 2
        var lines: [String] = []
        for spec in ContactFields.all {
            let values: [String]
            switch spec.value {
            case let .text(keyPath): values = [edit.draft[keyPath: keyPath].shown]
            case let .multiline(keyPath):
                let text = edit.draft[keyPath: keyPath]
                values = text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).shown }
            case let .photo(keyPath):
                values = edit.draft[keyPath: keyPath].map { ["\(ImageKind(of: $0)?.rawValue.uppercased() ?? "image"), \($0.count) bytes"] } ?? []
            case .list:
                values = edit.entryRows(in: spec.field).enumerated().map { number, row in
                    "\(number + 1). \(row.value.shown)" + (row.entryLabel.isEmpty ? "" : " (\(row.entryLabel.shown))")
                }
            }
            let head = "  " + (spec.key + ":").padding(toLength: width, withPad: " ", startingAt: 0)
            let indent = String(repeating: " ", count: head.count)
            for (index, value) in (values.isEmpty ? [""] : values).enumerated() {
                let line = (index == 0 ? head : indent) + value
                lines.append(String(line.reversed().drop { $0 == " " }.reversed()))
            }
        }
        return lines
    }

    func listLine(_ row: ContactRow) -> String {
        let position = row.contact.position.isEmpty ? "" : " — \(row.contact.position.shown)"
        return "\(String(row.id).leftPad(5))  \(row.contact.name.shown)\(position)\(row.isFavorite ? "  ★" : "")"
    }

    func describe<Draft: EditableDraft>(_ field: Field, of draft: Draft) -> String {
        guard let spec = Draft.fields.first(where: { $0.field == field }) else { return "" }
        switch spec.value {
        case let .text(keyPath), let .multiline(keyPath): return "\"\(draft[keyPath: keyPath])\""
        case let .photo(keyPath): return draft[keyPath: keyPath].map { "a photo of \($0.count) bytes" } ?? "no photo"
        case let .list(list): return "[" + list.entries(draft).map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        }
    }

    /// The header's count: the matches of a search out of the whole tab, else the whole tab.
    func countLabel(_ list: ContactsViewModel) -> String {
        list.search.isEmpty ? "\(list.totalCount)" : "\(list.matchCount) of \(list.totalCount)"
    }

    /// A draft on one line: `Ada Lovelace | Analyst | ada@example.com | +44 20 7946 0000`: the
    /// values of the fields a search looks in (who it is and how to reach them; every entry of a
    /// list; the name once, without its parts), or, for a draft whose description marks none
    /// searchable (a quote), its text fields.
    func describe<Draft: EditableDraft>(_ draft: Draft) -> String {
        let nameParts = Set(Field.nameParts)
        let searchable = Draft.fields.filter { $0.searchable && !nameParts.contains($0.field) }
        let fields = searchable.isEmpty ? Draft.fields.filter { $0.text != nil || $0.multilineText != nil } : searchable
        return fields.flatMap { $0.texts(of: draft) }.joined(separator: " | ").replacingOccurrences(of: "\n", with: " ")
    }
}
