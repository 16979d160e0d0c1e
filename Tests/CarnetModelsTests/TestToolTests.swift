import CarnetTestSupport
import Foundation
import TestNeeds
import Testing

/// How the tests find the programs they start, and what `CARNET_TEST_TOOLS` makes of a missing
/// one: skipped by default, failed when required, none started in the fast loop.
@Suite struct TestToolTests {
    @Test func aProgramIsFoundOnThePathBeforeUsrBin() throws {
        let dir = TempDirectory()
        let tool = dir.path("sqlite3")
        try "#!/bin/sh\n".write(toFile: tool, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool)
        #expect(TestTool.path("sqlite3", environment: ["PATH": "/nowhere:" + dir.url.path]) == tool)
        // Not on PATH: where `make deps` puts it, so a failure names that place.
        #expect(TestTool.path("carnet-no-such-program", environment: ["PATH": dir.url.path]) == "/usr/bin/carnet-no-such-program")
    }

    @Test func aMissingProgramSkipsUnlessRequiredAndNoneStartsNothing() throws {
        let dir = TempDirectory()
        let tool = dir.path("present")
        try "#!/bin/sh\n".write(toFile: tool, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool)
        let path = ["PATH": dir.url.path]
        #expect(TestTool.usable(["present"], environment: path))
        #expect(!TestTool.usable(["present", "carnet-no-such-program"], environment: path))
        #expect(TestTool.usable(["carnet-no-such-program"], environment: path.merging([TestTool.variable: "required"]) { $1 }))
        #expect(!TestTool.usable(["present"], environment: path.merging([TestTool.variable: "none"]) { $1 }))
    }
}
