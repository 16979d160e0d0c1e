import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels

struct BookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "book",
        abstract: "List, add, rename and delete address books.",
        discussion: """
            One file holds any number of named address books; every contact is in one. The default \
            book (first in the list) takes contacts added or imported without --book; it can be \
            renamed, not deleted. Each book can be synced with its own CardDAV collection.

            EXAMPLES:
              carnet book list
              carnet book add Work
              carnet book rename Work Office
              carnet book delete Office --force
            """,
        subcommands: [List.self, Add.self, Rename.self, Delete.self],
        defaultSubcommand: List.self)
}
