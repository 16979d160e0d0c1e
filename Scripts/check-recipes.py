"""The edits of Scripts/check-recipes.sh: each recipe of docs/architecture.md, followed as written,
in the scratch copy given as the first argument. Each edit finds its place by what the recipe
names (a symbol, a file, a folder) and fails, naming what it looked for, when it is not there."""
import glob
import os
import re
import sys

COPY = sys.argv[1]


class RecipeBroken(Exception):
    pass


def path(relative):
    return os.path.join(COPY, relative)


def read(relative):
    with open(path(relative), encoding="utf-8") as f:
        return f.read()


def write(relative, text):
    os.makedirs(os.path.dirname(path(relative)), exist_ok=True)
    with open(path(relative), "w", encoding="utf-8") as f:
        f.write(text)
    print(f"  wrote {relative}")


def declaring(pattern, folder):
    """The one Swift file under `folder` whose text matches `pattern` (where a symbol lives)."""
    found = [f for f in sorted(glob.glob(path(folder) + "/**/*.swift", recursive=True)) if re.search(pattern, open(f, encoding="utf-8").read(), re.M)]
    if len(found) != 1:
        raise RecipeBroken(f"expected one file under {folder} matching /{pattern}/, found {len(found)}")
    return os.path.relpath(found[0], COPY)


def insert(relative, anchor, text, after=True, count=1):
    """Puts `text` after (or before) the first match of the regular expression `anchor`."""
    source = read(relative)
    match = re.search(anchor, source, re.M)
    if not match:
        raise RecipeBroken(f"{relative}: no /{anchor}/ to put the edit at")
    at = match.end() if after else match.start()
    write(relative, source[:at] + text + source[at:])


def add_a_field():
    # The draft's property, with its argument in ContactDraft.init.
    draft = declaring(r"^public struct ContactDraft\b", "Sources/CarnetModels")
    insert(draft, r"^    public var gender: String\n", "    /// A scratch field that make check-recipes adds.\n    public var scratch: String\n")
    insert(draft, r"gender: String = \"\", ", "scratch: String = \"\", ")
    insert(draft, r"^        self\.gender = gender\n", "        self.scratch = scratch\n")
    # Its Field case.
    field = declaring(r"^public enum Field\b", "Sources/CarnetModels")
    insert(field, r"^    case name, [a-z, ]*\bgender\b", ", scratch")
    # Its entry in ContactFields.all.
    fields = declaring(r"public static let all: \[ContactFieldSpec\]", "Sources/CarnetModels")
    insert(fields, r"^        line\(\.organization,",
           '        line(.scratch, "Scratch", \\.scratch, max: 100, csv: ["scratch"], "A scratch field that make check-recipes adds."),\n',
           after=False)
    # The migration: the next number, the column with the CHECK of a one-line field (pronouns'), every row written.
    numbers = [int(os.path.basename(m)[:4]) for m in glob.glob(path("migrations/[0-9][0-9][0-9][0-9]_*.sql"))]
    number = max(numbers) + 1
    pronouns = read("migrations/0017_pronouns.sql")
    column = re.search(r"^ALTER TABLE contacts ADD COLUMN pronouns .*?;\n", pronouns, re.M | re.S)
    if not column:
        raise RecipeBroken("migrations/0017_pronouns.sql has no ALTER TABLE to take the CHECK of a one-line field from")
    write(f"migrations/{number:04d}_scratch.sql",
          f"-- Carnet schema, version {number}: a scratch field that make check-recipes adds.\n"
          "-- Applied once, inside one transaction; never edited once released.\n\n"
          + column.group(0).replace("pronouns", "scratch") + "\nUPDATE contacts SET scratch = '';\n")
    # The guide's JSON output shows every key, in alphabetical order.
    cli = read("docs/cli.md")
    if cli.count('"role":"","suffix":""') != 1:
        raise RecipeBroken('docs/cli.md: the carnet list --json output has no "role" key just before "suffix" to put "scratch" between')
    write("docs/cli.md", cli.replace('"role":"","suffix":""', '"role":"","scratch":"","suffix":""'))
    # A test: the field goes into the file and comes back, and an edit of it undoes.
    write("Tests/CarnetStorageTests/ScratchFieldTests.swift", """import CarnetModels
import Testing
@testable import CarnetStorage

@Suite struct ScratchFieldTests {
    @Test func theFieldIsStoredAndItsEditUndoes() throws {
        let storage = try StorageController.inMemory()
        let ada = try storage.insertContact(ContactDraft(name: "Ada", scratch: "one"))
        #expect(try storage.contact(id: ada.id).scratch == "one")
        var draft = ada.draft
        draft.scratch = "two"
        try storage.updateContact(ada, with: draft)
        #expect(try storage.contact(id: ada.id).scratch == "two")
        _ = try storage.undo()
        #expect(try storage.contact(id: ada.id).scratch == "one")
        #expect(ContactDraft(name: "Ada", scratch: "a\\nb").issues().map(\\.field) == [.scratch])
    }
}
""")
    # The flag comes from the entry alone: nothing is written in Sources/carnet.
    write("Tests/CLITests/ScratchFieldCommandTests.swift", """import Testing

@Suite struct ScratchFieldCommandTests {
    let box = Sandbox()

    @Test func theFieldHasAFlagOfItsOwn() {
        let added = box.carnetInProcess(["add", "--name", "Ada", "--scratch", "one"])
        #expect(added.status == 0, "\\(added)")
        #expect(box.carnetInProcess(["show", "1"]).stdout.contains("one"))
        let help = box.carnetInProcess(["add", "--help"], environment: ["COLUMNS": "80"], useDB: false)
        #expect(help.stdout.contains("  --scratch <scratch>"), "\\(help)")
    }
}
""")


