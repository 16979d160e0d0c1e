import ArgumentParser
import CarnetModels

/// The documented exit codes (also in `carnet --help` and docs/cli.md).
extension ExitCode {
    /// Something else went wrong, or the user answered no.
    static let other = ExitCode(1)
    /// The command line is wrong: unknown flag, missing argument, bad number, overlong search.
    static let usage = ExitCode(64)
    /// A value breaks a rule (empty name, malformed email, …); nothing was written.
    static let invalidData = ExitCode(65)
    /// No contact, quote or favorite has that id, no address book is at the path given, or the
    /// file to import does not exist or cannot be read (sysexits' EX_NOINPUT).
    static let notFound = ExitCode(66)
    /// Someone else saved the record since this edit started; nothing was written.
    static let conflict = ExitCode(67)
    /// The database cannot be used: not a regular file, not SQLite, not Carnet's, damaged,
    /// newer, its schema record changed by hand, read-only, cannot be created, locked by another
    /// process for too long, or refused because another user owns it (or its -wal/-shm) or others
    /// may write it.
    static let databaseUnusable = ExitCode(69)
    /// The disk is full; nothing was written.
    static let diskFull = ExitCode(74)
    /// The sync server cannot be reached now (down, timed out, no such host), or took the
    /// request and sent nothing for `carnet sync --timeout` seconds: try again later.
    static let serverUnreachable = ExitCode(75)
    /// The sync server answered something a CardDAV server should not (or an answer past the
    /// transport's ceiling), or TLS failed.
    static let serverProtocol = ExitCode(76)
    /// The sync server refused the user name or password.
    static let serverRefusedLogin = ExitCode(77)
    /// The sync is not set up, or its password command failed.
    static let syncConfiguration = ExitCode(78)
    /// No address book has the name given (`--book`, `carnet book`, `--to`).
    static let unknownBook = ExitCode(79)
    /// Words meant to name one contact (or a name meant for one group) found several: they are
    /// listed with their ids; give one.
    static let severalMatch = ExitCode(80)

    init(for error: CarnetError) {
        switch error {
        case .notFound, .deleted, .noDatabase, .emptyFile, .history, .noSuchGroup, .noContactMatches: self = .notFound
        case .invalidSearch: self = .usage
        case .ambiguousGroup, .severalContactsMatch: self = .severalMatch
        case .invalid, .refused, .importFailed: self = .invalidData
        case .conflict, .historyConflict: self = .conflict
        case .diskFull, .notEnoughSpace: self = .diskFull
        case .unknownBook: self = .unknownBook
        case var .sync(failure):
            // A sync stopped partway exits as the failure that stopped it.
            while case let .interrupted(reason, _) = failure { failure = reason }
            switch failure {
            case .unreachable, .noAnswer: self = .serverUnreachable
            case .server, .collectionGone, .tls, .tooLarge: self = .serverProtocol
            case .unauthorized, .forbidden: self = .serverRefusedLogin
            case .notConfigured, .password: self = .syncConfiguration
            case .badURL, .passwordInURL, .userMismatch: self = .usage
            case .interrupted: self = .other
            }
        case .notADatabase, .notCarnetDatabase, .corrupt, .newerSchema, .schemaRecordChanged, .readOnly, .cannotOpen,
             .unsafeFile, .busy, .openElsewhere, .migrationFailed, .database:
            self = .databaseUnusable
        }
    }
}

extension CarnetError {
    /// The error's one line as the command line says it: where a command's option is the way
    /// out, the line names it (an embedding program sets the transport's timeout itself).
    var commandLineDescription: String {
        let unchanged = "; nothing was changed"
        guard case let .sync(.noAnswer(_, seconds)) = self, description.hasSuffix(unchanged) else { return description }
        return description.dropLast(unchanged.count)
            + " (a slow server with a large address book may need longer: carnet sync --timeout \(seconds * 3))" + unchanged
    }
}

let exitCodeHelp = """
    EXIT CODES:
      0   success
      1   cancelled (you said no, or left the editor unchanged), or another error
      64  usage: a wrong flag, argument or number, or a search over 1000 characters
      65  invalid data: a value breaks a rule, or a change is refused (a group's
          id given to carnet edit, favorite or merge); nothing was written
      66  not found: no record has that id, or no contact matches the words
          given for one, or it was deleted since it was read;
          or no address book at the path named by --db or CARNET_DB (only a
          command that writes creates it); or the file to import does not
          exist or cannot be read; or nothing to undo or redo
      67  conflict: someone else saved the record meanwhile, or an undo would
          overwrite a change made outside carnet; nothing was written
      69  database unusable: not a file, not a Carnet database, damaged, newer,
          read-only or locked; or refused because the file, its -wal or its -shm
          belongs to another user or others may write it (it could have been
          planted): chmod go-w your own, remove any other
      74  disk full: nothing was written (or too little free space to compact)
      75  sync: the server cannot be reached (down, timed out), or sent nothing
          for --timeout seconds; nothing changed
      76  sync: the server answered what a CardDAV server should not (or more
          than 256 MiB), or TLS failed; nothing changed
      77  sync: the server refused the user name or password, or refused this
          user the address book (403); nothing changed
      78  sync: not set up (carnet sync setup URL), or no password
          (75 to 77 after "the sync stopped partway": what it had done is kept,
          and the line says what; carnet sync does the rest)
      79  no address book has the name given (carnet book list shows them)
      80  several contacts match the words given for one (or several groups
          have the name given): they are listed with their ids; give one
    """

/// A failure of the CLI itself (as opposed to the address book), with its exit code.
struct CLIError: Error {
    let message: String
    let code: ExitCode

    static func usage(_ message: String) -> CLIError { CLIError(message: message, code: .usage) }
    static func cancelled(_ message: String = "cancelled; nothing was changed") -> CLIError {
        CLIError(message: message, code: .other)
    }
}
