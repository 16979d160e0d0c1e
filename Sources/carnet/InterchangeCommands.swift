import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension InterchangeFormat: ExpressibleByArgument {}
extension VCardVersion: ExpressibleByArgument {}

/// Pulls records from a file (or stdin) 256 KiB at a time, so a million-contact file is never
/// in memory whole (JSON too: each element of the array is decoded as it arrives). A vdir (a
/// directory of one card per file) is read file after file, each record and error naming its file.
final class RecordStream {
    private var handle: FileHandle?
    private var reader: (any ChunkReader)?
    /// What the reader made and `next()` has not handed out yet, the next one last: a chunk of
    /// 256 KiB makes hundreds of records, and taking each from the front moved all the others
    /// (a tenth of reading a vCard file).
    private var pending: [Result<InterchangeRecord, InterchangeError>] = []
    private var finished = false
    /// A vdir's card files not read yet, and the one being read.
    private var files: [String] = []
    private var currentFile: String?
    /// Told each entry of a vdir that is not a regular file (a FIFO, a device, a symlink to
    /// one) and is skipped: reading a FIFO would wait forever, a device never ends.
    var onSkippedFile: ((_ path: String, _ kind: String) -> Void)?

    init(handle: FileHandle, format: InterchangeFormat) {
        self.handle = handle
        switch format {
        case .vcf, .vdir: reader = VCardReader()
        case .csv: reader = CSVReader()
        case .ldif: reader = LDIFReader()
        case .json: reader = ContactJSONReader()
        }
    }

    /// The `.vcf` files of a directory, in name order (see `VDir/isCard(_:)`).
    init(directory: String) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        files = names.filter(VDir.isCard).sorted().map { (directory as NSString).appendingPathComponent($0) }
        finished = true
    }

    /// Whether a vdir has a card file to read.
    var hasFiles: Bool { !files.isEmpty }

    /// The CSV dialect the header was read in, once it has been.
    var dialect: CSVDialect? { (reader as? CSVReader)?.dialect }

    func next() throws(InterchangeError) -> InterchangeRecord? {
        while pending.isEmpty {
            if finished {
                guard openNextFile() else { return nil }
                continue
            }
            let chunk = (try? handle?.read(upToCount: 256 * 1024)) ?? Data()
            if chunk.isEmpty {
                finished = true
                do {
                    if let last = try reader?.finish() { pending.append(.success(last)) }
                } catch {
                    pending.append(.failure(error))
                }
            } else {
                pending = reader?.feed(chunk).reversed() ?? []
            }
        }
        switch pending.removeLast() {
        case var .success(record):
            record.file = currentFile
            return record
        case var .failure(error):
            error.file = currentFile
            if currentFile != nil {
                // A vdir's file is one card: after its error the rest of it is not read (it may
                // never end), and --skip-invalid goes on with the next file.
                pending = []
                handle = nil
                finished = true
            }
            throw error
        }
    }

    /// Starts on a vdir's next file; false when there is none.
    private func openNextFile() -> Bool {
        while let path = files.first {
            files.removeFirst()
            currentFile = path
            reader = VCardReader()
            // O_NONBLOCK so opening a FIFO does not wait for a writer; it is then skipped.
            let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else {
                pending = [.failure(InterchangeError(line: 1, message: "cannot read it: \(String(cString: strerror(errno)))"))]
                handle = nil
                return true
            }
            var info = stat()
            guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                let kind: String
                switch info.st_mode & S_IFMT {
                case S_IFIFO: kind = "a FIFO"
                case S_IFCHR, S_IFBLK: kind = "a device"
                case S_IFSOCK: kind = "a socket"
                case S_IFDIR: kind = "a directory"
                default: kind = "a special file"
                }
                close(descriptor)
                onSkippedFile?(path, kind)
                continue
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            finished = false
            return true
        }
        return false
    }
}

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
        if !dryRun, case let count = try DuplicatesViewModel(state: state).countDuplicatesOfExisting(added: report.addedIDs), count > 0 {
            terminal.print("\(count) imported contact\(count == 1 ? " looks" : "s look") like duplicates of contacts already here: see carnet duplicates")
        }
    }

    /// At most this many refused values (and per-file counts) are printed; the rest are counted.
    static let notesShown = 20

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

