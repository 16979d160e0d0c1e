import CarnetModels
import Foundation

// Writes the CLI's field flags from the field description (`ContactFields.all`): one real
// `@Option` per field, which swift-argument-parser cannot add at run time, so each field has its
// own help line and shell completion. The GenerateFieldOptions plugin runs it at build time
// with the path to write; the output is not committed. Names and help are read from the
// description when the CLI runs (`FieldFlag`), so only which fields exist, and what kind of
// value each takes, is fixed here.

/// `remove-email` → `removeEmail`: a Swift identifier for a flag.
func identifier(_ flag: String) -> String {
    let words = flag.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
    guard let first = words.first else { return "unnamed" }
    return first.lowercased() + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined()
}

/// A Swift string literal of `text`.
func literal(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}

/// What a field's flag takes: one value, or one entry of a list at each use.
enum FlagKind { case text, list }

/// The fields that have a flag, in the description's order (the order of the help).
let flagged: [(spec: ContactFieldSpec, kind: FlagKind)] = ContactFields.all.compactMap { spec in
    switch spec.value {
    case .text, .multiline: return (spec, .text)
    // Unmodelled vCard properties come with imports; no one types them as flags.
    case let .list(list) where list.kind != .extra: return (spec, .list)
    case .list, .photo: return nil
    }
}
let texts = flagged.filter { $0.kind == .text }.map(\.spec)
let lists = flagged.filter { $0.kind == .list }.map(\.spec)

var out = """
    // Generated at build time from ContactFields.all by Plugins/GenerateFieldOptions: not committed.
    import ArgumentParser
    import CarnetModels

    /// One option per field of the description: a one-line field's `--FLAG VALUE` sets it (an
    /// empty value clears it), a list's `--FLAG ENTRY` (repeatable) adds an entry.
    struct FieldFlags: ParsableArguments {

    """
for (spec, kind) in flagged {
    switch kind {
    case .text:
        out += "    @Option(name: FieldFlag.name(\(literal(spec.flag))), help: FieldFlag.textHelp(\(literal(spec.flag)))) var \(identifier(spec.flag)): String?\n"
    case .list:
        // `.unconditional`: a value may start with a dash (`--date --06-01`, a phone `-`).
        out += "    @Option(name: FieldFlag.name(\(literal(spec.flag))), parsing: .unconditionalSingleValue, help: FieldFlag.listHelp(\(literal(spec.flag)))) var \(identifier(spec.flag)): [String] = []\n"
    }
}
out += """

        /// The one-line and multi-line values given, by field.
        var texts: [Field: String] {
            var values: [Field: String] = [:]

    """
for spec in texts { out += "        if let value = self.\(identifier(spec.flag)) { values[.\(spec.field.rawValue)] = value }\n" }
out += """
            return values
        }

        /// The list entries given, by field.
        var entries: [Field: [String]] {
            var values: [Field: [String]] = [:]

    """
for spec in lists { out += "        if !self.\(identifier(spec.flag)).isEmpty { values[.\(spec.field.rawValue)] = self.\(identifier(spec.flag)) }\n" }
out += """
            return values
        }
    }

    /// `--remove-FLAG VALUE` (repeatable), one per list field of the description.
    struct FieldRemovalFlags: ParsableArguments {

    """
for spec in lists {
    out += "    @Option(name: FieldFlag.removalName(\(literal(spec.flag))), parsing: .unconditionalSingleValue, help: FieldFlag.removalHelp(\(literal(spec.flag)))) var \(identifier("remove-" + spec.flag)): [String] = []\n"
}
out += """

        /// The values to remove, by field.
        var values: [Field: [String]] {
            var values: [Field: [String]] = [:]

    """
for spec in lists { out += "        if !self.\(identifier("remove-" + spec.flag)).isEmpty { values[.\(spec.field.rawValue)] = self.\(identifier("remove-" + spec.flag)) }\n" }
out += """
            return values
        }
    }

    """

let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "/dev/stdout"
// Written only when it changed, so the CLI is not compiled again for nothing.
if (try? String(contentsOfFile: path, encoding: .utf8)) != out {
    do {
        try out.write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
        FileHandle.standardError.write(Data("FieldOptionsTool: cannot write \(path): \(error)\n".utf8))
        exit(1)
    }
}
