import Foundation

/// Where the database lives: `--db PATH`, else `$CARNET_DB`, else
/// `$XDG_DATA_HOME/carnet/carnet.sqlite` (`~/.local/share/carnet/carnet.sqlite`).
struct DatabaseLocation {
    let path: String
    /// Whether the person named the file (`--db` or `CARNET_DB`) rather than taking the default.
    /// A named file that is missing is more likely a typo than a first run, so only a command
    /// that writes creates it; the default file is created by whichever command comes first.
    let isExplicit: Bool

    init(flag: String?, environment: [String: String]) {
        if let flag, !flag.isEmpty {
            (path, isExplicit) = (Self.expand(flag, environment: environment), true)
        } else if let env = environment["CARNET_DB"], !env.isEmpty {
            (path, isExplicit) = (Self.expand(env, environment: environment), true)
        } else {
            let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
                ?? (environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.local/share"
            (path, isExplicit) = (data + "/carnet/carnet.sqlite", false)
        }
    }

    /// `~` and `~/…` from the given environment's HOME (the process's own is the console's);
    /// `~user` as Foundation expands it.
    private static func expand(_ path: String, environment: [String: String]) -> String {
        if path == "~" || path.hasPrefix("~/"), let home = environment["HOME"], !home.isEmpty {
            return (home.hasSuffix("/") ? String(home.dropLast()) : home) + path.dropFirst()
        }
        return (path as NSString).expandingTildeInPath
    }

    /// Removes `--db PATH` / `--db=PATH` standing before the command's name (`carnet --db x
    /// list`), where the argument parser would hand it to the top command rather than to the one
    /// that runs. After the name, each command's own `--db` option (``DatabaseOption``) reads it.
    static func extractFlag(from arguments: inout [String]) throws -> String? {
        var value: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" || !argument.hasPrefix("-") { break }
            if argument == "--db" {
                guard index + 1 < arguments.count else { throw CLIError.usage("--db needs a file path") }
                value = arguments[index + 1]
                arguments.removeSubrange(index...(index + 1))
            } else if argument.hasPrefix("--db=") {
                value = String(argument.dropFirst(5))
                arguments.remove(at: index)
            } else {
                index += 1
            }
        }
        if let value, value.isEmpty { throw CLIError.usage("--db needs a file path") }
        return value
    }
}
