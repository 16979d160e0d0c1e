import Foundation
import Testing

/// Address books on the command line: `carnet book list | add | rename | delete`, `move`,
/// `copy`, and `--book` on add, list, query, birthdays, import and export; an unknown book is
/// exit 79, and every change is undone by `carnet undo`.
@Suite struct BookCommandTests {
    let box = Sandbox()

    @Test func booksAreListedAddedRenamedAndDeleted() {
        let added = box.carnetInProcess(["book", "add", "Work"])
        #expect(added.status == 0 && added.stdout == "added address book Work\n", "\(added)")
        #expect(box.carnetInProcess(["book", "list"]).stdout == "name\tcontacts\tdefault\tgroups\nContacts\t0\tyes\t0\nWork\t0\t\t0\n")
        #expect(box.carnetInProcess(["book"]).stdout == "name\tcontacts\tdefault\tgroups\nContacts\t0\tyes\t0\nWork\t0\t\t0\n")  // list is the default
        let again = box.carnetInProcess(["book", "add", "work"])
        #expect(again.status == 65 && again.stderr.contains("already an address book named \"Work\""), "\(again)")
        #expect(box.carnetInProcess(["book", "add", ""]).status == 65)
        let renamed = box.carnetInProcess(["book", "rename", "work", "Office"])
        #expect(renamed.stdout == "renamed address book Work to Office\n", "\(renamed)")
        #expect(box.carnetInProcess(["book", "rename", "Contacts", "Personal"]).status == 0)
        let keepDefault = box.carnetInProcess(["book", "delete", "Personal", "--force"])
        #expect(keepDefault.status == 65 && keepDefault.stderr.contains("default address book, which cannot be deleted"), "\(keepDefault)")
        let unknown = box.carnetInProcess(["book", "delete", "Nowhere"])
        #expect(unknown.status == 79 && unknown.stderr.contains("no address book is named \"Nowhere\""), "\(unknown)")
        #expect(box.carnetInProcess(["book", "delete", "Office"]).stdout == "deleted address book Office (carnet undo brings it back)\n")
        #expect(box.carnetInProcess(["book", "list"]).lines == ["name\tcontacts\tdefault\tgroups", "Personal\t0\tyes\t0"])
        // Each was one action: undone newest first.
        #expect(box.carnetInProcess(["undo"]).stdout == "undone 4: deleted the address book Office\n")
        #expect(box.carnetInProcess(["undo"]).stdout == "undone 3: renamed the address book Contacts to Personal\n")
        #expect(box.carnetInProcess(["history"]).lines.last?.hasSuffix("\tadded the address book Work\t") == true)
        #expect(box.carnetInProcess(["book", "list"]).lines == ["name\tcontacts\tdefault\tgroups", "Contacts\t0\tyes\t0", "Office\t0\t\t0"])
        #expect(box.carnetInProcess(["redo"]).status == 0)
        #expect(box.carnetInProcess(["book", "list"]).lines.dropFirst().first == "Personal\t0\tyes\t0")
    }

