import Foundation
import Testing

/// Running `carnet` in-process (a captured console) is a stand-in for running the binary only if
/// both give the same bytes and status: this checks it for reading, writing, failing and help.
@Suite struct InProcessTests {
    @Test func inProcessRunsMatchProcessRuns() {
        let processBox = Sandbox(), inProcessBox = Sandbox()
        let csv = "name,email\nAda Lovelace,ada@example.com\nBad Row,not-an-email\n"
        let steps: [(arguments: [String], stdin: String?, useDB: Bool)] = [
            ([], nil, true),
            (["add", "--name", "Madison Thompson", "--email", "madison@example.com"], nil, true),
            (["add", "--name", ""], nil, true),
            (["import", "-", "--format", "csv", "--skip-invalid"], csv, true),
            (["list"], nil, true),
            (["list", "--json"], nil, true),
            (["show", "1"], nil, true),
            (["show", "99"], nil, true),
            (["favorite", "1"], nil, true),
            (["export", "--format", "vcf"], nil, true),
            (["quote", "list"], nil, true),
            (["delete", "2"], "y\n", true),
            (["database", "info"], nil, true),
            (["no-such-command"], nil, true),
            (["--help"], nil, false),
            (["list", "--help"], nil, false),
            (["--version"], nil, false),
        ]
        for step in steps {
            let byProcess = processBox.carnet(step.arguments, stdin: step.stdin, useDB: step.useDB)
            let inProcess = inProcessBox.carnetInProcess(step.arguments, stdin: step.stdin, useDB: step.useDB)
            // The sandboxes' paths, new contacts' random UIDs and the clock may differ; nothing else.
            let same = { (text: String, box: Sandbox) in
                text.replacingOccurrences(of: box.dir.path, with: "SANDBOX")
                    .replacing(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/, with: "UUID")
                    .replacing(/[0-9]{8}T[0-9]{6}Z|[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}(\.[0-9]+)?Z/, with: "TIME")
            }
            #expect(inProcess.status == byProcess.status, "\(step.arguments)")
            #expect(same(inProcess.stdout, inProcessBox) == same(byProcess.stdout, processBox), "\(step.arguments)")
            #expect(same(inProcess.stderr, inProcessBox) == same(byProcess.stderr, processBox), "\(step.arguments)")
        }
    }
}
