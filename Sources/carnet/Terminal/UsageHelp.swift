import ArgumentParser

/// What a usage error adds for the person who typed it: the command or option they probably
/// meant, and the help page of the command they were in.
enum UsageHelp {
    /// The command `arguments` reach (the words naming subcommands, in order) and its type.
    static func command(reachedBy arguments: [String]) -> (path: [String], type: ParsableCommand.Type, next: String?) {
        var type: ParsableCommand.Type = Carnet.self
        var path: [String] = []
        // The words that are not options; a word right after an option (`--db book.sqlite
        // merge`) may be its value, and is passed over when it names no command.
        var words: [(word: String, mayBeValue: Bool)] = []
        for (index, argument) in arguments.enumerated() where !argument.hasPrefix("-") {
            let previous = index > 0 ? arguments[index - 1] : ""
            words.append((argument, previous.hasPrefix("-") && !previous.contains("=")))
        }
        var next = words[...]
        while let first = next.first {
            guard let sub = type.configuration.subcommands.first(where: { ($0.configuration.commandName ?? "") == first.word || $0.configuration.aliases.contains(first.word) }) else {
                guard first.mayBeValue else { break }
                next = next.dropFirst()
                continue
            }
            type = sub
            path.append(first.word)
            next = next.dropFirst()
        }
        return (path, type, next.first?.word)
    }

    /// `message` (ArgumentParser's or a command's one line) with a suggestion where a word is a
    /// slip of the keyboard away from a command or an option, and the command's own help named.
    static func line(_ message: String, arguments: [String]) -> String {
        let reached = command(reachedBy: arguments)
        var line = message
        if !message.contains("Did you mean") {
            if let word = quoted(in: message, after: "nexpected argument"), word == reached.next,
               !reached.type.configuration.subcommands.isEmpty {
                let names = reached.type.configuration.subcommands.flatMap { [$0.configuration.commandName ?? ""] + $0.configuration.aliases }
                line = "unknown command '\(word)' for \((["carnet"] + reached.path).joined(separator: " "))"
                if let near = nearest(word, among: names) { line += ". Did you mean '\(near)'?" }
            } else if let option = quoted(in: message, after: "nknown option"), option.hasPrefix("--") {
                let flag = String(option.dropFirst(2).prefix { $0 != "=" })
                if let near = nearest(flag, among: options(of: reached.type)) { line += ". Did you mean '--\(near)'?" }
            }
        }
        return line + " (see \((["carnet"] + reached.path + ["--help"]).joined(separator: " ")))"
    }

    /// The long options a command's help lists.
    static func options(of type: ParsableCommand.Type) -> [String] {
        let help = Carnet.helpMessage(for: type, columns: 10_000)
        return help.matches(of: /--([a-z][a-z0-9-]*)/).map { String($0.output.1) }
    }

    /// The text between the quotes that follow `marker` in `message`.
    static func quoted(in message: String, after marker: String) -> String? {
        guard let at = message.range(of: marker), let open = message[at.upperBound...].firstIndex(of: "'") else { return nil }
        let rest = message[message.index(after: open)...]
        guard let close = rest.firstIndex(of: "'") else { return nil }
        return String(rest[..<close])
    }

    /// The candidate closest to `word` if it is a slip away: within a third of its length in
    /// edits (at least one), a swap of two neighbours counting one.
    static func nearest(_ word: String, among candidates: [String]) -> String? {
        let limit = max(1, word.count / 3)
        let scored = Set(candidates).filter { !$0.isEmpty }.map { ($0, distance(word.lowercased(), $0)) }.filter { $0.1 <= limit }
        return scored.min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }?.0
    }

    /// Optimal string alignment distance (Levenshtein with adjacent transpositions).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
