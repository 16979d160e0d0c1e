import CarnetModels
import CarnetSync
import CarnetTestSupport
import DAVTestServer
import Foundation
import TestNeeds
import Testing

/// Carnet and another real client on one address book: khard writes cards in a vdir, vdirsyncer
/// syncs that vdir with the server, Carnet syncs with the same server.
@Suite(.needs("radicale", "xandikos", "vdirsyncer", "khard")) struct OtherClientTests {
    static let vdirsyncer = TestTool.path("vdirsyncer"), khard = TestTool.path("khard")

    /// A vdir, khard's address book over it, and vdirsyncer's pair of it with the server's collection.
    struct OtherClient {
        let dir: TempDirectory
        var vdir: String { dir.path("vdir") }

        /// `version`: the vCard version khard writes its new cards in.
        init(_ fixture: SyncFixture, version: String = "3.0") throws {
            dir = TempDirectory()
            try FileManager.default.createDirectory(atPath: dir.path("vdir"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: dir.path("status"), withIntermediateDirectories: true)
            try """
                [general]
                status_path = "\(dir.path("status"))/"

                [pair contacts]
                a = "local"
                b = "remote"
                collections = null

                [storage local]
                type = "filesystem"
                path = "\(dir.path("vdir"))/"
                fileext = ".vcf"

                [storage remote]
                type = "carddav"
                url = "\(fixture.collection.absoluteString)"
                username = "\(SyncFixture.user)"
                password = "\(SyncFixture.password)"

                """.write(toFile: dir.path("vdirsyncer.conf"), atomically: true, encoding: .utf8)
            // X-ORBIT is one of khard's "private objects": a property Carnet has no field for.
            try """
                [addressbooks]
                [[book]]
                path = \(dir.path("vdir"))/

                [general]
                editor = /bin/true
                merge_editor = /bin/true

                [vcard]
                preferred_version = \(version)
                private_objects = Orbit,

                """.write(toFile: dir.path("khard.conf"), atomically: true, encoding: .utf8)
            _ = try run(OtherClientTests.vdirsyncer, ["-c", dir.path("vdirsyncer.conf"), "discover"])
        }

        func sync() throws { _ = try run(OtherClientTests.vdirsyncer, ["-c", dir.path("vdirsyncer.conf"), "sync"]) }

        func khard(_ arguments: [String], stdin: String? = nil) throws -> String {
            try run(OtherClientTests.khard, ["-c", dir.path("khard.conf")] + arguments, stdin: stdin)
        }

        /// The vdir's one card file.
        func card() throws -> (name: String, text: String) {
            let names = try FileManager.default.contentsOfDirectory(atPath: vdir).filter { $0.hasSuffix(".vcf") }
            let name = try #require(names.count == 1 ? names.first : nil, "\(names)")
            return (name, try String(contentsOfFile: vdir + "/" + name, encoding: .utf8))
        }

        /// Runs a tool with HOME in the temp folder; its output, or a failure naming what it said.
        func run(_ tool: String, _ arguments: [String], stdin: String? = nil) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
            process.environment = ["HOME": dir.path(""), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
            let output = Pipe(), input = Pipe()
            process.standardOutput = output
            process.standardError = output
            process.standardInput = input
            try process.run()
            input.fileHandleForWriting.write(Data((stdin ?? "").utf8))
            try input.fileHandleForWriting.close()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw DAVTestServerFailure("\(tool) \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(text.suffix(800))")
            }
            return text
        }
    }

    /// A card's property lines, line ends and folding aside.
    static func lines(_ card: String) -> [String] {
        card.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n ", with: "")
            .split(separator: "\n").map(String.init)
    }

    @Test(arguments: ServerKind.allCases, ["3.0", "4.0"])
    func khardsEditsReachCarnetAndCarnetsEditChangesNothingElse(_ server: ServerKind, _ version: String) throws {
        let fixture = try SyncFixture(server)
        let carnet = try fixture.book("a")
        try carnet.sync()  // makes the address book
        let other = try OtherClient(fixture, version: version)

        // khard adds a contact; vdirsyncer sends it; Carnet has it.
        let created = "Formatted name: Alan Turing\nFirst name: Alan\nLast name: Turing\nTitle: Mathematician\n"
            + "Phone:\n    cell: +44 20 7946 0001\nEmail:\n    home: alan@khard.example\nNote: Bletchley\n"
        _ = try other.khard(["new", "-a", "book"], stdin: created)
        try other.sync()
        #expect(try carnet.sync().added == 1)
        let uid = try carnet.contact(named: "Alan Turing").uid
        #expect(try other.card().name == uid + ".vcf")

        // khard edits a field and sets a property Carnet does not model; both reach Carnet.
        let yaml = try other.khard(["show", "--format", "yaml", "-u", uid])
        let edited = yaml.replacingOccurrences(of: "\nTitle: Mathematician\n", with: "\nTitle: Cryptanalyst\n")
            .replacingOccurrences(of: "\n    Orbit:\n", with: "\n    Orbit: Friendship 7\n")
        #expect(edited != yaml)
        try edited.write(toFile: other.dir.path("edit.yaml"), atomically: true, encoding: .utf8)
        // khard asks before it saves; the answer comes on its standard input.
        _ = try other.khard(["edit", "-u", uid, "-i", other.dir.path("edit.yaml")], stdin: "y\n")
        #expect(try other.card().text.contains("X-ORBIT:Friendship 7"))
        try other.sync()
        let down = try carnet.sync()
        #expect(down.updated == 1, "\(down)")
        let alan = try carnet.contact(named: "Alan Turing")
        #expect(alan.title == "Cryptanalyst")
        #expect(alan.draft.extras == ["X-ORBIT:Friendship 7"])

        // Carnet changes another field; vdirsyncer brings it to the vdir, and nothing else in
        // the card changes, not even the order of its lines, but what Carnet writes on every
        // card it sends (PRODID, REV).
        let before = try other.card()
        try carnet.edit("Alan Turing") { $0.phones = [LabeledValue("+44 20 7946 0002", label: "cell")] }
        #expect(try carnet.sync().uploaded == 1)
        try other.sync()
        let after = try other.card()
        #expect(after.name == before.name)
        let rewritten: Set<String> = ["PRODID", "REV"]
        func kept(_ card: String) -> [String] {
            Self.lines(card).filter { line in !rewritten.contains(where: { line.hasPrefix($0 + ":") }) && !line.hasPrefix("TEL") }
        }
        #expect(kept(after.text) == kept(before.text), "before:\n\(before.text)\nafter:\n\(after.text)")
        // The edited line itself in Carnet's form of the card's version (4.0 adds VALUE=text).
        #expect(Self.lines(after.text).contains { $0.hasPrefix("TEL;") && $0.contains("TYPE=cell") && $0.hasSuffix(":+44 20 7946 0002") })
        #expect(Self.lines(after.text).contains("VERSION:\(version)"))
        #expect(!Self.lines(after.text).contains { $0.hasPrefix("TEL") && $0.hasSuffix("0001") })
        // vdirsyncer and khard agree: the edit is there, the rest as khard left it.
        let shown = try other.khard(["show", "-u", uid])
        #expect(shown.contains("+44 20 7946 0002") && shown.contains("Cryptanalyst") && shown.contains("Friendship 7"))
    }
}
