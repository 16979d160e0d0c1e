import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

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
        // LDIF names a list's members by their entries' DNs: only those are kept while writing.
        let members = format == .ldif ? try InterchangeViewModel(state: state).groupMemberUIDs() : nil
        var writer = format.writer(vCardVersion: vcardVersion, groupMembers: members)
        try sink.write(writer.header)
        var count = 0
        var notWritten = 0
        try Self.forEachContact(state: state, favoritesOnly: favorites, bookID: try book.resolved(state)?.id) { contact, isFavorite in
            guard let text = try writer.entry(contact, favorite: isFavorite) else { return }
            for note in writer.notes(on: contact) {
                if note.kind == .notWritten { notWritten += 1 }
                if verbose { say(note, of: contact, terminal: terminal) }
            }
            try sink.write(text)
            count += 1
        }
        try sink.write(writer.footer())
        try sink.commit()
        // What the format has no room for is said even without --verbose: it is not in the file.
        if notWritten > 0, !verbose {
            terminal.console.writeError("carnet: \(notWritten) \(notWritten == 1 ? "value" : "values") not written: \(writer.notWrittenReason) \(notWritten == 1 ? "it" : "them") (--verbose names each)\n")
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

    /// With --verbose, what the writer says of a contact, on stderr.
    @MainActor private func say(_ note: InterchangeWriterNote, of contact: Contact, terminal: Terminal) {
        terminal.console.writeError("carnet: \(TextRules.escapedForDisplay(contact.draft.name)) (\(TextRules.escapedForDisplay(contact.uid))): \(note)\n")
    }

    /// One file per contact, written only when it changes; other cards stay unless --delete.
    @MainActor private func exportVDir(to directory: String, state: StateController, terminal: Terminal) throws {
        let vdir = try VDirWriter(directory: directory)
        var written = 0
        var count = 0
        let writer = VCardFileWriter(version: vcardVersion)
        try Self.forEachContact(state: state, favoritesOnly: favorites, bookID: try book.resolved(state)?.id) { contact, isFavorite in
            if verbose { for note in writer.notes(on: contact) { say(note, of: contact, terminal: terminal) } }
            guard let card = writer.entry(contact, favorite: isFavorite) else { return }
            if try vdir.write(card, uid: contact.uid) { written += 1 }
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