def add_a_list_field():
    # The draft's [LabeledValue] property.
    draft = declaring(r"^public struct ContactDraft\b", "Sources/CarnetModels")
    insert(draft, r"^    public var members: \[String\] = \[\]\n",
           "    /// A scratch list that make check-recipes adds.\n    public var scratchTags: [LabeledValue] = []\n")
    # Its Field case.
    field = declaring(r"^public enum Field\b", "Sources/CarnetModels")
    insert(field, r"^    case email, [a-z, ]*\bphoto\b", ", scratchtag")
    # Its entry, made by labeled(…), with its kind and a vCard property whose parameter holds the label.
    fields = declaring(r"public static let all: \[ContactFieldSpec\]", "Sources/CarnetModels")
    insert(fields, r"^        ContactFieldSpec\(\n            field: \.photo,",
           '        labeled(.scratchtag, "Scratch tags", key: "scratchtags", \\.scratchTags, kind: EntryKind("scratchtag", knownTypes: ["big", "small"]),\n'
           '                max: 100, search: .note, section: .other, vCard: VCardMapping("X-SCRATCH-TAG", labelParameter: "SIZE"),\n'
           '                "A scratch list that make check-recipes adds: big:one.") { _ in nil },\n',
           after=False)
    # The migration: its table, a copy of the first table of schema 25's with the name changed.
    numbers = [int(os.path.basename(m)[:4]) for m in glob.glob(path("migrations/[0-9][0-9][0-9][0-9]_*.sql"))]
    number = max(numbers) + 1
    lists = read("migrations/0025_expertise_hobbies_interests.sql")
    table = re.search(r"^CREATE TABLE contact_expertise \(.*?^CREATE TRIGGER contact_expertise_outdate_search_delete .*?\n", lists, re.M | re.S)
    if not table:
        raise RecipeBroken("migrations/0025_expertise_hobbies_interests.sql has no contact_expertise table, index and triggers to copy")
    write(f"migrations/{number:04d}_scratch_tags.sql",
          f"-- Carnet schema, version {number}: a scratch list that make check-recipes adds.\n"
          "-- Applied once, inside one transaction; never edited once released.\n\n"
          + table.group(0).replace("contact_expertise", "contact_scratchtags")
          .replace("value_one_line_trimmed_at_most_200", "value_one_line_trimmed_at_most_100").replace("BETWEEN 1 AND 200", "BETWEEN 1 AND 100"))
    # The guide's JSON output shows every key, in alphabetical order.
    cli = read("docs/cli.md")
    anchor = re.search(r'"role":"",("scratch":"",)?"suffix":""', cli)
    if not anchor or cli.count(anchor.group(0)) != 1:
        raise RecipeBroken('docs/cli.md: the carnet list --json output has no "role" key before "suffix" to put "scratchtags" after')
    write("docs/cli.md", cli.replace(anchor.group(0), anchor.group(0).replace('"suffix":""', '"scratchtags":[],"suffix":""')))
    # A test: the list goes into its table and comes back, is searched, and an edit of it undoes.
    write("Tests/CarnetStorageTests/ScratchListTests.swift", """import CarnetModels
import Testing
@testable import CarnetStorage

@Suite struct ScratchListTests {
    @Test func theListIsStoredSearchedAndItsEditUndoes() throws {
        let storage = try StorageController.inMemory()
        var draft = ContactDraft(name: "Ada")
        draft.scratchTags = [LabeledValue("zebrawood", label: "BIG"), LabeledValue("two", preferred: true)]
        let ada = try storage.insertContact(draft)
        #expect(try storage.contact(id: ada.id).scratchTags == [LabeledValue("zebrawood", label: "big"), LabeledValue("two", preferred: true)])
        #expect(try storage.contactCount(matching: "zebraw") == 1)
        var edited = ada.draft
        edited.scratchTags.remove(at: 0)
        try storage.updateContact(ada, with: edited)
        #expect(try storage.contact(id: ada.id).scratchTags.map(\\.value) == ["two"])
        _ = try storage.undo()
        #expect(try storage.contact(id: ada.id).scratchTags.count == 2)
    }
}
""")
    # The flags come from the entry alone, and the vCard writes the label as the parameter.
    write("Tests/CLITests/ScratchListCommandTests.swift", """import Testing

@Suite struct ScratchListCommandTests {
    let box = Sandbox()

    @Test func theListHasFlagsOfItsOwnAndAVCardProperty() {
        let added = box.carnetInProcess(["add", "--name", "Ada", "--scratchtag", "Big:one", "--scratchtag", "two"])
        #expect(added.status == 0, "\\(added)")
        #expect(box.carnetInProcess(["edit", "1", "--remove-scratchtag", "two"]).status == 0)
        #expect(box.carnetInProcess(["export", "--format", "vcf"]).stdout.contains("\\r\\nX-SCRATCH-TAG;SIZE=big:one\\r\\n"))
    }
}
""")