struct ExportCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export contacts as vCard, CSV, JSON or LDIF, or into a vdir directory.",
        discussion: """
            Writes to standard output, or to --output FILE (written whole or not at all). The format \
            comes from --format, else the output file's extension, else vCard 4.0. Contacts are \
            read a page at a time, in name order (favorites: in your order).

            --format vdir DIR writes one vCard file per contact into the directory DIR (made if \
            missing), as khard and vdirsyncer keep an address book. A contact's file is named from \
            its UID alone, so it keeps its name from one export to the next: UID.vcf when the UID is \
            made of ASCII letters, digits and - _ . @ + (and does not start with a dot), else the UID \
            with every other character made _, cut at 64, then - and 16 hex digits of a hash of the \
            whole UID. Each file is written to a temporary file in DIR and renamed over the old one, \
            and only when its bytes change. Other .vcf files in DIR (a contact deleted since the \
            last export, or cards Carnet did not write) are left alone and counted; --delete removes \
            them, so that DIR holds exactly the exported contacts.

            --format ldif writes the LDIF Thunderbird imports (mozillaAbPersonAlpha), each contact's \
            UID as its uid, so importing the file again updates the contacts. What LDIF has no \
            attribute for (a third phone of one kind, handles, categories, the photo, ...) is counted \
            on standard error; --verbose names each.

            EXAMPLES:
              carnet export > contacts.vcf
              carnet export --format csv --output contacts.csv
              carnet export --favorites --format json
              carnet export --vcard-version 3.0 --output old-phone.vcf
              carnet export --format vdir ~/.local/share/contacts/personal --delete
            """)

    @OptionGroup var database: DatabaseOption
    @OptionGroup var book: BookOption
    @Option(help: "vcf, csv, json, ldif or vdir (a directory, one .vcf file per contact).") var format: InterchangeFormat?
    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file (or, with --format vdir, this directory) instead of standard output.", valueName: "file"))
    var output: String?
    @Argument(help: ArgumentHelp("With --format vdir: the directory to write (or give it with --output).", valueName: "dir"))
    var directory: String?
    @Flag(help: "Only the favorites.") var favorites = false
    @Option(help: "4.0, 3.0 or 2.1 (vCard and vdir only).") var vcardVersion: VCardVersion = .v4
    @Flag(help: "With --format vdir: remove the directory's other .vcf files.") var delete = false
    @Flag(help: "Name every kept property written in another form than it was read in (vCard and vdir), or not written (LDIF).") var verbose = false

    func validate() throws {
        if format == .vdir {
            guard (directory == nil) != (output == nil) else {
                throw ValidationError("--format vdir needs one directory: carnet export --format vdir DIR")
            }
        } else {
            if directory != nil { throw ValidationError("a directory argument goes with --format vdir; use --output FILE for a file") }
            if delete { throw ValidationError("--delete goes with --format vdir") }
        }
    }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        if format == .vdir, let target = directory ?? output {
            return try exportVDir(to: target, state: state, terminal: terminal)
        }
        let format = format ?? output.flatMap { InterchangeFormat(fileExtension: ($0 as NSString).pathExtension) } ?? .vcf
        let sink = try ExportSink(path: output, console: terminal.console)
        if format == .csv { try sink.write(CSVWriter.header) }
        if format == .json { try sink.write("[\n") }
        if format == .ldif { try sink.write(LDIFWriter.header) }
        var count = 0
        var notWritten = 0
        try Self.forEachContact(state: state, favoritesOnly: favorites, bookID: try book.resolved(state)?.id) { contact, isFavorite in
            switch format {
            case .vcf, .vdir:
                sayConversions(contact, terminal: terminal)
                try sink.write(VCardWriter.card(contact: contact, version: vcardVersion))
            // A group card has no row in a table of people: vCard and JSON carry it.
            case .csv where contact.kind == .group, .ldif where contact.kind == .group: return
            case .csv: try sink.write(CSVWriter.row(contact: contact))
            case .ldif:
                let left = LDIFWriter.left(contact.draft)
                notWritten += left.count
                if verbose {
                    for what in left {
                        terminal.console.writeError("carnet: \(TextRules.escapedForDisplay(contact.draft.name)) (\(TextRules.escapedForDisplay(contact.uid))): \(what) not written: LDIF has no attribute for it\n")
                    }
                }
                try sink.write(LDIFWriter.entry(contact.draft, uid: contact.uid))
            case .json: try sink.write((count == 0 ? "" : ",\n") + JSONOutput.line(ContactJSON(contact: contact, favorite: isFavorite)))
            }
            count += 1
        }
        if format == .json { try sink.write(count == 0 ? "]\n" : "\n]\n") }
        try sink.commit()
        // What LDIF has no room for is said even without --verbose: it is not in the file.
        if notWritten > 0, !verbose {
            terminal.console.writeError("carnet: \(notWritten) \(notWritten == 1 ? "value" : "values") not written: LDIF has no attribute for \(notWritten == 1 ? "it" : "them") (--verbose names each)\n")
        }
        // Confirmations go to stdout, unless stdout carries the data (then there is none).
        if let output { terminal.print("saved export: \(count) contacts to \(output)") }
    }

    /// Every contact to `body`; an error `body` throws (a full disk) is thrown as it is, not
    /// as the database's.
    @MainActor private static func forEachContact(
        state: StateController, favoritesOnly: Bool, bookID: Int64?, _ body: (Contact, Bool) throws -> Void
    ) throws {
        var failure: (any Error)?
        do {
            try InterchangeViewModel(state: state).forEachContact(favoritesOnly: favoritesOnly, bookID: bookID) { contact, isFavorite in
                do {
                    try body(contact, isFavorite)
                } catch {
                    failure = error
                    throw error
                }
            }
        } catch {
            throw failure ?? error
        }
    }

    /// With --verbose, what of the contact's kept lines goes out in another form, on stderr.
    @MainActor private func sayConversions(_ contact: Contact, terminal: Terminal) {
        guard verbose else { return }
        for conversion in VCardWriter.conversions(of: contact.draft, version: vcardVersion) {
            terminal.console.writeError("carnet: \(TextRules.escapedForDisplay(contact.draft.name)) (\(TextRules.escapedForDisplay(contact.uid))): \(conversion)\n")
        }
    }

    /// One file per contact, written only when it changes; other cards stay unless --delete.
    @MainActor private func exportVDir(to directory: String, state: StateController, terminal: Terminal) throws {
        let vdir = try VDirWriter(directory: directory)
        var written = 0
        var count = 0
        try Self.forEachContact(state: state, favoritesOnly: favorites, bookID: try book.resolved(state)?.id) { contact, _ in
            sayConversions(contact, terminal: terminal)
            if try vdir.write(VCardWriter.card(contact: contact, version: vcardVersion), uid: contact.uid) { written += 1 }
            count += 1
        }
        let others = try vdir.otherCards()
        var deleted = 0
        if delete {
            for name in others {
                try vdir.remove(name)
                deleted += 1
            }
        }
        var summary = "saved export: \(count) contacts to \(directory) (\(written) written, \(count - written) unchanged"
        if delete {
            summary += ", \(deleted) other .vcf \(deleted == 1 ? "file" : "files") deleted)"
        } else if !others.isEmpty {
            summary += "; \(others.count) other .vcf \(others.count == 1 ? "file" : "files") left as \(others.count == 1 ? "it was" : "they were"), --delete removes them)"
        } else {
            summary += ")"
        }
        terminal.print(summary)
    }
}

