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

    /// Never called: the composition root runs ``run(sync:terminal:)`` instead.
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

            The password is never stored: --password-command prints it (the first line), or \
            CARNET_SYNC_PASSWORD holds it.

            EXAMPLES:
              carnet sync setup http://localhost:5232/ --user ada --password-command "pass carnet"
              carnet sync --dry-run
              carnet sync
              carnet sync --timeout 900      # a slow server with a large address book
              carnet sync status

            The options of carnet sync itself (--dry-run, --prefer, --timeout): carnet sync run --help.
            """,
        subcommands: [SyncRunCommand.self, SyncSetupCommand.self, SyncStatusCommand.self],
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
        let report = try sync.sync(options: SyncOptions(dryRun: dryRun, prefer: prefer), progress: progress)
        if showsProgress { console.writeError("\r\u{1B}[K") }
        for clash in report.clashes { terminal.error(clash.description) }
        for skipped in report.skipped { terminal.error("not synced: \(skipped)") }
        terminal.print(Self.summary(report))
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
            password is never stored in the file.

            EXAMPLES:
              carnet sync setup http://localhost:5232/ --user ada --password-command "pass carnet"
              CARNET_SYNC_PASSWORD=… carnet sync setup https://dav.example.com/addressbooks/ada/contacts/ --user ada
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @Argument(help: ArgumentHelp("The address book, server or principal URL (http:// or https://).", valueName: "url")) var url: String
    @Option(help: ArgumentHelp("The user name to log in with.", valueName: "name")) var user = ""
    @Option(help: ArgumentHelp("A command whose first line of output is the password (run with /bin/sh).", valueName: "command"))
    var passwordCommand = ""

    func validate() throws {
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw ValidationError("\(url) is not an http:// or https:// URL")
        }
        if !passwordCommand.isEmpty && user.isEmpty { throw ValidationError("--password-command needs --user") }
    }

    @MainActor func run(sync: SyncViewModel, terminal: Terminal) throws {
        let setup = try sync.setup(url: url, username: user, passwordCommand: passwordCommand)
        if setup.created { terminal.print("made the address book \(setup.account.collectionURL)") }
        let login = setup.account.username.isEmpty ? "" : " as \(setup.account.username)"
        terminal.print("saved sync setup: \(setup.account.collectionURL)\(login) (carnet sync to sync now)")
    }
}

struct SyncStatusCommand: SyncingCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the address book synced with, the last sync, and what waits to be sent.",
        discussion: "Asks nothing of the server.\n\nEXAMPLES:\n  carnet sync status")

    @OptionGroup var database: DatabaseOption

    @MainActor func run(sync: SyncViewModel, terminal: Terminal) throws {
        guard let status = try sync.status() else { throw CarnetError.sync(.notConfigured) }
        let account = status.account
        var lines = ["address book: \(account.collectionURL)"]
        if !account.username.isEmpty {
            let password = account.passwordCommand.isEmpty ? "password from CARNET_SYNC_PASSWORD" : "password from: \(account.passwordCommand)"
            lines.append("user: \(account.username) (\(password))")
        }
        lines.append("last sync: " + (account.lastSyncAt.map { Timestamp.string($0) } ?? "never"))
        lines.append("synced contacts: \(status.linked)")
        lines.append("to send: \(status.pendingNew) new, \(status.pendingChanged) changed, \(status.pendingDeletes) deleted")
        if !status.recentClashes.isEmpty {
            lines.append("recent conflicts (the value that lost is kept in the file's sync_conflicts):")
            for clash in status.recentClashes {
                let side = clash.kept == .local ? "kept this file's" : "kept the server's"
                lines.append("  \(clash.name): \(clash.fields.map(\.rawValue).joined(separator: ", ")) (\(side))")
            }
        }
        for line in lines { terminal.print(line.shown) }
    }
}