def add_a_command():
    write("Sources/carnet/Commands/Contacts/ScratchCommand.swift", """import ArgumentParser
import CarnetState

/// A scratch command that make check-recipes adds: how many contacts there are.
struct ScratchCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "scratch", abstract: "A scratch command that make check-recipes adds.",
        discussion: \"\"\"
            EXAMPLES:
              carnet scratch
            \"\"\")

    @OptionGroup var database: DatabaseOption

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        terminal.print("\\(try state.contactCount(matching: "")) contacts")
    }
}
""")
    insert("Sources/carnet/Carnet.swift", r"subcommands: \[\s*", "ScratchCommand.self, ")
    insert("Sources/carnet/Interactive/InteractiveVerbs.swift", r"static let anywhere: \[InteractiveVerb\] = \[\n",
           '        InteractiveVerb(["scratch"], usage: "scratch") { s, _, _ in s.terminal.print("scratch") },\n')
    insert("docs/cli.md", r"^carnet favorites\n", "carnet scratch                           # a scratch command that make check-recipes adds\n")
    write("Tests/CLITests/ScratchCommandTests.swift", """import Testing

@Suite struct ScratchCommandTests {
    @Test func itCountsTheContacts() {
        let box = Sandbox()
        box.carnetInProcess(["add", "--name", "Ada Lovelace"])
        let run = box.carnetInProcess(["scratch"])
        #expect(run.status == 0 && run.stdout == "1 contacts\\n", "\\(run)")
        #expect(box.carnetInProcess(["interactive", "--line"], stdin: "scratch\\nquit\\n").stdout.contains("scratch"))
    }
}
""")


