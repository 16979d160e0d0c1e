import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension SyncCommand {
    struct Status: SyncingCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show each linked address book, its last sync, what waits to be sent, conflicts and cards not synced.",
            discussion: """
                Asks nothing of the server. Each recent conflict has a number, and each field both \
                sides changed shows the value kept (as the contact holds it now) and the value that \
                lost; carnet sync take NUMBER takes the one that lost. A card on the server that \
                this file cannot take is named by every sync and listed here until it syncs, is gone \
                there, or carnet sync skip says to stop. With several linked books, each has a \
                block of its own; --json gives the first book's fields at the top, as with one \
                book, and every book's in "books".

                EXAMPLES:
                  carnet sync status
                  carnet sync status --json
                """)

        @OptionGroup var database: DatabaseOption
        @Flag(help: "Print a JSON object.") var json = false

        @MainActor func run(sync: SyncViewModel, terminal: Terminal) throws {
            let statuses = try sync.statuses()
            guard let first = statuses.first else { throw CarnetError.sync(.notConfigured) }
            if json {
                terminal.print(try JSONOutput.string(StatusJSON(first, books: statuses)))
                return
            }
            for (index, status) in statuses.enumerated() {
                // Several linked books: each its own block, named.
                if statuses.count > 1 {
                    if index > 0 { terminal.print("") }
                    terminal.print("book: \(status.account.bookName.shown)")
                }
                render(status, terminal: terminal)
            }
        }

        @MainActor private func render(_ status: SyncStatus, terminal: Terminal) {
            let account = status.account
            var lines = ["address book: \(account.collectionURL)"]
            if !account.username.isEmpty {
                let password = account.passwordCommand.isEmpty ? "password from CARNET_SYNC_PASSWORD" : "password from: \(account.passwordCommand)"
                lines.append("user: \(account.username) (\(password))")
            }
            if account.certificateAuthority != nil { lines.append("certificate: checked against the CA given to --ca-file only") }
            lines.append("last sync: " + (account.lastSyncAt.map { Timestamp.string($0) } ?? "never"))
            if account.collectionGoneAt != nil {
                let rest = account.collectionURL.range(of: "://").map { account.collectionURL[$0.upperBound...] } ?? ""
                let path = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
                lines.append(
                    "collection gone: \(account.host) had no address book at \(path) at the last sync; "
                        + "carnet sync setup URL --book \(account.bookName) links the book to another")
            }
            lines.append("synced contacts: \(status.linked)")
            lines.append("to send: \(status.pendingNew) new, \(status.pendingChanged) changed, \(status.pendingDeletes) deleted")
            if !status.groupsNamingMergedUIDs.isEmpty {
                lines.append("groups whose card on the server names a merged contact (the next sync sends them):")
                for group in status.groupsNamingMergedUIDs {
                    lines.append("  \(group.groupID)  \(group.name): names \(group.mergedUID), merged into \(group.survivor)")
                }
            }
            if !status.conflicts.isEmpty {
                lines.append("recent conflicts (carnet sync take NUMBER takes the value that lost):")
                for conflict in status.conflicts {
                    let clash = conflict.clash
                    let side = clash.unsettled
                        ? "unsettled: never synced together, neither side sent; carnet sync take \(conflict.id) takes the server's, --mine sends this file's"
                        : clash.kept == .local ? "kept this file's" : "kept the server's"
                    lines.append("  \(conflict.id)  \(clash.name): \(clash.fields.map(\.rawValue).joined(separator: ", ")) (\(side))")
                    let (kept, lost) = clash.unsettled ? ("here", "there") : ("kept", "lost")
                    for value in conflict.values {
                        lines.append("       \(value.field.rawValue) \(kept): " + (value.kept.map(Self.text) ?? "(the contact was deleted since)"))
                        lines.append("       \(value.field.rawValue) \(lost): " + (value.lost.map(Self.text) ?? "(its card cannot be read; it is in sync_conflicts)"))
                    }
                }
            }
            let named = status.cardsNotSynced.filter { !$0.skipped }
            if !named.isEmpty {
                lines.append("cards on the server not synced (carnet sync skip NUMBER stops naming one):")
                for card in named { lines.append("  \(card.id)  \(card.href): \(card.reason)") }
            }
            let skipped = status.cardsNotSynced.count - named.count
            if skipped > 0 { lines.append("cards not synced that you said to skip: \(skipped) (carnet sync status --json lists them)") }
            for line in lines { terminal.print(line.shown) }
        }

        /// A field's value as one line: its entries joined, or "(empty)".
        static func text(_ entries: [String]) -> String {
            entries.isEmpty ? "(empty)" : entries.joined(separator: "; ")
        }

        /// `--json`: one object, keys sorted. Its fields are the first linked book's (the default
        /// book's, when it is linked), as when a file had one, so scripts written then read them
        /// unchanged; `books` lists every linked book's, each an object of the same fields.
        struct StatusJSON: Encodable {
            struct Account: Encodable {
                let url: String, user: String, passwordCommand: String, lastSync: String?, pinnedCA: Bool
            }
            struct Pending: Encodable { let new: Int, changed: Int, deleted: Int }
            struct Conflict: Encodable {
                let id: Int64, time: String?, uid: String, name: String, contactID: Int64?, kept: String
                /// Met linking with no common base: neither side sent until `sync take` settles it.
                let unsettled: Bool
                let fields: [SyncConflictValue]
            }
            struct Card: Encodable {
                let id: Int64, href: String, reason: String, firstSeen: String?, lastSeen: String?, skipped: Bool
            }
            struct StaleGroup: Encodable {
                let id: Int64, name: String, mergedUID: String, survivor: String
            }
            /// The book of the file it is about.
            let book: String
            let account: Account
            /// When a sync last found the collection gone from the server; absent once one reaches it.
            let collectionGone: String?
            let synced: Int
            let pending: Pending
            let conflicts: [Conflict]
            let cardsNotSynced: [Card]
            /// Synced groups whose card on the server names a contact merged away here.
            let groupsNamingMergedContacts: [StaleGroup]
            /// Every linked book, in the order `sync` takes them; only on the outer object.
            let books: [StatusJSON]?

            init(_ status: SyncStatus, books: [SyncStatus]? = nil) {
                self.books = books?.map { StatusJSON($0) }
                book = status.account.bookName
                let a = status.account
                account = Account(
                    url: a.collectionURL, user: a.username, passwordCommand: a.passwordCommand, lastSync: a.lastSyncAt.map(Timestamp.string),
                    pinnedCA: a.certificateAuthority != nil)
                collectionGone = a.collectionGoneAt.map(Timestamp.string)
                synced = status.linked
                pending = Pending(new: status.pendingNew, changed: status.pendingChanged, deleted: status.pendingDeletes)
                conflicts = status.conflicts.map {
                    Conflict(
                        id: $0.id, time: $0.time.map(Timestamp.string), uid: $0.clash.uid, name: $0.clash.name, contactID: $0.contact?.id,
                        kept: $0.clash.kept.rawValue, unsettled: $0.clash.unsettled, fields: $0.values)
                }
                cardsNotSynced = status.cardsNotSynced.map {
                    Card(
                        id: $0.id, href: $0.href, reason: $0.reason, firstSeen: $0.firstSeen.map(Timestamp.string),
                        lastSeen: $0.lastSeen.map(Timestamp.string), skipped: $0.skipped)
                }
                groupsNamingMergedContacts = status.groupsNamingMergedUIDs.map {
                    StaleGroup(id: $0.groupID, name: $0.name, mergedUID: $0.mergedUID, survivor: $0.survivor)
                }
            }
        }
    }
}
