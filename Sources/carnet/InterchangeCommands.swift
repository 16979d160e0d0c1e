import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension InterchangeFormat: ExpressibleByArgument {}
extension VCardVersion: ExpressibleByArgument {}

/// Pulls records from a file (or stdin) 256 KiB at a time, so a million-contact file is never
/// in memory whole. JSON is the exception: it is one document, decoded at once.
final class RecordStream {
    private let handle: FileHandle
    private var reader: (any InterchangeReader)?
    private var pending: [Result<InterchangeRecord, InterchangeError>] = []
    private var finished = false

    init(handle: FileHandle, format: InterchangeFormat) throws {
        self.handle = handle
        switch format {
        case .vcf: reader = VCardReader()
        case .csv: reader = CSVReader()
        case .json:
            let data = handle.readDataToEndOfFile()
            do {
                pending = try ContactJSONCoding.decode(data).map { .success($0) }
            } catch {
                pending = [.failure(error)]
            }
            finished = true
        }
    }

    func next() throws(InterchangeError) -> InterchangeRecord? {
        while pending.isEmpty && !finished {
            let chunk = (try? handle.read(upToCount: 256 * 1024)) ?? Data()
            if chunk.isEmpty {
                finished = true
                if let last = try reader?.finish() { return last }
            } else {
                pending = reader?.feed(chunk) ?? []
            }
        }
        guard !pending.isEmpty else { return nil }
        return try pending.removeFirst().get()
    }
}

