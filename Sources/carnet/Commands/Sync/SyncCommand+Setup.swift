import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension SyncCommand {
    struct Setup: SyncingCommand {
        static let configuration = CommandConfiguration(
            commandName: "setup",
            abstract: "Remember the CardDAV address book to sync with (found from a server or principal URL).",
            discussion: """
                URL may be the address book itself, or the server (or your principal) URL: carnet then \
                asks for your address book home (current-user-principal, addressbook-home-set) and \
                takes its first address book, making one named carnet when there is none. The \
                password is never stored in the file: a URL with one in it (http://ada:secret@…) is \
                refused; give it with --password-command. A user name in the URL (http://ada@…) is \
                taken as --user, and refused if --user names another.

                A home server whose certificate is signed by a CA of its own: --ca-file names that \
                CA's certificate (PEM). It is kept in the file, for this address book only, and its \
                server is then verified against it alone, in every sync.

                EXAMPLES:
                  carnet sync setup http://localhost:5232/ --user ada --password-command "pass carnet"
                  CARNET_SYNC_PASSWORD=… carnet sync setup https://dav.example.com/addressbooks/ada/contacts/ --user ada
                  carnet sync setup https://nas.home:5232/ --user ada --password-command "pass carnet" --ca-file nas-ca.pem
                """)

        @OptionGroup var database: DatabaseOption
        var writes: Bool { true }
        @Argument(help: ArgumentHelp("The address book, server or principal URL (http:// or https://).", valueName: "url")) var url: String
        @Option(help: ArgumentHelp("The user name to log in with.", valueName: "name")) var user = ""
        @Option(help: ArgumentHelp("A command whose first line of output is the password (run with /bin/sh).", valueName: "command"))
        var passwordCommand = ""
        @Option(help: ArgumentHelp("A CA certificate (PEM) to verify this server against instead of the system's CAs.", valueName: "file"))
        var caFile: String?
        @Option(help: ArgumentHelp(
            "The address book of this file to link (made when missing). Default: the URL's address book, or the only one of the home set, goes to the default book; several are each linked to the book of their name.",
            valueName: "name"))
        var book: String?

        func validate() throws {
            let lower = url.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
                throw ValidationError("\(url) is not an http:// or https:// URL")
            }
            let login: (url: URL, username: String)
            do { login = try SyncAccount.login(url: url, username: user) } catch { throw ValidationError(error.description) }
            if !passwordCommand.isEmpty && login.username.isEmpty { throw ValidationError("--password-command needs --user") }
            // Before the address book is opened: a wrong file leaves no trace.
            _ = try certificateAuthority()
        }

        /// The CA file's PEM text.
        func certificateAuthority() throws -> String? {
            guard let caFile else { return nil }
            guard let data = FileManager.default.contents(atPath: caFile) else {
                let missing = !FileManager.default.fileExists(atPath: caFile)
                throw ValidationError("--ca-file \(caFile.shown): \(missing ? "no such file" : "cannot be read")")
            }
            let text = String(decoding: data, as: UTF8.self)
            guard SyncAccount.isPEMCertificate(text), data.count <= 1_000_000 else {
                throw ValidationError("--ca-file \(caFile.shown) is not a CA certificate in PEM (-----BEGIN CERTIFICATE-----)")
            }
            return text
        }

        @MainActor func run(sync: SyncViewModel, terminal: Terminal) throws {
            let setup = try sync.setup(
                url: url, username: user, passwordCommand: passwordCommand, certificateAuthority: try certificateAuthority(), book: book)
            if setup.created { terminal.print("made the address book \(setup.account.collectionURL)") }
            let login = setup.account.username.isEmpty ? "" : " as \(setup.account.username)"
            guard setup.links.count > 1 else {
                let made = setup.links.first.map { $0.madeBook ? " (made the book \($0.book.name.shown) here)" : "" } ?? ""
                return terminal.print("saved sync setup: \(setup.account.collectionURL)\(login)\(made) (carnet sync to sync now)")
            }
            for link in setup.links {
                terminal.print("linked \(link.book.name.shown)\(link.madeBook ? " (new here)" : "") to \(link.account.collectionURL)")
            }
            terminal.print("saved sync setup: \(setup.links.count) address books\(login) (carnet sync to sync now)")
        }
    }
}
