import Foundation
import Testing

/// `carnet interactive` as a new user meets it: unsaved drafts, deletes, ids, counts, conflicts,
/// from a script (piped stdin) and on a terminal (a pseudo-terminal from `script`).
@Suite struct InteractiveTests {
    let box = Sandbox()

    init() {
        box.carnet(["sample"])
    }

    /// Types each step into a pseudo-terminal after a pause, as a person would (a control
    /// character sent with the text before it could reach the terminal before carnet reads).
    func terminalSession(_ steps: [String]) -> Run {
        let typing = steps.map { "sleep 0.3; printf '\($0)'" }.joined(separator: "; ")
        let feeder = box.script("type.sh", typing + "; sleep 1\n")
        let command = "\"\(Sandbox.binary)\" interactive --db \"\(box.db)\""
        let run = box.run("/bin/sh", ["-c", "\"\(feeder)\" | /usr/bin/script -qec '\(command)' /dev/null"])
        return Run(status: run.status, stdout: run.stdout.replacingOccurrences(of: "\r\n", with: "\n"), stderr: run.stderr)
    }

    @Test func onATerminalArrowsEditTheLineInsteadOfTypingEscapes() {
        // "ope 2", two steps left, "n": "open 2".
        let run = terminalSession(["ope 2\\033[D\\033[Dn\\n", "quit\\n"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("── Contact ──\nTyler Porter"), "\(run)")
        #expect(!run.stdout.contains("unknown command"), "\(run)")
    }
}