/// A vdir being written: each card into its own file, by a temporary file renamed over the old
/// one (a reader never sees half a card), and only when its bytes change.
final class VDirWriter {
    let directory: String
    /// The file names this export wrote or found unchanged.
    private var names: Set<String> = []

    init(directory: String) throws {
        self.directory = directory
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw CLIError(message: "cannot write \(directory): it is not a directory", code: .other) }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw CLIError(message: "cannot make the directory \(directory): \(error.localizedDescription)", code: .other)
            }
        }
    }

    private func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }

    /// Writes the card; false when the file already held these bytes.
    func write(_ card: String, uid: String) throws -> Bool {
        let name = VDir.fileName(uid: uid)
        guard names.insert(name).inserted else {
            throw CLIError(message: "cannot write \(path(name)): two contacts' UIDs give this file name", code: .other)
        }
        let data = Data(card.utf8)
        let target = path(name)
        if FileManager.default.contents(atPath: target) == data { return false }
        let temp = path(".\(name).\(getpid()).tmp")
        let descriptor = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw OutputFailure.error(writing: target, errno: errno) }
        if let failure = OutputFailure.writeAll(descriptor, data) ?? (close(descriptor) == 0 ? nil : errno) {
            close(descriptor)
            unlink(temp)
            throw OutputFailure.error(writing: target, errno: failure, partial: "this card was not written (the ones before it were, each whole)")
        }
        if rename(temp, target) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temp)
            throw CLIError(message: "cannot write \(target): \(reason)", code: .other)
        }
        return true
    }

    /// The `.vcf` files in the directory this export did not write, in name order.
    func otherCards() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { VDir.isCard($0) && !names.contains($0) }.sorted()
    }

    func remove(_ name: String) throws {
        do {
            try FileManager.default.removeItem(atPath: path(name))
        } catch {
            throw CLIError(message: "cannot delete \(path(name)): \(error.localizedDescription)", code: .other)
        }
    }
}

