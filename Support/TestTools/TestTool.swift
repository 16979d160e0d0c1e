import Foundation

/// The programs the tests start (sqlite3, python3, Radicale, tmux, khard…), found where this
/// machine keeps them: the first executable of the name on `PATH`, else `/usr/bin`, where
/// `make deps` installs them on Debian. A Mac's Homebrew or a `pip install --user` works as well.
///
/// `CARNET_TEST_TOOLS` says what a test that needs one does: unset, it is skipped with a message
/// when the program is missing; `required` (`make test`, CI) runs it regardless, so a missing
/// program fails it; `none` (`make test-fast`) skips every test that starts a program.
public enum TestTool {
    /// The tool's path; `/usr/bin/NAME` when it is nowhere, so the failure names where it was looked for.
    public static func path(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        candidates(name, environment: environment).first ?? "/usr/bin/" + name
    }

    /// Every executable of the name: on `PATH` in its order, then in `/usr/bin` and `/bin`.
    public static func candidates(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        let directories = (environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/bin"]
        var found: [String] = []
        for directory in directories where !directory.isEmpty {
            let candidate = (directory as NSString).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate), !found.contains(candidate) { found.append(candidate) }
        }
        return found
    }

    /// The first python3 that imports `modules`: a pyenv or virtualenv python3 early on `PATH`
    /// lacks what `make deps` installed for the system's (python3-vobject, Xandikos). The first
    /// python3 when none does, so the failure shows the import error.
    public static func python3(importing modules: [String]) -> String {
        let all = candidates("python3")
        for python in all where modules.isEmpty || imports(python, modules) { return python }
        return all.first ?? path("python3")
    }

    private static func imports(_ python: String, _ modules: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", "import " + modules.joined(separator: ", ")]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    public static func isInstalled(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        FileManager.default.isExecutableFile(atPath: path(name, environment: environment))
    }

    public static let variable = "CARNET_TEST_TOOLS"

    /// `CARNET_TEST_TOOLS=required`: a missing program fails the tests that need it.
    public static var areRequired: Bool { ProcessInfo.processInfo.environment[variable] == "required" }

    /// `CARNET_TEST_TOOLS=none`: no test starts a program (the fast loop).
    public static var areOff: Bool { ProcessInfo.processInfo.environment[variable] == "none" }

    /// Whether the tests that start `names` run: tools are not off, and each is installed or
    /// they are required (then the test fails where it starts the missing one).
    public static func usable(_ names: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        switch environment[variable] {
        case "none": false
        case "required": true
        default: names.allSatisfy { isInstalled($0, environment: environment) }
        }
    }

    /// What a skipped test says.
    public static func skipped(_ names: [String]) -> String {
        if areOff { return "starts \(names.joined(separator: ", ")): \(variable)=none starts no program" }
        let absent = names.filter { !isInstalled($0) }
        return "needs \(absent.joined(separator: ", ")) on PATH (make deps installs it; \(variable)=required fails instead)"
    }
}
