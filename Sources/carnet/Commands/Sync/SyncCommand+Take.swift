import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension SyncCommand {
    struct Take: SyncingCommand {
        static let configuration = CommandConfiguration(
            commandName: "take",
            abstract: "Take the value that lost in a sync conflict (all its fields, or those named).",
            discussion: """
                NUMBER is the conflict's, as carnet sync status shows it. The contact gets the other \
                side's value of each field: one change in carnet history (carnet undo takes it back), \
                sent to the server by the next sync.

                A conflict met linking a book to a collection that already held its cards, with no \
                earlier sync to say which side changed a field, is unsettled: neither side's value \
                overwrote the other's, and the contact is not sent. carnet sync take settles it with \
                the server's values; --mine settles it with this file's, which the next sync sends.

                EXAMPLES:
                  carnet sync status
                  carnet sync take 3
                  carnet sync take 3 --field title
                  carnet sync take 3 --field email --field phone
                  carnet sync take 4 --mine
                """)

        @OptionGroup var database: DatabaseOption
        var writes: Bool { true }
        @Argument(help: ArgumentHelp("The conflict's number (carnet sync status).", valueName: "number")) var number: Int64
        @Option(help: ArgumentHelp("Take only this field's value (repeatable; default: all the conflict's fields).", valueName: "field"))
        var field: [String] = []
        @Flag(help: "Settle an unsettled conflict with this file's values: the next sync sends them.") var mine = false
        @Flag(help: "Print a JSON object.") var json = false

        func validate() throws {
            guard number > 0 else { throw ValidationError("the conflict's number must be 1 or more (got \(number))") }
            if mine && !field.isEmpty { throw ValidationError("--mine keeps every field of this file's; it cannot be combined with --field") }
            _ = try fields()
        }

        func fields() throws -> [Field]? {
            guard !field.isEmpty else { return nil }
            return try field.map { name in
                guard let spec = ContactFields.named(name) ?? Field(rawValue: name.lowercased()).flatMap(ContactFields.spec) else {
                    throw ValidationError("--field \(name.shown) is not a field of a contact (name, email, phone, title, note, …)")
                }
                return spec.field
            }
        }

        /// `--json`: what each field held before and holds now.
        struct TakenJSON: Encodable {
            struct Value: Encodable { let field: Field, before: [String]?, now: [String]? }
            let conflict: Int64, contactID: Int64, name: String, changed: Bool, fields: [Value]
        }

        @MainActor func run(sync: SyncViewModel, terminal: Terminal) throws {
            if mine {
                let settled = try sync.keepMine(conflict: number)
                let list = settled.clash.fields.map(\.rawValue).joined(separator: ", ")
                if json {
                    terminal.print(try JSONOutput.string(TakenJSON(
                        conflict: number, contactID: settled.contact?.id ?? 0, name: settled.clash.name, changed: false,
                        fields: settled.values.map { TakenJSON.Value(field: $0.field, before: $0.kept, now: $0.kept) })))
                } else {
                    terminal.print("kept this file's \(list) of conflict \(number) for \(settled.clash.name) (carnet sync sends it)".shown)
                }
                return
            }
            let taken = try sync.take(conflict: number, fields: try fields())
            let name = taken.contact.name
            let list = taken.fields.map(\.rawValue).joined(separator: ", ")
            if json {
                var after = taken.conflict
                after.contact = taken.contact
                let before = taken.conflict.values, now = after.values
                let values = taken.fields.map { field in
                    TakenJSON.Value(
                        field: field, before: before.first { $0.field == field }?.kept, now: now.first { $0.field == field }?.kept)
                }
                terminal.print(try JSONOutput.string(TakenJSON(conflict: number, contactID: taken.contact.id, name: name, changed: taken.changed, fields: values)))
            } else if taken.changed {
                terminal.print("took \(list) of conflict \(number) for \(name) (carnet undo takes it back; carnet sync sends it)".shown)
            } else {
                terminal.print("\(name) already holds the other side's \(list) of conflict \(number); nothing was changed".shown)
            }
        }
    }
}