/// Standard output, or a temp file renamed over the target at the end, so a failed export never
/// leaves half a file: a write that fails (a full disk) removes the temp file and says so in one
/// sentence.
final class ExportSink {
    private let target: String?
    private let temp: String?
    /// The temp file; -1 when writing to standard output.
    private var descriptor: Int32 = -1
    private let console: Console

    init(path: String?, console: Console) throws {
        target = path
        self.console = console
        guard let path else {
            temp = nil
            return
        }
        // A link is followed: what it names is written, and the link stays a link.
        let resolved = Self.resolved(path)
        var info = stat()
        if stat(resolved, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG {
            // A device or a FIFO (/dev/stdout, a pipe to another program) is written through:
            // renamed over, it would be replaced by a file (once, /dev/full).
            temp = nil
            descriptor = open(resolved, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw CLIError(message: "cannot write \(path): \(String(cString: strerror(errno)))", code: .other)
            }
            return
        }
        let directory = (resolved as NSString).deletingLastPathComponent
        let temp = (directory.isEmpty ? "." : directory) + "/.\((resolved as NSString).lastPathComponent).\(getpid()).tmp"
        descriptor = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if [ENOSPC, EDQUOT].contains(errno) { throw OutputFailure.error(writing: path, errno: errno) }
            throw CLIError(message: "cannot write \(path): check the directory exists and is writable", code: .other)
        }
        self.temp = temp
    }

    func write(_ text: String) throws {
        guard descriptor >= 0 else {
            console.flush()
            // On a terminal a value's control characters would act (clear the screen, set the
            // title): they are shown escaped, as `show` does. A pipe gets the exact bytes.
            let text = console.stdoutIsTerminal ? Self.terminalSafe(text) : text
            if let failure = OutputFailure.writeAll(text.utf8, console: console) {
                throw OutputFailure.error(writing: nil, errno: failure)
            }
            return
        }
        if let failure = OutputFailure.writeAll(descriptor, Data(text.utf8)) {
            let written = temp == nil ? "the export stopped part way" : "nothing was written"
            discard()
            throw OutputFailure.error(writing: target ?? "", errno: failure, partial: written)
        }
    }

    func commit() throws {
        if temp == nil, let target, descriptor >= 0 {
            let closed = close(descriptor)
            let closeError = errno
            descriptor = -1
            if closed != 0 { throw OutputFailure.error(writing: target, errno: closeError, partial: "the export stopped part way") }
            return
        }
        guard let temp, let target, descriptor >= 0 else { return }
        let closed = close(descriptor)
        let closeError = errno
        descriptor = -1
        if closed != 0 {
            unlink(temp)
            throw OutputFailure.error(writing: target, errno: closeError, partial: "nothing was written")
        }
        if rename(temp, Self.resolved(target)) != 0 {
            try? FileManager.default.removeItem(atPath: temp)
            throw CLIError(message: "cannot write \(target): \(String(cString: strerror(errno)))", code: .other)
        }
    }

    /// `path` with its links followed, or as it is when it does not exist yet.
    private static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// Every line with its control characters escaped (`TextRules/escapedForDisplay(_:)`),
    /// keeping the line breaks, a CRLF's CR included.
    static func terminalSafe(_ text: String) -> String {
        if text.utf8.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 10 || $0 == 13 }) { return text }
        // Split by scalars: "\r\n" is one Character, which a split at "\n" would not cut.
        return text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { scalars in
            let line = String(String.UnicodeScalarView(scalars))
            return line.unicodeScalars.last == "\r" ? String(String.UnicodeScalarView(line.unicodeScalars.dropLast())).shown + "\r" : line.shown
        }.joined(separator: "\n")
    }

    /// Closes and removes the temp file.
    private func discard() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        if let temp { unlink(temp) }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if let temp, FileManager.default.fileExists(atPath: temp) { try? FileManager.default.removeItem(atPath: temp) }
    }
}

