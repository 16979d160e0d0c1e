import Foundation
import Testing

/// A group's id given to the commands for contacts: a group shares the contacts' ids (it is a
/// card), so each command either does to the group what a user means by it or says it is a
/// group and names the group command to use; none treats it as a person.
@Suite struct GroupIDTests {
    let box = Sandbox()

    init() {
        let file = box.write("groups.vcf", GroupTests.groupsFile)
        let run = box.carnetInProcess(["import", file])
        #expect(run.status == 0, "\(run)")
    }

    /// The id of the group named `name`, from `carnet group list`.
    func groupID(_ name: String) -> String {
        let line = box.carnetInProcess(["group", "list"]).lines.first { $0.split(separator: "\t")[1] == name } ?? ""
        return String(line.split(separator: "\t").first ?? "")
    }

    /// The id of the one contact a search finds.
    func contactID(_ search: String) -> String {
        String(box.carnetInProcess(["list", "--search", search]).lines.dropFirst().first?.split(separator: "\t").first ?? "")
    }

    func members(_ group: String) -> [String] {
        let json = box.json(box.carnetInProcess(["group", "show", group, "--json"]).stdout) as? [String: Any]
        return (json?["members"] as? [[String: Any]])?.compactMap { $0["uid"] as? String } ?? []
    }

    @Test func showOnAGroupsIdShowsTheGroupAndItsMembers() throws {
        let family = groupID("Family")
        let shown = box.carnetInProcess(["show", family])
        #expect(shown.status == 0, "\(shown)")
        #expect(shown.stdout.hasPrefix("Family  (group \(family), uid urn:uuid:family)\n"), "\(shown)")
        #expect(shown.stdout.contains("Ada Lovelace") && shown.stdout.contains("Grace Hopper"), "\(shown)")
        #expect(!shown.stdout.contains("Given") && !shown.stdout.contains("Family name"), "\(shown)")
        let json = try #require(box.json(box.carnetInProcess(["show", family, "--json"]).stdout) as? [String: Any])
        #expect(json["name"] as? String == "Family" && (json["members"] as? [Any])?.count == 2)
        #expect(json["given"] == nil && json["emails"] == nil)
    }

    /// `carnet delete` of a group's id deletes the group, as `carnet group delete` does: it says
    /// it was a group whose members stay, and `carnet undo` brings it back.
    @Test func deleteOnAGroupsIdDeletesTheGroupAndSaysSo() {
        let family = groupID("Family")
        // From a script it needs --yes, as for a contact, and the refusal says what it is.
        box.expectRefused(["delete", family], 64, mentioning: "not deleting group \(family) (Family) without --yes")
        let run = box.carnetInProcess(["delete", family, "--yes"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "deleted group \(family) (Family); its 2 members stay\n", "\(run)")
        #expect(box.carnetInProcess(["group", "show", "Family"]).status == 66)
        #expect(box.carnetInProcess(["list"]).lines.count == 3)  // the header and both members
        let history = box.carnetInProcess(["history"])
        #expect(history.stdout.contains("Family"), "\(history)")
        #expect(box.carnetInProcess(["undo"]).status == 0)
        #expect(members("Family").count == 2)
    }

    @Test func deleteOnATerminalAsksAboutTheGroup() {
        let family = groupID("Family")
        let run = box.carnetOnTerminal(["delete", family], feeder: box.script("type.sh", "sleep 0.5; printf 'n\\n'; sleep 0.5\n"))
        #expect(run.stdout.contains("Delete group \(family), Family? Its 2 members stay."), "\(run)")
        #expect(run.status == 1 && run.stdout.contains("cancelled; group \(family) kept"), "\(run)")
        #expect(members("Family").count == 2)
    }

    /// `carnet edit` of a group's id opens no contact draft (which would read "Climbing club"
    /// as a given and a family name): it is refused, naming the group commands, with any flags,
    /// with none, and with --editor (no editor is started).
    @Test func editOnAGroupsIdIsRefusedNamingTheGroupCommands() {
        let club = groupID("Climbing club")
        for arguments in [["edit", club, "--name", "Climbers"], ["edit", club], ["edit", club, "--editor"], ["edit", club, "--email", "club@example.com"]] {
            box.expectRefused(arguments, 65, mentioning: "\(club) is a group (Climbing club), not a contact")
            box.expectRefused(arguments, 65, mentioning: "carnet group rename \(club)")
            box.expectRefused(arguments, 65, mentioning: "carnet group add-member \(club) ID… and remove-member change its members, carnet group show \(club) shows them")
        }
        let editor = box.script("editor.sh", "echo edited >> \(Sandbox.shellQuoted(box.path("editor-ran")))\n")
        #expect(box.carnetInProcess(["edit", club, "--editor"], environment: ["EDITOR": editor]).status == 65)
        #expect(!FileManager.default.fileExists(atPath: box.path("editor-ran")))
    }

    @Test func favoriteAndUnfavoriteOnAGroupsIdAreRefused() {
        let club = groupID("Climbing club")
        box.expectRefused(["favorite", club], 65, mentioning: "\(club) is a group (Climbing club), not a contact")
        box.expectRefused(["unfavorite", club], 65, mentioning: "\(club) is a group (Climbing club), not a contact")
        // A contact that is no favorite is still "not found" as a favorite.
        box.expectRefused(["unfavorite", contactID("ada")], 66, mentioning: "no favorite has id")
    }

    @Test func addEmailToAGroupsIdIsRefused() {
        let club = groupID("Climbing club")
        let message = "From: Linus <linus@example.com>\nSubject: hi\n\nhello\n"
        let before = box.snapshot()
        let run = box.carnetInProcess(["add-email", "--to-contact", club], stdin: message)
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr.contains("\(club) is a group (Climbing club), not a contact"), "\(run)")
        #expect(box.snapshot() == before)
    }

    @Test func mergeRefusesAGroupEitherWay() {
        let family = groupID("Family"), ada = contactID("ada")
        box.expectRefused(["merge", ada, family], 65, mentioning: "\(family) is a group (Family), not a contact")
        box.expectRefused(["merge", family, ada], 65, mentioning: "\(family) is a group (Family), not a contact")
        box.expectRefused(["merge", "--different", ada, family], 65, mentioning: "\(family) is a group (Family), not a contact")
    }

    /// A group card lives in a book as a contact does (each book is one collection of the
    /// sync), so move and copy take it there, saying it is a group; a copy has its own UID and
    /// the same members.
    @Test func moveAndCopyTakeAGroupToAnotherBook() throws {
        let family = groupID("Family")
        #expect(box.carnetInProcess(["book", "add", "Work"]).status == 0)
        let moved = box.carnetInProcess(["move", family, "--to", "Work"])
        #expect(moved.status == 0 && moved.stdout == "moved group \(family) (Family) to Work\n", "\(moved)")
        let copied = box.carnetInProcess(["copy", family, "--to", "Contacts"])
        #expect(copied.status == 0, "\(copied)")
        let copy = try #require(copied.stdout.split(separator: " ").last.map { String($0.prefix { $0.isNumber }) })
        #expect(copied.stdout == "copied group \(family) (Family) to Contacts as group \(copy)\n", "\(copied)")
        #expect(members(copy) == members(family) && members(copy).count == 2)
        let json = try #require(box.json(box.carnetInProcess(["group", "show", copy, "--json"]).stdout) as? [String: Any])
        #expect(json["uid"] as? String != "urn:uuid:family")
        // Still two people and now three groups.
        let info = box.carnetInProcess(["db", "info"])
        #expect(info.stdout.contains("contacts:     2") && info.stdout.contains("groups:       3"), "\(info)")
    }
}
