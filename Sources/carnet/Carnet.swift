import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

/// A command that shows or changes the address book: the composition root opens the database
/// once and hands it the state controller.
/// A command that takes `--db PATH` after its name (see `DatabaseOption`).
protocol DatabaseLocated: ParsableCommand {
    var database: DatabaseOption { get }
}

protocol StateCommand: DatabaseLocated {
    /// Whether this command (as parsed) may change the address book, and so may create a
    /// missing file named with --db or CARNET_DB. Default false: a reading command refuses it.
    var writes: Bool { get }
    /// Fails when what the command reads besides the book (a file to import) is missing, before
    /// the book is opened: a typo in that name must not create a new book at --db.
    @MainActor func checkInputs(terminal: Terminal) throws
    @MainActor func run(state: StateController, terminal: Terminal) throws
}

extension StateCommand {
    var writes: Bool { false }
    @MainActor func checkInputs(terminal: Terminal) throws {}
}

/// A command that needs only where the database is, not to open it.
protocol DatabasePathCommand: DatabaseLocated {
    func run(path: String, terminal: Terminal) throws
}

/// `--db PATH`, accepted before or after the command name.
struct DatabaseOption: ParsableArguments {
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "The address book file. Default: $CARNET_DB, else $XDG_DATA_HOME/carnet/carnet.sqlite (~/.local/share/carnet/carnet.sqlite).",
            valueName: "path"))
    var db: String?

    func validate() throws {
        if db?.isEmpty == true { throw ValidationError("--db needs a file path") }
    }
}

struct Carnet: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "carnet",
        abstract: "An address book for the command line: contacts, favorites and a quote, in one SQLite file.",
        discussion: """
            With no command, shows the home screen: the current quote, your favorites in order and \
            how many contacts you have.

            EXAMPLES:
              carnet add --name "Ada Lovelace" --email ada@example.com
              carnet list --search lovelace
              carnet favorite 1
              carnet edit 1 --position "Analyst, Analytical Engines"
              carnet interactive

            Prompts appear only when standard input is a terminal; colours only on a terminal \
            without NO_COLOR. Scripts get plain, stable output (tab-separated lists, or --json).

            \(exitCodeHelp)
            """,
        version: "0.1.0",
        subcommands: [
            ListCommand.self, ShowCommand.self, AddCommand.self, EditCommand.self, DeleteCommand.self,
            FavoriteCommand.self, UnfavoriteCommand.self, FavoritesCommand.self, BirthdaysCommand.self,
            QuoteCommand.self, ImportCommand.self, ExportCommand.self, SampleCommand.self,
            UndoCommand.self, RedoCommand.self, HistoryCommand.self, SyncCommand.self, DatabaseCommand.self, InteractiveCommand.self,
            QueryCommand.self, AddEmailCommand.self, EmailCommand.self, PhoneCommand.self, GroupCommand.self,
            DuplicatesCommand.self, MergeCommand.self, BookCommand.self, MoveCommand.self, CopyCommand.self,
        ])

    @OptionGroup var database: DatabaseOption

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let home = HomeScreen(home: HomeViewModel(state: state), terminal: terminal)
        terminal.print(home.render(), terminator: "")
    }
}

/// The home screen: quote, favorites, count.
@MainActor
struct HomeScreen {
    let home: HomeViewModel
    let terminal: Terminal

    func render() -> String {
        var out = ""
        if let quote = home.quote {
            out += QuoteRendering.text(quote, terminal: terminal) + "\n"
        }
        let favorites = home.favorites
        if favorites.isEmpty {
            out += terminal.bold("Favorites") + ": none yet (carnet favorite ID)\n"
        } else {
            out += terminal.bold("Favorites") + "\n"
            for favorite in favorites {
                let contact = favorite.contact
                let position = contact.position.isEmpty ? "" : " — \(contact.position.shown)"
                out += "  \(favorite.position). \(contact.name.shown)\(position)  [\(contact.id)]\n"
            }
        }
        let count = home.contactCount
        out += "\n\(count) contact\(count == 1 ? "" : "s")"
        if let groups = home.groupCount, groups > 0 { out += ", \(groups) group\(groups == 1 ? "" : "s")" }
        if count == 0 { out += " (carnet add --name NAME, or carnet interactive)" }
        return out + "\n"
    }
}
