import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

/// A command that talks to the sync server: the composition root hands it the engine too.
protocol SyncingCommand: StateCommand {
    /// How long the server may keep a request's answer silent (`carnet sync --timeout`).
    var answerTimeout: TimeInterval { get }
    @MainActor func run(sync: SyncViewModel, terminal: Terminal) throws
}

extension SyncingCommand {
    var answerTimeout: TimeInterval { SyncOptions.defaultAnswerTimeout }

    /// Never called: the composition root runs `run(sync:terminal:)` instead.
    @MainActor func run(state: StateController, terminal: Terminal) throws {
        throw CLIError(message: "\(Self.configuration.commandName ?? "sync") needs the sync engine", code: .other)
    }
}

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync the address book with a CardDAV server (Radicale, Nextcloud, Fastmail, iCloud…), both ways.",
        discussion: """
            carnet sync setup URL remembers the address book (or finds it from the server's or your \
            principal's URL); carnet sync then brings the server's changes here and sends this \
            file's there. A contact changed on both sides is merged field by field; where both \
            changed the same field, this file's value wins (--prefer remote: the server's), and \
            the other is kept (carnet sync status shows it). A sync is one change in carnet \
            history: carnet undo takes it back here, and the next sync sends that.

            Each address book of the file syncs with its own collection. Given a server or \
            principal URL whose home has several address books, setup links each to the book of \
            its name (made here when missing); carnet sync then syncs every linked book, and one \
            book's failure does not stop the others (the line names the book).

            The password is never stored: --password-command prints it (the first line), or \
            CARNET_SYNC_PASSWORD holds it.

            EXAMPLES:
              carnet sync setup http://localhost:5232/ --user ada --password-command "pass carnet"
              carnet sync --dry-run
              carnet sync
              carnet sync --timeout 900      # a slow server with a large address book
              carnet sync status
              carnet sync take 3             # conflict 3: take the value that lost
              carnet sync skip 2             # stop naming card 2, which cannot be taken

            The options of carnet sync itself (--dry-run, --prefer, --timeout): carnet sync run --help.
            """,
        subcommands: [SyncRunCommand.self, SyncSetupCommand.self, SyncStatusCommand.self, SyncTakeCommand.self, SyncSkipCommand.self],
        defaultSubcommand: SyncRunCommand.self)
}