/// Writing an export's bytes with write(2), so a failure is an errno, and that errno as one
/// sentence: a full disk is exit 74, like a database write that finds the disk full.
enum OutputFailure {
    /// Writes all of `data`; the errno of the write that failed, nil when all was written.
    static func writeAll(_ descriptor: Int32, _ data: Data) -> Int32? {
        data.withUnsafeBytes { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    /// Writes all of `bytes` to standard output.
    static func writeAll(_ bytes: String.UTF8View, console: Console) -> Int32? {
        var array = Array(bytes)
        return array.withUnsafeMutableBufferPointer { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = console.writeUnbuffered(base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    /// `cannot write FILE: the disk is full; nothing was written` (exit 74), or the system's
    /// reason for another failure (exit 1). `path` nil is standard output.
    static func error(writing path: String?, errno code: Int32, partial: String = "nothing was written") -> CLIError {
        let what = path ?? "standard output"
        if code == ENOSPC || code == EDQUOT || code == EFBIG {
            let done = path == nil ? "the export stopped part way" : partial
            return CLIError(message: "cannot write \(what): the disk is full; \(done). Free some space and try again", code: .diskFull)
        }
        let done = path == nil ? "the export stopped part way" : partial
        return CLIError(message: "cannot write \(what): \(String(cString: strerror(code))); \(done)", code: .other)
    }
}

struct SampleCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample",
        abstract: "Load the five contacts of the classic demo app, to have something to look at.",
        discussion: """
            They come with what a real address book holds: work and home emails and phones, \
            addresses, a web address and a handle, birthdays and an anniversary, a note and \
            categories (try carnet birthdays --days 366, carnet list --category friends).

            Running it again never changes a contact (the samples have fixed UIDs): a sample you \
            edited is left as you made it, and the report names it; only a sample you deleted is \
            added back.

            EXAMPLE:
              carnet sample && carnet list
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }

    /// The samples, each written as `carnet add` flags would give it (one entry syntax
    /// everywhere): the classic app's name, position, email and phone first (the preferred
    /// ones), then the rest.
    static let contacts: [(name: String, position: String, entries: [(Field, String)])] = [
        ("Madison Thompson", "Sales, Gale Foods", [
            (.email, "work,pref:madison.thompson@example.com"), (.email, "home:madison@home.example"),
            (.phone, "work,pref:+1 555 0101"), (.phone, "cell:+1 555 0111"),
            (.address, "work:200 Harbor Way; Seattle; WA; 98104; USA"),
            (.date, "birthday:1988-03-14"), (.category, "work"), (.category, "customers"),
        ]),
        // One plain contact, as a file of the first schema holds it: one email, one phone.
        ("Tyler Porter", "Software developer, Prophecy", [(.email, "pref:tyler.porter@example.com"), (.phone, "pref:+1 555 0102")]),
        ("Katherine Price", "Marketing, Golden Roads", [
            (.nickname, "Kate"),
            (.email, "work,pref:katherine.price@example.com"), (.email, "home:kate@home.example"),
            (.phone, "work,pref:+1 555 0103"), (.address, "home:48 Elm Street; Portland; OR; 97205; USA"),
            (.date, "birthday:1991-11-02"), (.date, "anniversary:2016-06-18"), (.category, "friends"),
        ]),
        ("Gary Edwards", "Web Developer, Bluewares", [
            (.email, "work,pref:gary.edwards@example.com"), (.phone, "work,pref:+1 555 0104"), (.phone, "fax:+1 555 0114"),
            (.date, "birthday:1979-05-30"), (.note, "Prefers email to calls.\nAsk about the Bluewares redesign."),
            (.category, "work"),
        ]),
        ("Rebecca Rogers", "HR, Globaviations", [
            (.email, "work,pref:rebecca.rogers@example.com"), (.phone, "work,pref:+1 555 0105"), (.phone, "cell:+1 555 0115"),
            (.address, "work:1 Airport Rd; Denver; CO; 80249; USA"), (.date, "birthday:1985-09-09"), (.category, "work"),
        ]),
    ]

    /// A sample's draft, its entries read by the field description's own lists.
    static func draft(name: String, position: String, entries: [(Field, String)]) -> ContactDraft {
        var draft = ContactDraft()
        draft.rename(to: name)
        draft.position = position
        for (field, text) in entries {
            guard let spec = ContactFields.spec(field) else { continue }
            switch spec.value {
            case let .list(list): _ = list.add(&draft, text)
            case let .text(keyPath), let .multiline(keyPath): draft[keyPath: keyPath] = text
            case .photo: break
            }
        }
        return draft
    }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        var records = Self.contacts.enumerated().map { index, contact in
            InterchangeRecord(
                uid: "carnet-sample-\(index + 1)",
                draft: Self.draft(name: contact.name, position: contact.position, entries: contact.entries),
                line: index + 1)
        }[...]
        let report = try InterchangeViewModel(state: state).importContacts(
            source: "sample", options: ImportOptions(keepsExisting: true), next: { records.popFirst() })
        terminal.print("saved sample: \(report.summary)")
    }
}
