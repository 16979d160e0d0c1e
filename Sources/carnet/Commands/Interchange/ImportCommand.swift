import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

/// What an import's notes said, file by file: how many properties were kept verbatim (and how
/// many of those are values Carnet's rules refused) and how many were converted.
struct ImportNoteTally {
    struct Counts {
        var refused = 0
        var unmodelled = 0
        var converted = 0
    }

    private(set) var files: [String] = []
    private var counts: [String: Counts] = [:]

    mutating func add(_ note: InterchangeNote, file: String) {
        if counts[file] == nil {
            files.append(file)
            counts[file] = Counts()
        }
        switch note.kind {
        case .refused: counts[file]?.refused += 1
        case .unmodelled: counts[file]?.unmodelled += 1
        case .converted: counts[file]?.converted += 1
        }
    }

    var total: Counts {
        counts.values.reduce(into: Counts()) {
            $0.refused += $1.refused
            $0.unmodelled += $1.unmodelled
            $0.converted += $1.converted
        }
    }

    /// `12 properties kept verbatim (3 of them values Carnet's rules refuse), 4 converted`.
    static func line(_ counts: Counts) -> String {
        var parts: [String] = []
        let verbatim = counts.refused + counts.unmodelled
        if verbatim > 0 {
            let refused = counts.refused == 0 ? "" : " (\(counts.refused) of them \(counts.refused == 1 ? "a value" : "values") Carnet's rules refuse)"
            parts.append("\(verbatim) \(verbatim == 1 ? "property" : "properties") kept verbatim\(refused)")
        }
        if counts.converted > 0 { parts.append("\(counts.converted) converted") }
        return parts.joined(separator: ", ")
    }

    func line(for file: String) -> String { counts[file].map(Self.line) ?? "" }
}