struct SyncRunCommand: SyncingCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Sync now (what carnet sync does with no subcommand).",
        discussion: """
            EXAMPLES:
              carnet sync
              carnet sync --dry-run          # what it would do; changes nothing anywhere
              carnet sync --prefer remote    # the server's value wins where both changed a field
              carnet sync --timeout 900      # a slow server with a large address book
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { !dryRun }
    @Flag(help: "Say what a sync would do, and change nothing here or on the server.") var dryRun = false
    @Option(help: ArgumentHelp("Whose value wins where both sides changed the same field: local or remote.", valueName: "side"))
    var prefer: SyncPreference = .local
    // `.unconditional`, as `list --limit`: `--timeout -5` reaches the range check instead of reading as a missing value.
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "How long the server may take to start answering a request, in seconds (a server that is down is told within 30).",
        valueName: "seconds"))
    var timeout = Int(SyncOptions.defaultAnswerTimeout)
    @Option(help: ArgumentHelp("Sync only this address book (default: every linked book).", valueName: "name")) var book: String?

    var answerTimeout: TimeInterval { TimeInterval(timeout) }

    func validate() throws {
        guard timeout >= 1 else { throw ValidationError("--timeout must be 1 or more seconds (got \(timeout))") }
    }

    @MainActor func run(sync: SyncViewModel, terminal: Terminal) throws {
        let console = terminal.console
        let showsProgress = terminal.stderrIsTerminal && terminal.environment["NO_COLOR"] == nil
        let progress: ((SyncProgress) -> Void)? = showsProgress ? { step in
            let count = step.total.map { "\(step.done)/\($0)" } ?? (step.done > 0 ? "\(step.done)" : "")
            console.writeError("\r\u{1B}[Ksyncing… \(step.phase.rawValue)" + (count.isEmpty ? "" : " \(count)"))
        } : nil
        let outcomes = try sync.syncBooks(book, options: SyncOptions(dryRun: dryRun, prefer: prefer), progress: progress)
        if showsProgress { console.writeError("\r\u{1B}[K") }
        // One linked book says what it always said; several say which book each line is of,
        // and a book that failed does not keep the others from syncing.
        let named = outcomes.count > 1
        var failure: CarnetError?
        for outcome in outcomes {
            let prefix = named ? "\(outcome.book.shown): " : ""
            if let report = outcome.report {
                for clash in report.clashes { terminal.error(prefix + clash.description) }
                for skipped in report.skipped { terminal.error(prefix + "not synced: \(skipped)") }
                terminal.print(prefix + Self.summary(report))
            }
            if let error = outcome.failure {
                guard named else { throw error }
                terminal.error("\(prefix)\(error.commandLineDescription)")
                failure = failure ?? error
            }
        }
        if let failure { throw CLIError(message: "the sync of \(outcomes.filter { $0.failure != nil }.map(\.book.shown).joined(separator: ", ")) failed (see above); the other books synced", code: ExitCode(for: failure)) }
    }

    /// "synced with dav.example.com: 3 down, 1 up (2 added, 1 updated here; 1 sent)".
    static func summary(_ report: SyncReport) -> String {
        var here: [String] = []
        if report.added > 0 { here.append("\(report.added) added") }
        if report.updated > 0 { here.append("\(report.updated) updated") }
        if report.deleted > 0 { here.append("\(report.deleted) deleted") }
        var there: [String] = []
        if report.uploaded > 0 { there.append("\(report.uploaded) sent") }
        if report.deletedRemotely > 0 { there.append("\(report.deletedRemotely) deleted there") }
        var details: [String] = []
        if !here.isEmpty { details.append(here.joined(separator: ", ") + " here") }
        if !there.isEmpty { details.append(there.joined(separator: ", ")) }
        if !report.clashes.isEmpty { details.append("\(report.clashes.count) conflict\(report.clashes.count == 1 ? "" : "s")") }
        let verb = report.dryRun ? "would sync" : "synced"
        return "\(verb) with \(report.server): \(report.counts)" + (details.isEmpty ? "" : " (" + details.joined(separator: "; ") + ")")
    }
}

extension SyncPreference: ExpressibleByArgument {}

struct SyncSetupCommand: SyncingCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Remember the CardDAV address book to sync with (found from a server or principal URL).",
        discussion: """
            URL may be the address book itself, or the server (or your principal) URL: carnet then \
            asks for your address book home (current-user-principal, addressbook-home-set) and \
            takes its first address book, making one named carnet when there is none. The \
            password is never stored in the file: a URL with one in it (http://ada:secret@…) is \
            refused; give it with --password-command. A user name in the URL (http://ada@…) is \
            taken as --user, and refused if --user names another.

            A home server whose certificate is signed by a CA of its own: --ca-file names that \
            CA's certificate (PEM). It is kept in the file, for this address book only, and its \
            server is then verified against it alone, in every sync.

            EXAMPLES:
              carnet sync setup http://localhost:5232/ --user ada --password-command "pass carnet"
              CARNET_SYNC_PASSWORD=… carnet sync setup https://dav.example.com/addressbooks/ada/contacts/ --user ada
              carnet sync setup https://nas.home:5232/ --user ada --password-command "pass carnet" --ca-file nas-ca.pem
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @Argument(help: ArgumentHelp("The address book, server or principal URL (http:// or https://).", valueName: "url")) var url: String
    @Option(help: ArgumentHelp("The user name to log in with.", valueName: "name")) var user = ""
    @Option(help: ArgumentHelp("A command whose first line of output is the password (run with /bin/sh).", valueName: "command"))
    var passwordCommand = ""
    @Option(help: ArgumentHelp("A CA certificate (PEM) to verify this server against instead of the system's CAs.", valueName: "file"))
    var caFile: String?
    @Option(help: ArgumentHelp(
        "The address book of this file to link (made when missing). Default: the URL's address book, or the only one of the home set, goes to the default book; several are each linked to the book of their name.",
        valueName: "name"))
    var book: String?

    func validate() throws {
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw ValidationError("\(url) is not an http:// or https:// URL")
        }
        let login: (url: URL, username: String)
        do { login = try SyncAccount.login(url: url, username: user) } catch { throw ValidationError(error.description) }
        if !passwordCommand.isEmpty && login.username.isEmpty { throw ValidationError("--password-command needs --user") }
        // Before the address book is opened: a wrong file leaves no trace.
        _ = try certificateAuthority()
    }

    /// The CA file's PEM text.
    func certificateAuthority() throws -> String? {
        guard let caFile else { return nil }
        guard let data = FileManager.default.contents(atPath: caFile) else {
            let missing = !FileManager.default.fileExists(atPath: caFile)
            throw ValidationError("--ca-file \(caFile.shown): \(missing ? "no such file" : "cannot be read")")
        }
        let text = String(decoding: data, as: UTF8.self)
        guard SyncAccount.isPEMCertificate(text), data.count <= 1_000_000 else {
            throw ValidationError("--ca-file \(caFile.shown) is not a CA certificate in PEM (-----BEGIN CERTIFICATE-----)")
        }
        return text
    }

    @MainActor func run(sync: SyncViewModel, terminal: Terminal) throws {
        let setup = try sync.setup(
            url: url, username: user, passwordCommand: passwordCommand, certificateAuthority: try certificateAuthority(), book: book)
        if setup.created { terminal.print("made the address book \(setup.account.collectionURL)") }
        let login = setup.account.username.isEmpty ? "" : " as \(setup.account.username)"
        guard setup.links.count > 1 else {
            let made = setup.links.first.map { $0.madeBook ? " (made the book \($0.book.name.shown) here)" : "" } ?? ""
            return terminal.print("saved sync setup: \(setup.account.collectionURL)\(login)\(made) (carnet sync to sync now)")
        }
        for link in setup.links {
            terminal.print("linked \(link.book.name.shown)\(link.madeBook ? " (new here)" : "") to \(link.account.collectionURL)")
        }
        terminal.print("saved sync setup: \(setup.links.count) address books\(login) (carnet sync to sync now)")
    }
}

