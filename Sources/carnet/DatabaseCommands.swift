import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct DatabaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Where the address book file is, what is in it, and a backup.",
        discussion: """
            EXAMPLES:
              carnet db path
              carnet db info
              carnet db check
              carnet db repair
              carnet db backup ~/carnet-backup.sqlite
              sqlite3 "$(carnet db path)" 'SELECT name, email FROM contacts'
            """,
        subcommands: [DatabasePath.self, DatabaseInfoCommand.self, DatabaseCheck.self, DatabaseRepair.self, DatabaseReindex.self, DatabaseBackup.self])
}

struct DatabasePath: DatabasePathCommand {
    static let configuration = CommandConfiguration(
        commandName: "path", abstract: "Print the database file's path (without opening it).")

    @OptionGroup var database: DatabaseOption

    func run(path: String, terminal: Terminal) throws {
        terminal.print(path)
    }
}

struct DatabaseInfoCommand: StateCommand {
    static let configuration = CommandConfiguration(commandName: "info", abstract: "Schema version, counts and settings.")

    @OptionGroup var database: DatabaseOption
    @Flag(help: "Print a JSON object.") var json = false

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let info = try DatabaseViewModel(state: state).info()
        if json {
            terminal.print(try JSONOutput.string(info))
            return
        }
        terminal.print("""
            path:         \(info.path)
            schema:       \(info.schemaVersion) (this carnet knows up to \(info.supportedSchemaVersion))
            migrations:   \(info.migrations.joined(separator: ", "))
            contacts:     \(info.contacts)
            favorites:    \(info.favorites)
            quotes:       \(info.quotes)
            size:         \(info.fileBytes) bytes
            journal:      \(info.journalMode), synchronous \(info.synchronous)
            """)
        if info.repairedValues > 0 {
            terminal.print("repaired:     \(info.repairedValues) values an upgrade brought within the rules; originals in the repaired_values table")
        }
    }
}

struct DatabaseCheck: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the file: SQLite's integrity, the schema, and every value against the rules (exit 69 on a problem).",
        discussion: """
            Prints ok, or one line per problem: damaged pages, broken foreign keys, a missing \
            index or a table whose constraints were changed, a wrong user_version, and each value \
            (table, row, field, rule) that breaks a rule Carnet enforces.
            """)

    @OptionGroup var database: DatabaseOption

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let database = DatabaseViewModel(state: state)
        let problems = try database.check()
        if problems == ["ok"] {
            terminal.print("ok")
        } else {
            for problem in problems { terminal.print(problem.shown) }
            throw CLIError(message: "\(database.path) failed its integrity check", code: .databaseUnusable)
        }
    }
}

struct DatabaseRepair: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Repair what carnet db check says carnet db repair repairs: an id counter an imported id ran to the end.",
        discussion: """
            A contact or quote id taken from a file by an earlier Carnet can leave the id counter \
            at the largest integer, after which no contact can be added ("disk full"). The repair \
            gives such a row the next free id (what refers to it follows) and sets the counter back. \
            It prints what it changed, or that there was nothing to repair.
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let changes = try DatabaseViewModel(state: state).repair()
        if changes.isEmpty {
            terminal.print("nothing to repair")
        } else {
            for change in changes { terminal.print("repaired: \(change)") }
        }
    }
}

struct DatabaseReindex: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "reindex",
        abstract: "Rebuild the search index from the contacts.",
        discussion: """
            Carnet indexes what it writes. When another program (sqlite3) changes a contact, the \
            file notes that the index is out of date, and the next carnet that may write to the \
            file rebuilds it before anything else. This command does the same on demand, and \
            repairs an index that carnet db check finds out of step with the contacts.
            """)

    @OptionGroup var database: DatabaseOption

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let count = try DatabaseViewModel(state: state).reindex()
        terminal.print("saved search index: \(count) contact\(count == 1 ? "" : "s")")
    }
}

struct DatabaseBackup: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the database, while in use, into a new file that is itself a Carnet database.")

    @OptionGroup var database: DatabaseOption
    @Argument(help: ArgumentHelp("The new file (must not exist).", valueName: "file")) var file: String

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let path = (file as NSString).expandingTildeInPath
        try DatabaseViewModel(state: state).backup(to: path)
        terminal.print("saved backup \(path)")
    }
}