def add_a_file_format():
    insert("Sources/CarnetInterchange/InterchangeFormat.swift", r"^    case ldif\n",
           "    /// A scratch format that make check-recipes adds: one name per line (`.scratch`).\n    case scratch\n")
    insert("Sources/CarnetInterchange/InterchangeFormat.swift", r'^        case "ldif", "ldi": self = \.ldif\n',
           '        case "scratch": self = .scratch\n')
    write("Sources/CarnetInterchange/Scratch.swift", """import CarnetModels
import Foundation

/// The reader of the scratch format: a contact per line, the line its name.
public struct ScratchReader: LineConsumingReader {
    var splitter = LineSplitter()
    private var line = 0

    public init() {}

    mutating func consume(_ raw: [UInt8]) throws(InterchangeError) -> InterchangeRecord? {
        line += 1
        let name = String(decoding: raw, as: UTF8.self)
        return name.isEmpty ? nil : InterchangeRecord(draft: ContactDraft(name: name), line: line)
    }

    mutating func checkComplete() throws(InterchangeError) {}
}

/// The writer of the scratch format: each person's name on a line of its own.
public struct ScratchFileWriter: InterchangeWriter {
    public init() {}

    public func entry(_ contact: Contact, favorite: Bool) -> String? {
        contact.kind == .group ? nil : contact.name + "\\n"
    }
}
""")
    insert("Sources/CarnetInterchange/InterchangeWriter.swift", r"^        case \.ldif: LDIFFileWriter\(groupMembers: groupMembers\)\n",
           "        case .scratch: ScratchFileWriter()\n")
    insert("Sources/carnet/Commands/Interchange/RecordStream.swift", r"^        case \.json: reader = ContactJSONReader\(\)\n",
           "        case .scratch: reader = ScratchReader()\n")
    write("Tests/CarnetInterchangeTests/ScratchFormatTests.swift", """import CarnetInterchange
import CarnetModels
import Foundation
import Testing

@Suite struct ScratchFormatTests {
    @Test func aFileRoundTrips() throws {
        #expect(InterchangeFormat(fileExtension: ".scratch") == .scratch)
        var writer = InterchangeFormat.scratch.writer()
        let ada = Contact(id: 1, uid: "u1", draft: ContactDraft(name: "Ada Lovelace"), createdAt: Date(), updatedAt: Date(), version: 1)
        let text = writer.header + (try writer.entry(ada, favorite: false) ?? "") + writer.footer()
        #expect(text == "Ada Lovelace\\n")
        #expect(try ScratchReader.parse(text).map(\\.draft.name) == ["Ada Lovelace"])
    }
}
""")


def add_a_server_quirk():
    profile = "Sources/CarnetSync/ServerProfile.swift"
    # A named property with the standard value; a server that differs sets it in its profile.
    insert(profile, r"^    var storesDuplicateUIDs = false\n",
           "    /// A scratch difference that make check-recipes adds: no server has it.\n    var hasScratchQuirk = false\n")
    server = "Support/ScriptedDAVServer/ScriptedDAVServer.swift"
    insert(server, r"^        case truncatesSyncCollection\(pageSize: Int\)\n",
           "        /// A scratch quirk that make check-recipes adds.\n        case scratch\n")
    insert(server, r'^                return \("sync_page_size", pageSize\)\n', '            case .scratch:\n                return ("scratch", true)\n')
    write("Tests/CarnetSyncTests/ScratchQuirkTests.swift", """import ScriptedDAVServer
import TestNeeds
import Testing
@testable import CarnetSync

@Suite(.needs("python3")) struct ScratchQuirkTests {
    @Test func theQuirkHasANameAndTheScriptedServerAnswersWithIt() throws {
        #expect(!ServerProfile.standard.hasScratchQuirk && !ServerProfile.xandikos.hasScratchQuirk)
        let server = try ScriptedDAVServer(quirks: [.scratch])
        server.stop()
    }
}
""")


failed = False
for recipe in [add_a_field, add_a_list_field, add_a_command, add_a_file_format, add_a_server_quirk]:
    print(recipe.__name__.replace("_", "-") + ":")
    try:
        recipe()
    except (RecipeBroken, OSError) as error:
        print(f"  CANNOT FOLLOW: {error}")
        failed = True
sys.exit(1 if failed else 0)