struct ImportCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import contacts from a vCard, CSV, JSON or LDIF file, or a vdir directory, all or nothing.",
        discussion: """
            The format comes from the file's extension (.vcf/.vcard, .csv, .json, .ldif) unless --format \
            says; - reads standard input; a directory is read as a vdir (khard's and vdirsyncer's \
            address book: every .vcf file in it, one card each). A card whose UID is already in the \
            address book updates that contact instead of adding a duplicate (unless that contact \
            changed after the card was written: a conflict, as for edits; --force overwrites).

            The import is one transaction: a record that breaks a rule stops it with the file, line \
            and reason, and nothing is written. --skip-invalid imports the rest and lists what it \
            skipped. A file with broken syntax is always refused, except a card file of a vdir, which \
            --skip-invalid skips like any other broken card.

            vCard: 2.1, 3.0 and 4.0. Every field Carnet has is read (FN, N, NICKNAME, ORG, TITLE, \
            ROLE, EMAIL, TEL, ADR, URL, IMPP, BDAY, ANNIVERSARY, NOTE, CATEGORIES, PHOTO, with their \
            types and labels); every other property, and a value Carnet's rules refuse, is kept \
            verbatim and written back on export, never dropped. CSV: Carnet's columns (carnet export \
            --format csv), or Google's, Outlook's, Gmail's, Thunderbird's and abook's exports (the \
            dialect read is said; abook's csv has no header row). JSON: the schema carnet list --json \
            prints. LDIF: Thunderbird's, Evolution's and abook's address books; an entry's uid is its \
            UID.

            Standard error says, per file, how many properties were kept verbatim and how many were \
            converted, and names the first 20 values Carnet's rules refused with their file and \
            line; --verbose names every property kept verbatim or converted.

            EXAMPLES:
              carnet import contacts.vcf
              carnet import google.csv --dry-run
              carnet import backup.json --skip-invalid
              carnet import ~/.local/share/contacts/personal --verbose
              cat cards.vcf | carnet import - --format vcf
            """)

    @OptionGroup var database: DatabaseOption
    @OptionGroup var book: BookOption
    var writes: Bool { !dryRun }
    @Argument(help: ArgumentHelp("The file or vdir directory to read, or - for standard input.", valueName: "file"))
    var file: String
    @Option(help: "vcf, csv, json, ldif or vdir (default: from the file's extension; vdir for a directory).")
    var format: InterchangeFormat?
    @Flag(help: "Report what would be added, updated and skipped; write nothing.") var dryRun = false
    @Flag(help: "Skip records that break a rule or conflict, and list them.") var skipInvalid = false
    @Flag(help: "Overwrite contacts changed after the record was written.") var force = false
    @Flag(help: "Name every property kept verbatim or converted, with its file and line.") var verbose = false

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let stream = try openStream(terminal: terminal)
        let source = file == "-" ? "stdin" : file
        let console = terminal.console
        // What a record could not map onto a field (kept verbatim) is said, not swallowed.
        var tally = ImportNoteTally()
        var refusals: [(file: String, note: InterchangeNote)] = []
        var refusalCount = 0
        var dialectSaid = false
        // Another program's CSV is read in its own terms: say whose (Carnet's own goes unsaid).
        let sayDialect = {
            guard !dialectSaid, let dialect = stream.dialect, dialect != .carnet else { return }
            dialectSaid = true
            console.writeError("carnet: \(source.shown): read as \(dialect.displayName)\n")
        }
        let verbose = verbose
        stream.onSkippedFile = { path, kind in
            console.writeError("carnet: \(path.shown): skipped, it is \(kind), not a card file\n")
        }
        let next = { () throws(InterchangeError) -> InterchangeRecord? in
            let record = try stream.next()
            sayDialect()
            guard let record, !record.notes.isEmpty else { return record }
            let name = record.file ?? source
            for note in record.notes {
                tally.add(note, file: name)
                if verbose {
                    console.writeError("carnet: \(name.shown):\(note.line): \(note.message.shown)\n")
                } else if note.kind == .refused {
                    refusalCount += 1
                    if refusals.count < Self.notesShown { refusals.append((name, note)) }
                }
            }
            return record
        }
        let showsProgress = terminal.stderrIsTerminal && terminal.environment["NO_COLOR"] == nil && !verbose
        let report = try InterchangeViewModel(state: state).importContacts(
            source: source,
            options: ImportOptions(dryRun: dryRun, skipInvalid: skipInvalid, force: force, bookID: try book.resolved(state)?.id),
            progress: showsProgress ? { count in console.writeError("\rimporting… \(count) records") } : nil,
            next: next)
        if showsProgress { console.writeError("\r\u{1B}[K") }
        sayDialect()
        for (name, note) in refusals { console.writeError("carnet: \(name.shown):\(note.line): \(note.message.shown)\n") }
        if refusalCount > refusals.count {
            console.writeError("carnet: … and \(refusalCount - refusals.count) more values Carnet's rules refused, kept verbatim\n")
        }
        let hint = verbose ? "" : " (--verbose names each)"
        for name in tally.files.prefix(Self.notesShown) {
            console.writeError("carnet: \(name.shown): \(tally.line(for: name))\(hint)\n")
        }
        if tally.files.count > Self.notesShown {
            console.writeError("carnet: … and \(tally.files.count - Self.notesShown) more files\n")
        }
        if tally.files.count > 1 {
            console.writeError("carnet: in all \(tally.files.count) files: \(ImportNoteTally.line(tally.total))\n")
        }
        for skipped in report.skipped { terminal.print("skipped \(skipped.description.shown)") }
        terminal.print(dryRun ? "dry run: \(report.summary); nothing was written" : "saved import: \(report.summary)")
        if !dryRun, case let likely = try DuplicatesViewModel(state: state).likelyDuplicates(ofAdded: report.addedIDs), !likely.isEmpty {
            let count = likely.count
            terminal.print("\(count) imported contact\(count == 1 ? " looks" : "s look") like duplicates of contacts already here: see carnet duplicates")
            for one in likely.prefix(Self.notesShown) { terminal.error(LikelyDuplicateNote.line(one)) }
            if count > Self.notesShown { terminal.error("… and \(count - Self.notesShown) more (carnet duplicates lists them all)") }
        }
    }

    /// At most this many refused values (and per-file counts) are printed; the rest are counted.
    static let notesShown = 20

    @MainActor func checkInputs(terminal: Terminal) throws {
        // Standard input is read only once, in run.
        if file != "-" { _ = try openStream(terminal: terminal) }
    }

    /// The records of `file`: standard input, a file, or a vdir directory.
    func openStream(terminal: Terminal) throws -> RecordStream {
        if file == "-" {
            guard let format, format != .vdir else {
                throw CLIError.usage("reading standard input needs --format vcf, csv, json or ldif")
            }
            return RecordStream(handle: try terminal.console.inputHandle(), format: format)
        }
        // Exit 66 like any other name that leads nowhere (sysexits' EX_NOINPUT: an input file
        // that does not exist or cannot be read), with the reason.
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory)
        if exists, isDirectory.boolValue {
            guard format == nil || format == .vdir || format == .vcf else {
                throw CLIError(message: "cannot read \(file) as \(format?.rawValue ?? ""): it is a directory", code: .notFound)
            }
            let stream: RecordStream
            do {
                stream = try RecordStream(directory: file)
            } catch {
                throw CLIError(message: "cannot read \(file): \(error.localizedDescription)", code: .notFound)
            }
            guard stream.hasFiles else {
                throw CLIError(message: "cannot read \(file): it is a directory without .vcf files (a vdir holds one card per .vcf file)", code: .notFound)
            }
            return stream
        }
        let format = format == .vdir ? InterchangeFormat.vdir : try resolvedFormat()
        guard exists else { throw CLIError(message: "cannot read \(file): no such file", code: .notFound) }
        if format == .vdir { throw CLIError(message: "cannot read \(file) as a vdir: it is not a directory", code: .notFound) }
        let descriptor = open(file, O_RDONLY)
        guard descriptor >= 0 else {
            throw CLIError(message: "cannot read \(file): \(String(cString: strerror(errno)))", code: .notFound)
        }
        return RecordStream(handle: FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), format: format)
    }

    func resolvedFormat() throws -> InterchangeFormat {
        if let format { return format }
        // A mistyped name is a missing file (exit 66), whatever its extension says.
        if file != "-", !FileManager.default.fileExists(atPath: file) {
            throw CLIError(message: "cannot read \(file): no such file", code: .notFound)
        }
        guard let format = InterchangeFormat(fileExtension: (file as NSString).pathExtension) else {
            throw CLIError.usage("cannot tell the format of \(file) from its extension; add --format vcf, csv, json or ldif")
        }
        return format
    }
}