struct ImportCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import contacts from a vCard, CSV or JSON file, all or nothing.",
        discussion: """
            The format comes from the file's extension (.vcf/.vcard, .csv, .json) unless --format \
            says; - reads standard input. A card whose UID is already in the address book updates \
            that contact instead of adding a duplicate (unless that contact changed after the card \
            was written: a conflict, as for edits; --force overwrites).

            The import is one transaction: a record that breaks a rule stops it with the file, line \
            and reason, and nothing is written. --skip-invalid imports the rest and lists what it \
            skipped. A file with broken syntax is always refused.

            vCard: 2.1, 3.0 and 4.0. Every field Carnet has is read (FN, N, NICKNAME, ORG, TITLE, \
            ROLE, EMAIL, TEL, ADR, URL, IMPP, BDAY, ANNIVERSARY, NOTE, CATEGORIES, PHOTO, with their \
            types and labels); every other property, and a value Carnet's rules refuse, is kept \
            verbatim and written back on export, never dropped: each such value is named on \
            standard error. CSV: Carnet's columns (carnet export --format csv), or Google's, \
            Outlook's and Gmail's exports. JSON: the schema carnet list --json prints.

            EXAMPLES:
              carnet import contacts.vcf
              carnet import google.csv --dry-run
              carnet import backup.json --skip-invalid
              cat cards.vcf | carnet import - --format vcf
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { !dryRun }
    @Argument(help: ArgumentHelp("The file to read, or - for standard input.", valueName: "file")) var file: String
    @Option(help: "vcf, csv or json (default: from the file's extension).") var format: InterchangeFormat?
    @Flag(help: "Report what would be added, updated and skipped; write nothing.") var dryRun = false
    @Flag(help: "Skip records that break a rule or conflict, and list them.") var skipInvalid = false
    @Flag(help: "Overwrite contacts changed after the record was written.") var force = false

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let format = try resolvedFormat()
        let handle: FileHandle
        if file == "-" {
            handle = try terminal.console.inputHandle()
        } else {
            // Exit 66 like any other name that leads nowhere (sysexits' EX_NOINPUT: an input file
            // that does not exist or cannot be read), with the reason.
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
                throw CLIError(message: "cannot read \(file): no such file", code: .notFound)
            }
            guard !isDirectory.boolValue else {
                throw CLIError(message: "cannot read \(file): it is a directory", code: .notFound)
            }
            let descriptor = open(file, O_RDONLY)
            guard descriptor >= 0 else {
                throw CLIError(message: "cannot read \(file): \(String(cString: strerror(errno)))", code: .notFound)
            }
            handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        }
        let stream = try RecordStream(handle: handle, format: format)
        // What a record could not map onto a field (kept verbatim) is said, not swallowed.
        var notes: [InterchangeNote] = []
        var noteCount = 0
        let next = { () throws(InterchangeError) -> InterchangeRecord? in
            let record = try stream.next()
            if let record, !record.notes.isEmpty {
                noteCount += record.notes.count
                notes += record.notes.prefix(max(0, Self.notesShown - notes.count))
            }
            return record
        }
        let showsProgress = terminal.stderrIsTerminal && terminal.environment["NO_COLOR"] == nil
        let console = terminal.console
        let report = try InterchangeViewModel(state: state).importContacts(
            source: file == "-" ? "stdin" : file,
            options: ImportOptions(dryRun: dryRun, skipInvalid: skipInvalid, force: force),
            progress: showsProgress ? { count in console.writeError("\rimporting… \(count) records") } : nil,
            next: next)
        if showsProgress { console.writeError("\r\u{1B}[K") }
        let source = file == "-" ? "stdin" : file
        for note in notes { console.writeError("carnet: \(source):\(note.line): \(note.message)\n") }
        if noteCount > notes.count { console.writeError("carnet: … and \(noteCount - notes.count) more kept verbatim\n") }
        for skipped in report.skipped { terminal.print("skipped \(skipped)") }
        terminal.print(dryRun ? "dry run: \(report.summary); nothing was written" : "saved import: \(report.summary)")
    }

    /// At most this many notes are printed; the rest are counted.
    static let notesShown = 20

    func resolvedFormat() throws -> InterchangeFormat {
        if let format { return format }
        guard file != "-" else { throw CLIError.usage("reading standard input needs --format vcf, csv or json") }
        guard let format = InterchangeFormat(fileExtension: (file as NSString).pathExtension) else {
            throw CLIError.usage("cannot tell the format of \(file) from its extension; add --format vcf, csv or json")
        }
        return format
    }
}

struct ExportCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export contacts as vCard, CSV or JSON.",
        discussion: """
            Writes to standard output, or to --output FILE (written whole or not at all). The format \
            comes from --format, else the output file's extension, else vCard 4.0. Contacts are \
            read a page at a time, in name order (favorites: in your order).

            EXAMPLES:
              carnet export > contacts.vcf
              carnet export --format csv --output contacts.csv
              carnet export --favorites --format json
              carnet export --vcard-version 3.0 --output old-phone.vcf
            """)

    @OptionGroup var database: DatabaseOption
    @Option(help: "vcf, csv or json.") var format: InterchangeFormat?
    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?
    @Flag(help: "Only the favorites.") var favorites = false
    @Option(help: "3.0 or 4.0 (vCard only).") var vcardVersion: VCardVersion = .v4

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let format = format ?? output.flatMap { InterchangeFormat(fileExtension: ($0 as NSString).pathExtension) } ?? .vcf
        let sink = try ExportSink(path: output, console: terminal.console)
        if format == .csv { try sink.write(CSVWriter.header) }
        if format == .json { try sink.write("[\n") }
        var count = 0
        try InterchangeViewModel(state: state).forEachContact(favoritesOnly: favorites) { contact, isFavorite in
            switch format {
            case .vcf: try sink.write(VCardWriter.card(contact: contact, version: vcardVersion))
            case .csv: try sink.write(CSVWriter.row(contact: contact))
            case .json: try sink.write((count == 0 ? "" : ",\n") + JSONOutput.line(ContactJSON(contact: contact, favorite: isFavorite)))
            }
            count += 1
        }
        if format == .json { try sink.write(count == 0 ? "]\n" : "\n]\n") }
        try sink.commit()
        // Confirmations go to stdout, unless stdout carries the data (then there is none).
        if let output { terminal.print("saved export: \(count) contacts to \(output)") }
    }
}

/// Standard output, or a temp file renamed over the target at the end, so a failed export never
/// leaves half a file.
final class ExportSink {
    private let target: String?
    private let temp: String?
    /// The temp file; nil when writing to standard output.
    private let handle: FileHandle?
    private let console: Console

    init(path: String?, console: Console) throws {
        target = path
        self.console = console
        guard let path else {
            temp = nil
            handle = nil
            return
        }
        let directory = (path as NSString).deletingLastPathComponent
        let temp = (directory.isEmpty ? "." : directory) + "/.\((path as NSString).lastPathComponent).\(getpid()).tmp"
        guard FileManager.default.createFile(atPath: temp, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: temp) else {
            throw CLIError(message: "cannot write \(path): check the directory exists and is writable", code: .other)
        }
        self.temp = temp
        self.handle = handle
    }

    func write(_ text: String) throws {
        if let handle {
            try handle.write(contentsOf: Data(text.utf8))
        } else {
            try console.writeData(Data(text.utf8))
        }
    }

    func commit() throws {
        guard let temp, let target, let handle else { return }
        try handle.close()
        if rename(temp, target) != 0 {
            try? FileManager.default.removeItem(atPath: temp)
            throw CLIError(message: "cannot write \(target): \(String(cString: strerror(errno)))", code: .other)
        }
    }

    deinit {
        if let temp, FileManager.default.fileExists(atPath: temp) { try? FileManager.default.removeItem(atPath: temp) }
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
