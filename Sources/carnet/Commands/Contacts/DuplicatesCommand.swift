import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct DuplicatesCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "duplicates",
        abstract: "List the contacts that are likely one person, strongest first, with the reasons.",
        discussion: """
            Contacts are proposed together when they have the same email (ignoring case), the \
            same phone number (by its digits; +44 20 7946 0000 is 020 7946 0000), the same name \
            once case, accents, punctuation and word order are set aside ("Lovelace, Ada" is \
            "ada lovelace"; a structured name's given and family parts count too), or near names \
            ("A. Lovelace", "Ada Lovelace") with an email domain, a phone or an address in common. \
            An email, number or name shared by more than 12 contacts (a switchboard, a team's \
            address) is no reason on its own. Two contacts you said are different people \
            (carnet merge --different) are never proposed together again.

            EXAMPLES:
              carnet duplicates
              carnet duplicates --json
              carnet merge 12 40          # keep 12, merge 40 into it
            """)

    @OptionGroup var database: DatabaseOption
    @OptionGroup var book: BookOption
    @Flag(help: "Write the groups as JSON: each group's contacts and reasons.") var json = false

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let screen = DuplicatesViewModel(state: state, scope: DuplicateScope(bookID: try book.resolved(state)?.id))
        try screen.refresh()
        if json { return try printJSON(screen, terminal: terminal) }
        guard !screen.rows.isEmpty else {
            let count = screen.contactCount
            return terminal.print("no likely duplicates among \(count) contact\(count == 1 ? "" : "s")")
        }
        let count = screen.rows.count
        terminal.print("\(count) group\(count == 1 ? "" : "s") of likely duplicates "
            + "(carnet merge ID ID… keeps the first; carnet merge --different ID ID if they are not one person):")
        // A group at a time, so a million-contact book's listing is never one string in memory.
        for (i, row) in screen.rows.enumerated() {
            var out = "\(i + 1). " + row.members.map { "\($0.name.shown) [\($0.id)]" }.joined(separator: ", ") + "\n"
            for reason in row.group.reasons {
                let ids = reason.contactIDs.count == row.members.count ? "" : " [" + reason.contactIDs.map(String.init).joined(separator: ", ") + "]"
                out += "   \(reason.description.shown)\(ids)\n"
            }
            terminal.print(out, terminator: "")
        }
    }

    /// The same document `JSONSerialization` would write for the whole object (keys sorted,
    /// pretty-printed), written a group at a time: the whole book's groups as Foundation objects
    /// and their text at once took twice the memory of the search itself.
    @MainActor private func printJSON(_ screen: DuplicatesViewModel, terminal: Terminal) throws {
        terminal.print("{\n  \"contacts\" : \(screen.contactCount),\n  \"groups\" : [", terminator: "")
        for (i, row) in screen.rows.enumerated() {
            let group: [String: Any] = [
                "contacts": row.members.map { ["id": $0.id, "name": $0.name] as [String: Any] },
                "reasons": row.group.reasons.map { ["kind": $0.kind.rawValue, "detail": $0.detail, "contacts": $0.contactIDs] as [String: Any] },
                "strength": row.group.strength,
            ]
            let data = try JSONSerialization.data(withJSONObject: group, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            let indented = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                .map { "    " + $0 }.joined(separator: "\n")
            terminal.print((i == 0 ? "\n" : ",\n") + indented, terminator: "")
        }
        terminal.print((screen.rows.isEmpty ? "\n\n" : "\n") + "  ],\n  \"pairsCompared\" : \(screen.pairsCompared)\n}")
    }
}
