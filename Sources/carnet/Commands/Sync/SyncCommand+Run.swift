import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension SyncCommand {
    struct Run: SyncingCommand {
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
            if !report.moved.isEmpty { here.append("\(report.moved.count) moved here") }
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
}

extension SyncPreference: ExpressibleByArgument {}