struct SyncStatusCommand: SyncingCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the address book synced with, the last sync, what waits to be sent, conflicts and cards not synced.",
        discussion: """
            Asks nothing of the server. Each recent conflict has a number, and each field both \
            sides changed shows the value kept (as the contact holds it now) and the value that \
            lost; carnet sync take NUMBER takes the one that lost. A card on the server that \
            this file cannot take is named by every sync and listed here until it syncs, is gone \
            there, or carnet sync skip says to stop.

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
            terminal.print(try JSONOutput.string(StatusJSON(first)))
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
        lines.append("synced contacts: \(status.linked)")
        lines.append("to send: \(status.pendingNew) new, \(status.pendingChanged) changed, \(status.pendingDeletes) deleted")
        if !status.conflicts.isEmpty {
            lines.append("recent conflicts (carnet sync take NUMBER takes the value that lost):")
            for conflict in status.conflicts {
                let clash = conflict.clash
                let side = clash.kept == .local ? "kept this file's" : "kept the server's"
                lines.append("  \(conflict.id)  \(clash.name): \(clash.fields.map(\.rawValue).joined(separator: ", ")) (\(side))")
                for value in conflict.values {
                    lines.append("       \(value.field.rawValue) kept: " + (value.kept.map(Self.text) ?? "(the contact was deleted since)"))
                    lines.append("       \(value.field.rawValue) lost: " + (value.lost.map(Self.text) ?? "(its card cannot be read; it is in sync_conflicts)"))
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

    /// `--json`: one object, keys sorted.
    struct StatusJSON: Encodable {
        struct Account: Encodable {
            let url: String, user: String, passwordCommand: String, lastSync: String?, pinnedCA: Bool
        }
        struct Pending: Encodable { let new: Int, changed: Int, deleted: Int }
        struct Conflict: Encodable {
            let id: Int64, time: String?, uid: String, name: String, contactID: Int64?, kept: String, fields: [SyncConflictValue]
        }
        struct Card: Encodable {
            let id: Int64, href: String, reason: String, firstSeen: String?, lastSeen: String?, skipped: Bool
        }
        let account: Account
        let synced: Int
        let pending: Pending
        let conflicts: [Conflict]
        let cardsNotSynced: [Card]

        init(_ status: SyncStatus) {
            let a = status.account
            account = Account(
                url: a.collectionURL, user: a.username, passwordCommand: a.passwordCommand, lastSync: a.lastSyncAt.map(Timestamp.string),
                pinnedCA: a.certificateAuthority != nil)
            synced = status.linked
            pending = Pending(new: status.pendingNew, changed: status.pendingChanged, deleted: status.pendingDeletes)
            conflicts = status.conflicts.map {
                Conflict(
                    id: $0.id, time: $0.time.map(Timestamp.string), uid: $0.clash.uid, name: $0.clash.name, contactID: $0.contact?.id,
                    kept: $0.clash.kept.rawValue, fields: $0.values)
            }
            cardsNotSynced = status.cardsNotSynced.map {
                Card(
                    id: $0.id, href: $0.href, reason: $0.reason, firstSeen: $0.firstSeen.map(Timestamp.string),
                    lastSeen: $0.lastSeen.map(Timestamp.string), skipped: $0.skipped)
            }
        }
    }
}

struct SyncTakeCommand: SyncingCommand {
    static let configuration = CommandConfiguration(
        commandName: "take",
        abstract: "Take the value that lost in a sync conflict (all its fields, or those named).",
        discussion: """
            NUMBER is the conflict's, as carnet sync status shows it. The contact gets the other \
            side's value of each field: one change in carnet history (carnet undo takes it back), \
            sent to the server by the next sync.

            EXAMPLES:
              carnet sync status
              carnet sync take 3
              carnet sync take 3 --field title
              carnet sync take 3 --field email --field phone
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @Argument(help: ArgumentHelp("The conflict's number (carnet sync status).", valueName: "number")) var number: Int64
    @Option(help: ArgumentHelp("Take only this field's value (repeatable; default: all the conflict's fields).", valueName: "field"))
    var field: [String] = []
    @Flag(help: "Print a JSON object.") var json = false

    func validate() throws {
        guard number > 0 else { throw ValidationError("the conflict's number must be 1 or more (got \(number))") }
        _ = try fields()
    }

    func fields() throws -> [Field]? {
        guard !field.isEmpty else { return nil }
        return try field.map { name in
            guard let spec = ContactFields.named(name) ?? Field(rawValue: name.lowercased()).flatMap(ContactFields.spec) else {
                throw ValidationError("--field \(name.shown) is not a field of a contact (name, email, phone, title, note, …)")
            }
            return spec.field
        }
    }

    /// `--json`: what each field held before and holds now.
    struct TakenJSON: Encodable {
        struct Value: Encodable { let field: Field, before: [String]?, now: [String]? }
        let conflict: Int64, contactID: Int64, name: String, changed: Bool, fields: [Value]
    }

    @MainActor func run(sync: SyncViewModel, terminal: Terminal) throws {
        let taken = try sync.take(conflict: number, fields: try fields())
        let name = taken.contact.name
        let list = taken.fields.map(\.rawValue).joined(separator: ", ")
        if json {
            var after = taken.conflict
            after.contact = taken.contact
            let before = taken.conflict.values, now = after.values
            let values = taken.fields.map { field in
                TakenJSON.Value(
                    field: field, before: before.first { $0.field == field }?.kept, now: now.first { $0.field == field }?.kept)
            }
            terminal.print(try JSONOutput.string(TakenJSON(conflict: number, contactID: taken.contact.id, name: name, changed: taken.changed, fields: values)))
        } else if taken.changed {
            terminal.print("took \(list) of conflict \(number) for \(name) (carnet undo takes it back; carnet sync sends it)".shown)
        } else {
            terminal.print("\(name) already holds the other side's \(list) of conflict \(number); nothing was changed".shown)
        }
    }
}

struct SyncSkipCommand: SyncingCommand {
    static let configuration = CommandConfiguration(
        commandName: "skip",
        abstract: "Stop naming a card on the server that this file cannot take.",
        discussion: """
            CARD is its number or its href, as carnet sync status shows them. Syncs no longer \
            fetch it again or name it; if it changes on the server into a card this file can \
            take, it syncs as usual.

            EXAMPLES:
              carnet sync status
              carnet sync skip 2
              carnet sync skip /ada/contacts/huge.vcf
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @Argument(help: ArgumentHelp("The card's number or href (carnet sync status).", valueName: "card")) var card: String

    @MainActor func run(sync: SyncViewModel, terminal: Terminal) throws {
        guard let skipped = try sync.skipCard(card) else {
            throw CLIError(message: "no card not synced has the number or href \(card.shown) (carnet sync status lists them)", code: .notFound)
        }
        terminal.print("skipping \(skipped.href) (it stays on the server; syncs no longer name it)".shown)
    }
}
