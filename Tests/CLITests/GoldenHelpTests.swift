import Foundation
import Testing

/// The help of a few commands, byte for byte, at 80 columns: a change to a command's flags,
/// arguments or words shows up as a diff of its file under `Golden/`, to be read in review.
/// After an intended change, rewrite the files with `CARNET_UPDATE_GOLDEN=1` and read the diff.
@Suite struct GoldenHelpTests {
    let box = Sandbox()

    static let commands: [[String]] = [
        ["add"], ["group", "add"], ["group", "remove-member"], ["book", "rename"], ["db", "info"], ["quote", "use"],
        ["sync", "status"],
    ]

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    @Test(arguments: commands)
    func helpIsAsRecorded(command: [String]) throws {
        let run = box.carnetInProcess(command + ["--help"], environment: ["COLUMNS": "80"], useDB: false)
        #expect(run.status == 0, "\(run)")
        let file = Self.folder.appendingPathComponent(command.joined(separator: "-") + ".txt")
        if ProcessInfo.processInfo.environment["CARNET_UPDATE_GOLDEN"] == "1" {
            try run.stdout.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let recorded = try String(contentsOf: file, encoding: .utf8)
        #expect(run.stdout == recorded, "carnet \(command.joined(separator: " ")) --help differs from \(file.path)")
    }
}
