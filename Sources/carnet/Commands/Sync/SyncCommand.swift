import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync the address book with a CardDAV server (Radicale, Nextcloud, Fastmail, iCloud…), both ways.",
        discussion: """
            carnet sync setup URL remembers the address book (or finds it from the server's or your \
            principal's URL); carnet sync then brings the server's changes here and sends this \
            file's there. A contact changed on both sides is merged field by field; where both \
            changed the same field, this file's value wins (--prefer remote: the server's), and \
            the other is kept (carnet sync status shows it). A sync is one change in carnet \
            history: carnet undo takes it back here, and the next sync sends that.

            Each address book of the file syncs with its own collection. Given a server or \
            principal URL whose home has several address books, setup links each to the book of \
            its name (made here when missing); carnet sync then syncs every linked book, and one \
            book's failure does not stop the others (the line names the book).

            The password is never stored: --password-command prints it (the first line), or \
            CARNET_SYNC_PASSWORD holds it.

            EXAMPLES:
              carnet sync setup http://localhost:5232/ --user ada --password-command "pass carnet"
              carnet sync --dry-run
              carnet sync
              carnet sync --timeout 900      # a slow server with a large address book
              carnet sync status
              carnet sync take 3             # conflict 3: take the value that lost
              carnet sync skip 2             # stop naming card 2, which cannot be taken

            The options of carnet sync itself (--dry-run, --prefer, --timeout): carnet sync run --help.
            """,
        subcommands: [Run.self, Setup.self, Status.self, Take.self, Skip.self],
        defaultSubcommand: Run.self)
}