    @Test func bookNarrowsAddListQueryBirthdaysExportAndImport() throws {
        box.carnetInProcess(["add", "--name", "Ada Lovelace", "--email", "ada@example.com", "--date", "birthday:1815-12-10"])
        // One book: the listing is as it always was.
        #expect(box.carnetInProcess(["list"]).lines == ["id\tname\tposition\temail\tphone\tfavorite", "1\tAda Lovelace\t\tada@example.com\t\t0"])
        box.carnetInProcess(["book", "add", "Work"])
        let added = box.carnetInProcess(["add", "--book", "work", "--name", "Ada Byron", "--email", "byron@example.com", "--date", "birthday:1815-12-10"])
        #expect(added.stdout == "saved contact 2\n", "\(added)")
        // More than one book: every row says its book; --book narrows to one.
        #expect(box.carnetInProcess(["list"]).lines == [
            "id\tname\tposition\temail\tphone\tfavorite\tbook",
            "2\tAda Byron\t\tbyron@example.com\t\t0\tWork",
            "1\tAda Lovelace\t\tada@example.com\t\t0\tContacts",
        ])
        #expect(box.carnetInProcess(["list", "--book", "Work"]).lines.dropFirst() == ["2\tAda Byron\t\tbyron@example.com\t\t0\tWork"])
        #expect(box.carnetInProcess(["list", "--book", "Contacts", "--search", "ada"]).lines.count == 2)

        let all = box.carnetInProcess(["query", "ada"])
        #expect(all.lines.dropFirst().sorted() == ["ada@example.com\tAda Lovelace\tContacts", "byron@example.com\tAda Byron\tWork"], "\(all)")
        let work = box.carnetInProcess(["query", "ada", "--book", "Work"])
        #expect(work.lines.dropFirst() == ["byron@example.com\tAda Byron\t"], "\(work)")

        let birthdays = try #require(box.json(box.carnetInProcess(["birthdays", "--from", "2026-12-01", "--days", "30", "--json", "--book", "Work"]).stdout) as? [[String: Any]])
        #expect(birthdays.count == 1)

        let exported = box.carnetInProcess(["export", "--format", "vcf", "--book", "Work"])
        #expect(exported.stdout.components(separatedBy: "BEGIN:VCARD").count == 2 && exported.stdout.contains("FN:Ada Byron"), "\(exported)")
        let card = box.write("grace.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:grace\r\nFN:Grace Hopper\r\nN:Hopper;Grace;;;\r\nEND:VCARD\r\n")
        #expect(box.carnetInProcess(["import", card, "--book", "Work"]).status == 0)
        #expect(box.carnetInProcess(["book", "list"]).lines == ["name\tcontacts\tdefault\tgroups", "Contacts\t1\tyes\t0", "Work\t2\t\t0"])
        let defaultImport = box.write("alan.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:alan\r\nFN:Alan Turing\r\nN:Turing;Alan;;;\r\nEND:VCARD\r\n")
        #expect(box.carnetInProcess(["import", defaultImport]).status == 0)
        #expect(box.carnetInProcess(["book", "list"]).lines.dropFirst().first == "Contacts\t2\tyes\t0")

        for arguments in [["list", "--book", "Nope"], ["add", "--name", "X", "--book", "Nope"], ["query", "ada", "--book", "Nope"],
                          ["birthdays", "--book", "Nope"], ["export", "--book", "Nope"], ["import", card, "--book", "Nope"]] {
            let run = box.carnetInProcess(arguments)
            #expect(run.status == 79 && run.stderr.contains("no address book is named \"Nope\""), "\(arguments): \(run)")
        }
        #expect(box.carnetInProcess(["list"]).lines.count == 5)  // nothing was added by the refused add
    }

    @Test func aBookWithContactsIsDeletedOnlyWhenToldAndComesBack() {
        box.carnetInProcess(["book", "add", "Work"])
        box.carnetInProcess(["add", "--book", "Work", "--name", "Grace Hopper"])
        box.carnetInProcess(["add", "--book", "Work", "--name", "Ada Byron"])
        let refused = box.carnetInProcess(["book", "delete", "Work"])
        #expect(refused.status == 64 && refused.stderr.contains("not deleting the address book Work and its 2 contacts without --force"), "\(refused)")
        #expect(box.carnetInProcess(["book", "list"]).lines.last == "Work\t2\t\t0")
        let deleted = box.carnetInProcess(["book", "delete", "Work", "--force"])
        #expect(deleted.stdout == "deleted address book Work and its 2 contacts (carnet undo brings it back)\n", "\(deleted)")
        #expect(box.carnetInProcess(["list"]).lines.count == 1)
        #expect(box.carnetInProcess(["history"]).lines[1].hasSuffix("\tdeleted the address book Work and its 2 contacts\t"))
        #expect(box.carnetInProcess(["undo"]).status == 0)
        #expect(box.carnetInProcess(["list", "--book", "Work"]).lines.count == 3)
    }

    /// A group is a card of its book, not a person: the book's count says the two apart, and a
    /// book holding only a group is not deleted without being told, as one holding people is not.
    @Test func aBooksGroupsAreCountedApartAndGoWithItOnlyWhenTold() {
        box.carnetInProcess(["book", "add", "Work"])
        box.carnetInProcess(["add", "--book", "Work", "--name", "Grace Hopper"])
        let card = box.write("team.vcf", "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:team\r\nKIND:group\r\nFN:Team\r\nEND:VCARD\r\n")
        #expect(box.carnetInProcess(["import", card, "--book", "Work"]).status == 0)
        #expect(box.carnetInProcess(["book", "list"]).lines.last == "Work\t1\t\t1")

        #expect(box.carnetInProcess(["delete", "1", "--yes"]).status == 0)
        let refused = box.carnetInProcess(["book", "delete", "Work"])
        #expect(refused.status == 64 && refused.stderr.contains("not deleting the address book Work and its 1 group without --force"), "\(refused)")
        let deleted = box.carnetInProcess(["book", "delete", "Work", "--force"])
        #expect(deleted.stdout == "deleted address book Work and its 1 group (carnet undo brings it back)\n", "\(deleted)")
        #expect(box.carnetInProcess(["undo"]).status == 0)
        #expect(box.carnetInProcess(["group", "list", "--book", "Work"]).stdout.contains("Team") || box.carnetInProcess(["group", "list"]).stdout.contains("Team"))
    }

    /// A script that types `answer` and Enter into the terminal once the question is there.
    func answering(_ answer: String) throws -> String {
        let path = box.write("answer-\(answer).sh", "#!/bin/sh\nsleep 1\nprintf '\(answer)\\n'\nsleep 1\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    @Test func onATerminalDeletingABookWithContactsAsks() throws {
        box.carnetInProcess(["book", "add", "Work"])
        box.carnetInProcess(["add", "--book", "Work", "--name", "Grace Hopper"])
        let no = box.carnetOnTerminal(["book", "delete", "Work"], feeder: try answering("n"))
        #expect(no.stdout.contains("Delete the address book Work and its 1 contact?") && no.status == 1, "\(no)")
        #expect(box.carnetInProcess(["book", "list"]).lines.last == "Work\t1\t\t0")
        let yes = box.carnetOnTerminal(["book", "delete", "Work"], feeder: try answering("y"))
        #expect(yes.status == 0 && yes.stdout.contains("deleted address book Work and its 1 contact"), "\(yes)")
    }

    @Test func moveKeepsTheUIDCopyMakesANewOneAndBothAreUndone() throws {
        box.carnetInProcess(["add", "--name", "Ada Lovelace", "--email", "ada@example.com"])
        box.carnetInProcess(["book", "add", "Work"])
        let moved = box.carnetInProcess(["move", "1", "--to", "work"])
        #expect(moved.stdout == "moved contact 1 to Work\n", "\(moved)")
        let copied = box.carnetInProcess(["copy", "1", "--to", "Contacts"])
        #expect(copied.stdout == "copied contact 1 to Contacts as contact 2\n", "\(copied)")
        let contacts = try #require(box.json(box.carnetInProcess(["export", "--format", "json"]).stdout) as? [[String: Any]])
        let uids = contacts.compactMap { $0["uid"] as? String }
        #expect(uids.count == 2 && Set(uids).count == 2)
        #expect(box.carnetInProcess(["list"]).lines.dropFirst() == ["1\tAda Lovelace\t\tada@example.com\t\t0\tWork", "2\tAda Lovelace\t\tada@example.com\t\t0\tContacts"])
        #expect(box.carnetInProcess(["show", "1"]).lines.dropFirst().first?.hasSuffix("Work") == true)
        let unknown = box.carnetInProcess(["move", "1", "--to", "Nope"])
        #expect(unknown.status == 79, "\(unknown)")
        #expect(box.carnetInProcess(["move", "9", "--to", "Work"]).status == 66)
        #expect(box.carnetInProcess(["undo"]).stdout == "undone 4: copied Ada Lovelace to Contacts\n")
        #expect(box.carnetInProcess(["undo"]).stdout == "undone 3: moved Ada Lovelace to Work\n")
        #expect(box.carnetInProcess(["list"]).lines.dropFirst() == ["1\tAda Lovelace\t\tada@example.com\t\t0\tContacts"])
        #expect(box.carnetInProcess(["redo"]).status == 0)
        #expect(box.carnetInProcess(["list", "--book", "Work"]).lines.count == 2)
    }
}
