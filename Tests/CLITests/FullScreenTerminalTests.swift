import Foundation
import TestNeeds
import Testing

/// The full-screen interface on a real pseudo-terminal: the built `carnet interactive` runs in
/// tmux, keys are typed with `send-keys`, and what a person would see is read with
/// `capture-pane`, tmux being the terminal emulator.
@Suite(.needs("tmux", "python3")) struct FullScreenTerminalTests {
    let box = Sandbox()

    /// A tmux server of the test's own (its socket in the sandbox), one window of `columns` ×
    /// `rows` running `command` under `sh`.
    final class Tmux {
        let socket: String
        let box: Sandbox

        init(_ box: Sandbox, command: String, columns: Int = 80, rows: Int = 24, environment: [String: String] = [:]) throws {
            self.box = box
            socket = box.path("tmux.sock")
            var arguments = ["-S", socket, "-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "\(columns)", "-y", "\(rows)"]
            for (key, value) in environment.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(key)=\(value)"] }
            arguments.append(command)
            // The server it starts as a daemon would keep whatever descriptors it inherits open
            // (the wait for the run would then never end): it is started with only the standard
            // three, pointed at /dev/null. And with no signal blocked, as from a person's shell:
            // this test process's threads block them, and a child inherits the mask.
            let script = "import signal, subprocess, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
                + "sys.exit(subprocess.run(sys.argv[1:], close_fds=True, stdin=subprocess.DEVNULL, "
                + "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode)"
            let run = box.run(TestTool.path("python3"), ["-c", script, TestTool.path("tmux")] + arguments)
            try #require(run.status == 0, "\(run)")
        }

        deinit { _ = box.run(TestTool.path("tmux"), ["-S", socket, "kill-server"]) }

        @discardableResult
        func tmux(_ arguments: [String]) -> Run { box.run(TestTool.path("tmux"), ["-S", socket] + arguments) }

        /// Keys by tmux's names (`Enter`, `C-c`, `PageDown`) or single characters.
        func keys(_ keys: String...) { tmux(["send-keys", "-t", "t"] + keys) }
        /// Text typed as it is.
        func type(_ text: String) { tmux(["send-keys", "-t", "t", "-l", text]) }

        var screen: [String] { tmux(["capture-pane", "-p", "-t", "t"]).stdout.components(separatedBy: "\n") }

        /// Waits until the screen shows a line for which `condition` holds; returns the screen.
        @discardableResult
        func waitFor(_ what: String, seconds: Double = 20, _ condition: (String) -> Bool) -> [String] {
            let deadline = Date().addingTimeInterval(seconds)
            var lines = screen
            while !lines.contains(where: condition), Date() < deadline {
                Thread.sleep(forTimeInterval: 0.02)
                lines = screen
            }
            let shown = lines.contains(where: condition)
            #expect(shown, "the screen never showed \(what):\n\(lines.joined(separator: "\n"))")
            return lines
        }

        @discardableResult
        func waitFor(_ text: String, seconds: Double = 20) -> [String] { waitFor(text, seconds: seconds) { $0.contains(text) } }

        func resize(columns: Int, rows: Int) { tmux(["resize-window", "-t", "t", "-x", "\(columns)", "-y", "\(rows)"]) }
    }

    func sampleBook() {
        #expect(box.carnet(["sample"]).status == 0)
        #expect(box.carnet(["favorite", "2"]).status == 0)
    }

    /// `carnet interactive` in the window; when it ends, its status is printed and the pane stays.
    func open(columns: Int = 80, rows: Int = 24, environment: [String: String] = [:]) throws -> Tmux {
        let command = ([Sandbox.binary, "interactive", "--db", box.db]).map(Sandbox.shellQuoted).joined(separator: " ")
        return try Tmux(box, command: "\(command); echo carnet-exited-$?; sleep 60", columns: columns, rows: rows,
                        environment: ["HOME": box.dir.path, "TERM": "screen"].merging(environment) { $1 })
    }

    /// docs/cli.md's sequence: find a person by two letters of their name and change their
    /// phone, no id read off the screen; the phone keeps its type.
    @Test func findAPersonByTwoLettersAndChangeTheirPhone() throws {
        sampleBook()
        let tmux = try open()
        tmux.waitFor("Tyler Porter")
        tmux.keys("/", "t", "y", "Enter", "c", "P", "Enter", "C-u")
        tmux.type("+1 555 0199")
        tmux.keys("Enter", "s")
        tmux.waitFor("saved Tyler Porter")
        let shown = box.carnet(["show", "2"]).stdout
        #expect(shown.contains("+1 555 0199  (preferred)"), "\(shown)")
    }

    /// Another process's `carnet add` appears on the open list with no key pressed, and a
    /// contact another process deletes leaves the detail showing it with a word.
    @Test func anotherProcessesChangesAppearWithoutAKey() throws {
        sampleBook()
        let tmux = try open()
        tmux.waitFor("Tyler Porter")
        #expect(box.carnet(["add", "--name", "Aaron Added Elsewhere"]).status == 0)
        let lines = tmux.waitFor("Aaron Added Elsewhere")
        #expect(lines[1].hasPrefix("Contacts  6"), "\(lines[1])")
        // The highlight stayed on Gary Edwards, the first row before Aaron came above him.
        tmux.keys("Enter")
        tmux.waitFor("Gary Edwards' detail") { $0.hasPrefix("Gary Edwards") }
        #expect(box.carnet(["delete", "4", "--yes"]).status == 0)
        tmux.waitFor("Gary Edwards was deleted elsewhere")
    }

    @Test func resizingRedrawsAndASmallWindowStillActsOnTheHighlightedName() throws {
        sampleBook()
        let tmux = try open()
        tmux.waitFor("│ Gary Edwards")
        tmux.resize(columns: 40, rows: 12)
        tmux.waitFor("at 40 columns, the list alone") { $0.hasPrefix("   Gary Edwards") && !$0.contains("│") }
        tmux.keys("j", "f")
        tmux.waitFor("Katherine Price is a favorite")
        tmux.resize(columns: 30, rows: 10)
        tmux.waitFor("window too small")
        tmux.resize(columns: 100, rows: 30)
        tmux.waitFor("7 History")
    }

    /// Ctrl-Z gives the shell back, `fg` brings the screen back; Ctrl-C asks, and quitting gives
    /// the terminal back with status 0.
    @Test func controlZAndFgRestoreTheScreenAndControlCAsksBeforeQuitting() throws {
        sampleBook()
        let command = ([Sandbox.binary, "interactive", "--db", box.db]).map(Sandbox.shellQuoted).joined(separator: " ")
        let tmux = try Tmux(box, command: "/bin/bash --norc --noprofile -i", environment: ["HOME": box.dir.path, "TERM": "screen"])
        tmux.type("PS1='prompt$ '")
        tmux.keys("Enter")
        tmux.waitFor("prompt$")
        tmux.type(command)
        tmux.keys("Enter")
        tmux.waitFor("Tyler Porter")
        tmux.keys("C-z")
        tmux.waitFor("Stopped")
        tmux.type("fg")
        tmux.keys("Enter")
        tmux.waitFor("│ Gary Edwards")
        tmux.keys("C-c")
        tmux.waitFor("Quit carnet? (y/n)")
        tmux.keys("n")
        tmux.waitFor("nothing done")
        tmux.keys("C-c", "y")
        tmux.waitFor("the shell's prompt again") { $0.hasPrefix("prompt$") && !$0.contains("fg") && !$0.contains("PS1") }
        tmux.type("echo status-$?")
        tmux.keys("Enter")
        tmux.waitFor("status-0")
    }

    /// `e` gives the terminal to $EDITOR in the foreground (an editor that sets the terminal up,
    /// as vim does), then the screen comes back with the card saved.
    @Test func theEditorGetsTheTerminalAndTheScreenComesBack() throws {
        sampleBook()
        let editor = box.script("editor.sh", """
            stty raw -echo < /dev/tty
            sed -i 's/^name:.*/name: Gary Edited/' "$1"
            stty sane < /dev/tty
            """)
        let tmux = try open(environment: ["EDITOR": editor, "VISUAL": ""])
        tmux.waitFor("│ Gary Edwards")
        tmux.keys("e")
        tmux.waitFor("saved Gary Edited")
        tmux.waitFor("│ Gary Edited")
    }

    /// An editor closed with nothing changed cancels the edit, once: the editor is not opened a
    /// second time, and the screen says so.
    @Test func anEditorClosedUnchangedCancelsOnce() throws {
        sampleBook()
        let runs = box.path("runs")
        let editor = box.script("editor.sh", "echo run >> \"\(runs)\"\n")
        let tmux = try open(environment: ["EDITOR": editor, "VISUAL": ""])
        tmux.waitFor("│ Gary Edwards")
        tmux.keys("e")
        tmux.waitFor("cancelled; Gary Edwards unchanged")
        Thread.sleep(forTimeInterval: 0.5)
        #expect((try? String(contentsOfFile: runs, encoding: .utf8)) == "run\n")
    }
}
