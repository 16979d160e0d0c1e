import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension SyncCommand {
    struct Skip: SyncingCommand {
        static let configuration = CommandConfiguration(
            commandName: "skip",
            abstract: "Stop naming a card on the server that this file cannot take.",
            discussion: """
                CARD is its number or its href, as carnet sync status shows them. Syncs no longer \
                fetch it again or name it; if it changes on the server into a card this file can \
                take, it syncs as usual.

                EXAMPLES:
                  carnet sync status
                  carnet sync skip 2
                  carnet sync skip /ada/contacts/huge.vcf
                """)

        @OptionGroup var database: DatabaseOption
        var writes: Bool { true }
        @Argument(help: ArgumentHelp("The card's number or href (carnet sync status).", valueName: "card")) var card: String

        @MainActor func run(sync: SyncViewModel, terminal: Terminal) throws {
            guard let skipped = try sync.skipCard(card) else {
                throw CLIError(message: "no card not synced has the number or href \(card.shown) (carnet sync status lists them)", code: .notFound)
            }
            terminal.print("skipping \(skipped.href) (it stays on the server; syncs no longer name it)".shown)
        }
    }
}
