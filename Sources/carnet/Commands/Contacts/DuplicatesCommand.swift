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
              carnet duplicates --merge-all

            --merge-all merges every group whose contacts never hold two values of one field \
            (lists are united, as carnet merge unites them) into its first contact, all as one \
            action: one carnet undo takes every merge back. A group whose contacts differ on a \
            name, a title, a birthday or another one-valued field is left and listed, for \
            carnet merge to ask which value to keep; with --keep-first it is merged too, the \
            first contact's value kept, and each field so settled is printed.
            """)

    @OptionGroup var database: DatabaseOption
    @OptionGroup var book: BookOption
    @Flag(help: "Write the groups as JSON: each group's contacts and reasons.") var json = false
    @Flag(name: .customLong("merge-all"), help: "Merge every group that needs no choice into its first contact, as one action; list the others.")
    var mergeAll = false

    @Flag(name: .customLong("keep-first"), help: "With --merge-all, merge the groups whose contacts differ too, keeping the first contact's values.")
    var keepFirst = false

    var writes: Bool { mergeAll }

    func validate() throws {
        if mergeAll && json { throw ValidationError("--merge-all prints what it merged; it cannot be combined with --json") }
        if keepFirst && !mergeAll { throw ValidationError("--keep-first says how --merge-all settles differing values; give --merge-all too") }
    }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let screen = DuplicatesViewModel(state: state, scope: DuplicateScope(bookID: try book.resolved(state)?.id))
        if mergeAll { return try merge(screen, terminal: terminal) }
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

    @MainActor private func merge(_ screen: DuplicatesViewModel, terminal: Terminal) throws {
        let done = try screen.mergeAll(keepingFirst: keepFirst, refreshing: false)
        let merged = done.merged.count
        if merged == 0 && done.left.isEmpty && done.overlapping.isEmpty {
            let count = screen.contactCount
            return terminal.print("no likely duplicates among \(count) contact\(count == 1 ? "" : "s"); nothing merged")
        }
        if merged > 0 {
            terminal.print("merged \(merged) group\(merged == 1 ? "" : "s") of likely duplicates; carnet undo takes \(merged == 1 ? "it" : "them all") back:")
            for group in done.merged {
                terminal.print("  \(group.name.shown) [\(group.id)]")
                for question in group.settled {
                    terminal.print("    " + MergeCommand.settled(question, ids: group.contactIDs) { id, value in "\(id) had “\(value.shown)”" })
                }
            }
        }
        if !done.overlapping.isEmpty {
            let count = done.overlapping.count
            terminal.print("\(count) more group\(count == 1 ? " shares" : "s share") a contact with a group merged now; "
                + "carnet duplicates --merge-all again merges \(count == 1 ? "it" : "them") with the merged contact")
        }
        guard !done.left.isEmpty else { return }
        let left = done.left.count
        terminal.print("left \(left) group\(left == 1 ? "" : "s") whose contacts differ on a field "
            + "(carnet merge ID ID… asks which value to keep; --keep-first keeps the first's):")
        for (i, row) in done.left.enumerated() {
            terminal.print("\(i + 1). " + row.members.map { "\($0.name.shown) [\($0.id)]" }.joined(separator: ", "))
        }
    }

    @MainActor private func printJSON(_ screen: DuplicatesViewModel, terminal: Terminal) throws {
        let options: JSONSerialization.WritingOptions = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        func object(groups: [Any]) -> [String: Any] {
            ["groups": groups, "contacts": screen.contactCount, "pairsCompared": screen.pairsCompared]
        }
        func group(_ row: DuplicatesViewModel.Row) -> [String: Any] {
            [
                "contacts": row.members.map { ["id": $0.id, "name": $0.name] as [String: Any] },
                "reasons": row.group.reasons.map { ["kind": $0.kind.rawValue, "detail": $0.detail, "contacts": $0.contactIDs] as [String: Any] },
                "strength": row.group.strength,
            ]
        }
        // The groups are written one at a time, each as JSONSerialization writes it inside the
        // whole (one level deeper), between the lines it writes around a placeholder group: the
        // Foundation objects of every group at once, and the whole text, took more memory than
        // finding the groups did.
        let frame = String(decoding: try JSONSerialization.data(withJSONObject: object(groups: [0]), options: options), as: UTF8.self)
        guard !screen.rows.isEmpty, let placeholder = frame.range(of: "\n    0\n") else {
            let data = try JSONSerialization.data(withJSONObject: object(groups: screen.rows.map(group)), options: options)
            return terminal.print(String(decoding: data, as: UTF8.self))
        }
        var out = String(frame[..<placeholder.lowerBound]) + "\n"
        for (i, row) in screen.rows.enumerated() {
            let text = String(decoding: try JSONSerialization.data(withJSONObject: group(row), options: options), as: UTF8.self)
            out += text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
            out += i == screen.rows.count - 1 ? "\n" : ",\n"
            if out.utf8.count >= 1 << 16 {
                terminal.print(out, terminator: "")
                out = ""
            }
        }
        terminal.print(out + frame[placeholder.upperBound...])
    }
}
