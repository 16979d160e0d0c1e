import Foundation
import TestNeeds
import Testing

/// `carnet edit --editor` on a real terminal, with an editor that takes the terminal as vim does
/// (it sets the terminal up, so a process outside the foreground group is stopped for it); and
/// the sync's password command, which may ask through pinentry-curses the same way.
@Suite(.needs("script", "timeout")) struct EditorTerminalTests {
    let box = Sandbox()

    /// Runs `carnet ARGS --db DB` on a pseudo-terminal (`script`) as a shell's prompt would, in
    /// the terminal's foreground group (`exec`: a wrapper such as `timeout` makes a group of its
    /// own, in the background, where any editor is stopped as vim is under `timeout vim`); killed
    /// with `script` after 20 s if it hangs, which hangs up the terminal for everything on it.
    /// TMPDIR is a directory of the test's, to see what the run leaves there.
    func onTerminal(_ arguments: [String], editor: String, tmp: String) -> Run {
        let command = "exec " + ([Sandbox.binary] + arguments + ["--db", box.db]).map(Sandbox.shellQuoted).joined(separator: " ")
        return box.run(TestTool.path("timeout"), ["-s", "KILL", "20", TestTool.path("script"), "-qec", command, "/dev/null"],
                       environment: ["EDITOR": editor, "VISUAL": "", "TMPDIR": tmp, "SHELL": "/bin/sh"])
    }

    @Test func anEditorThatTakesTheTerminalRunsInTheForegroundAndTheEditIsSaved() throws {
        box.carnetInProcess(["add", "--name", "Tyler Porter"])
        let groups = box.path("groups")
        let editor = box.script("editor.sh", """
            stty raw -echo < /dev/tty
            ps -o pgid= -o tpgid= -p $$ > "\(groups)"
            sed -i 's/^name:.*/name: Tyler Edited/' "$1"
            stty sane < /dev/tty
            """)
        let tmp = box.path("tmp")
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        let run = onTerminal(["edit", "1", "--editor"], editor: editor, tmp: tmp)
        #expect(run.status == 0, "\(run)")
        let ids = (try? String(contentsOfFile: groups, encoding: .utf8))?.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(ids?.count == 2 && ids?[0] == ids?[1], "the editor's group is the terminal's foreground group: \(ids ?? [])")
        #expect(box.carnetInProcess(["show", "1"]).stdout.contains("Tyler Edited"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp) == [])
    }

    /// Ctrl-C while the editor runs is the editor's: carnet stays to say the contact is
    /// unchanged and removes the file that held it.
    @Test func controlCInTheEditorLeavesNoFileBehind() throws {
        box.carnetInProcess(["add", "--name", "Tyler Porter", "--note", "private"])
        let before = box.snapshot()
        // What the terminal does on Ctrl-C: SIGINT to its foreground process group.
        let editor = box.script("editor.sh", """
            stty raw -echo < /dev/tty
            kill -INT -$(ps -o tpgid= -p $$ | tr -d ' ')
            sleep 5
            """)
        let tmp = box.path("tmp")
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        let run = onTerminal(["edit", "1", "--editor"], editor: editor, tmp: tmp)
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.contains("contact unchanged"), "\(run)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp) == [])
        #expect(box.snapshot() == before)
    }

    /// `pass` asking through pinentry-curses sets the terminal up too: the command runs in the
    /// foreground, and what it prints is the password (the server here refuses connections, so
    /// the setup then fails on that, not on the password).
    @Test func aPasswordCommandThatTakesTheTerminalRunsInTheForeground() throws {
        let groups = box.path("groups")
        let command = box.script("pinentry.sh", """
            stty raw -echo < /dev/tty
            ps -o pgid= -o tpgid= -p $$ > "\(groups)"
            stty sane < /dev/tty
            echo secret
            """)
        let tmp = box.path("tmp")
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        let run = onTerminal(["sync", "setup", "http://127.0.0.1:1/", "--user", "ada", "--password-command", command], editor: "true", tmp: tmp)
        #expect(run.status != 137, "\(run)")
        #expect(!run.stdout.contains("password command"), "the password was read: \(run)")
        let ids = (try? String(contentsOfFile: groups, encoding: .utf8))?.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(ids?.count == 2 && ids?[0] == ids?[1], "the command's group is the terminal's foreground group: \(ids ?? [])")
    }
}
