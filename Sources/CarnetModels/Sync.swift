import Foundation

/// The CardDAV address book a Carnet file syncs with (`carnet sync setup`). The password is
/// never part of it: `passwordCommand` prints it, or `CARNET_SYNC_PASSWORD` holds it.
public struct SyncAccount: Sendable, Equatable, Codable {
    public var id: Int64
    /// The address book collection, ending in `/`.
    public var collectionURL: String
    /// Empty when the server asks for no login.
    public var username: String
    /// Run with `/bin/sh -c`; the first line of its output is the password. Empty: use
    /// `CARNET_SYNC_PASSWORD`.
    public var passwordCommand: String
    /// RFC 6578's token of the last complete sync; nil before the first or when the server has none.
    public var syncToken: String?
    public var lastSyncAt: Date?
    /// The CA certificate(s), PEM, that the server's certificate is verified against instead of
    /// the system's (`carnet sync setup --ca-file`); nil: the system's.
    public var certificateAuthority: String?
    /// The address book of the file it syncs (`AddressBook/id`): only its contacts go up, and
    /// the collection's cards come down into it.
    public var bookID: Int64
    /// That book's name, as read with the account.
    public var bookName: String = ""
    /// When a sync last found the collection gone from the server (404); nil once one reaches it.
    public var collectionGoneAt: Date?

    public init(
        id: Int64 = 0, collectionURL: String, username: String = "", passwordCommand: String = "", syncToken: String? = nil,
        lastSyncAt: Date? = nil, certificateAuthority: String? = nil, bookID: Int64 = AddressBook.defaultID
    ) {
        self.bookID = bookID
        self.id = id
        self.collectionURL = collectionURL
        self.username = username
        self.passwordCommand = passwordCommand
        self.syncToken = syncToken
        self.lastSyncAt = lastSyncAt
        self.certificateAuthority = certificateAuthority
    }

    /// The URL without its user name, and the user name to log in with: `username`, or the
    /// URL's when `username` is empty. A password in the URL, or two different user names, are
    /// refused.
    public static func login(url text: String, username: String) throws(CarnetError) -> (url: URL, username: String) {
        guard var parts = URLComponents(string: text) else { throw .sync(.badURL(text)) }
        if parts.password != nil {
            parts.password = nil
            if parts.user?.isEmpty == true { parts.user = nil }
            // Said with the user name and no password: the line may end up in a log.
            throw .sync(.passwordInURL(parts.url?.absoluteString ?? "the URL given"))
        }
        guard let scheme = parts.scheme?.lowercased(), ["http", "https"].contains(scheme), let host = parts.host, !host.isEmpty,
            let url = parts.url
        else { throw .sync(.badURL(text)) }
        guard let inURL = parts.user, !inURL.isEmpty else { return (url, username) }
        if !username.isEmpty && username != inURL { throw .sync(.userMismatch(inURL: inURL, given: username)) }
        parts.user = nil
        guard let bare = parts.url else { throw .sync(.badURL(text)) }
        return (bare, inURL)
    }

    /// Whether `text` holds a PEM certificate (what `--ca-file` must give).
    public static func isPEMCertificate(_ text: String) -> Bool {
        text.contains("-----BEGIN CERTIFICATE-----") && text.contains("-----END CERTIFICATE-----")
    }

    /// The server's host (and port), for messages and the history: "dav.example.com".
    public var host: String {
        guard let url = URL(string: collectionURL), let host = url.host else { return collectionURL }
        return url.port.map { "\(host):\($0)" } ?? host
    }
}

/// Which side wins where both changed the same field of a contact since the last sync.
public enum SyncPreference: String, Sendable, CaseIterable, Codable {
    case local, remote
}

public struct SyncOptions: Sendable, Equatable {
    /// How long a server may keep a request's answer silent before a sync gives up, by default:
    /// a server can think for long before its first byte (Radicale takes about a minute to list
    /// 60,000 cards on a small machine). The transport is made with it (`carnet sync --timeout`).
    public static let defaultAnswerTimeout: TimeInterval = 300

    /// Say what would happen; change nothing here or on the server.
    public var dryRun: Bool
    public var prefer: SyncPreference
    /// Cards fetched per `addressbook-multiget` request.
    public var batchSize: Int

    public init(dryRun: Bool = false, prefer: SyncPreference = .local, batchSize: Int = 100) {
        self.dryRun = dryRun
        self.prefer = prefer
        self.batchSize = max(1, batchSize)
    }
}

/// A contact both sides changed in the same field: one value won, the other is kept in the
/// file's `sync_conflicts` (and printed in the report).
public struct SyncClash: Sendable, Equatable, Codable {
    public var uid: String
    public var name: String
    public var fields: [Field]
    /// The side whose values were kept.
    public var kept: SyncPreference
    /// The losing side's card, whole.
    public var lostCard: String
    /// Met linking a contact to a card with no common base: neither side's value overwrote the
    /// other's, and the contact is not sent until `carnet sync take` settles it.
    public var unsettled: Bool

    public init(uid: String, name: String, fields: [Field], kept: SyncPreference, lostCard: String, unsettled: Bool = false) {
        self.uid = uid
        self.name = name
        self.fields = fields
        self.kept = kept
        self.lostCard = lostCard
        self.unsettled = unsettled
    }

    /// "Ada Lovelace: phone, note (kept this file's; the server's values are in sync_conflicts)".
    public var description: String {
        if unsettled {
            return "\(name): this file and the server hold different \(fields.map(\.rawValue).joined(separator: ", ")), never synced "
                + "together: neither is sent until you settle it (see carnet sync status, then carnet sync take)"
        }
        let side = kept == .local ? "kept this file's values; the server's" : "kept the server's values; this file's"
        return "\(name): both changed \(fields.map(\.rawValue).joined(separator: ", ")) (\(side) are kept in sync_conflicts, see carnet sync status)"
    }
}

/// A conflict kept in the file (`sync_conflicts`), as `carnet sync status` shows it: the
/// contact as it is now, and the losing side's card read back.
public struct SyncConflict: Sendable, Equatable {
    /// Its number (`sync_conflicts.id`), which `carnet sync take` is given.
    public var id: Int64
    public var time: Date?
    public var clash: SyncClash
    /// The contact of that UID as it is now; nil when it was deleted since.
    public var contact: Contact?
    /// The losing side's card, read; nil when it cannot be read (it stays in the file).
    public var lost: ContactDraft?

    public init(id: Int64, time: Date?, clash: SyncClash, contact: Contact?, lost: ContactDraft? = nil) {
        self.id = id
        self.time = time
        self.clash = clash
        self.contact = contact
        self.lost = lost
    }

    /// Each clashing field with the value the contact holds now and the value that lost, as
    /// texts (a list's entries, `work: ada@example.com`; none for an empty field).
    public var values: [SyncConflictValue] {
        clash.fields.map { field in
            SyncConflictValue(
                field: field, kept: contact.map { Self.texts(field, of: $0.draft) }, lost: lost.map { Self.texts(field, of: $0) })
        }
    }

    /// Whether the contact already holds the losing side's values of `fields`.
    public func holdsLostValues(of fields: [Field]) -> Bool {
        guard let contact, let lost else { return false }
        return fields.allSatisfy { contact.draft.sameValue($0, as: lost) }
    }

    static func texts(_ field: Field, of draft: ContactDraft) -> [String] {
        guard let spec = ContactFields.spec(field) else { return [] }
        switch spec.value {
        case let .list(list): return list.entries(draft)
        case let .photo(keyPath): return draft[keyPath: keyPath].map { ["a photo of \($0.count) bytes"] } ?? []
        case .text, .multiline: return spec.texts(of: draft)
        }
    }
}

/// One clashing field of a `SyncConflict`, both values as texts.
public struct SyncConflictValue: Sendable, Equatable, Codable {
    public var field: Field
    /// What the contact holds now; nil when the contact was deleted.
    public var kept: [String]?
    /// The losing side's value; nil when its card cannot be read.
    public var lost: [String]?

    public init(field: Field, kept: [String]?, lost: [String]?) {
        self.field = field
        self.kept = kept
        self.lost = lost
    }
}

/// A card on the server that this file could not take (too large, unreadable): every sync
/// fetches it again and names it, until it syncs, is gone there, or the user skips it.
public struct CardNotSynced: Sendable, Equatable {
    /// Its number, which `carnet sync skip` is given.
    public var id: Int64
    public var href: String
    public var reason: String
    public var firstSeen: Date?
    public var lastSeen: Date?
    /// The user said to skip it: it is no longer fetched or named, unless it changes there.
    public var skipped: Bool

    public init(id: Int64, href: String, reason: String, firstSeen: Date?, lastSeen: Date?, skipped: Bool) {
        self.id = id
        self.href = href
        self.reason = reason
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.skipped = skipped
    }
}

/// A synced group whose card on the server names a contact merged away here, while the file
/// held it in step: a merge made before Carnet saved a merge's groups as changed never sent it.
/// The file's group lists the contact it became (`survivor`); the next sync sends it.
public struct GroupNamingMergedUID: Sendable, Equatable {
    /// The account (linked book) whose collection has the card.
    public var accountID: Int64
    public var groupID: Int64
    public var name: String
    /// The merged-away UID the server's card names.
    public var mergedUID: String
    /// The name of the contact it was merged into.
    public var survivor: String

    public init(accountID: Int64, groupID: Int64, name: String, mergedUID: String, survivor: String) {
        self.accountID = accountID
        self.groupID = groupID
        self.name = name
        self.mergedUID = mergedUID
        self.survivor = survivor
    }
}

/// What a sync did (or, in a dry run, would do).
public struct SyncReport: Sendable, Equatable {
    /// The address book of this file that was synced.
    public var book: String = ""
    public var server: String = ""
    public var dryRun = false
    /// Changes brought here from the server.
    public var added = 0, updated = 0, deleted = 0
    /// Changes sent to the server.
    public var uploaded = 0, deletedRemotely = 0
    /// Contacts changed on both sides and merged field by field.
    public var merged = 0
    /// Contacts whose card another client moved to this collection from another linked book's:
    /// they followed it here (same id, UID and favorite).
    public var moved: [SyncMove] = []
    public var clashes: [SyncClash] = []
    /// Cards the server has that could not be taken (and why); they are tried again next time.
    public var skipped: [String] = []
    /// Whether the incremental (sync-token) path was used.
    public var incremental = false

    public init() {}

    public var down: Int { added + updated + deleted + moved.count }
    public var up: Int { uploaded + deletedRemotely }
    public var changedNothing: Bool { down == 0 && up == 0 }

    /// "3 down, 1 up", as the history and the confirmation line say it.
    public var counts: String { "\(down) down, \(up) up" }

    /// "moved Ada Lovelace from Personal to Work" (the first three, then how many more), as the
    /// history says it; empty when nothing moved.
    public var movesDescription: String {
        guard !moved.isEmpty else { return "" }
        let named = moved.prefix(3).map { "moved \($0.name) from \($0.from) to \($0.to)" }.joined(separator: ", ")
        return moved.count > 3 ? named + " and \(moved.count - 3) more" : named
    }
}

/// A contact that followed its card, moved by another client from the collection of one linked
/// book (`from`) to another's (`to`).
public struct SyncMove: Sendable, Equatable {
    public var name: String
    public var from: String
    public var to: String

    public init(name: String, from: String, to: String) {
        self.name = name
        self.from = from
        self.to = to
    }
}

/// `carnet sync status`: the account, the last sync, what waits to be sent.
public struct SyncStatus: Sendable, Equatable {
    public var account: SyncAccount
    public var linked: Int
    /// Contacts never sent, contacts changed since the last sync, deletions not yet sent.
    public var pendingNew: Int, pendingChanged: Int, pendingDeletes: Int
    /// The last conflicts, newest first.
    public var conflicts: [SyncConflict]
    /// The server's cards this file could not take, skipped ones included.
    public var cardsNotSynced: [CardNotSynced]
    /// Synced groups whose card on the server still names a contact merged away here (counted
    /// in `pendingChanged`: the next sync sends them).
    public var groupsNamingMergedUIDs: [GroupNamingMergedUID] = []

    public var recentClashes: [SyncClash] { conflicts.map(\.clash) }

    public init(
        account: SyncAccount, linked: Int, pendingNew: Int, pendingChanged: Int, pendingDeletes: Int, conflicts: [SyncConflict],
        cardsNotSynced: [CardNotSynced] = []
    ) {
        self.account = account
        self.linked = linked
        self.pendingNew = pendingNew
        self.pendingChanged = pendingChanged
        self.pendingDeletes = pendingDeletes
        self.conflicts = conflicts
        self.cardsNotSynced = cardsNotSynced
    }
}

/// Why a sync could not talk to the server, or was never set up. Nothing was changed locally.
public enum SyncFailure: Sendable, Equatable, CustomStringConvertible {
    /// `carnet sync` before `carnet sync setup`.
    case notConfigured
    /// The password command failed or printed nothing, or no password is anywhere.
    case password(String)
    /// The server could not be reached (refused, timed out, name not found).
    case unreachable(server: String, reason: String)
    /// The server took the request and sent nothing for `seconds` (busy, or hung).
    case noAnswer(server: String, seconds: Int)
    /// The server refused the user name and password (401).
    case unauthorized(server: String)
    /// The server knows the user but refuses them `path` (403).
    case forbidden(server: String, path: String)
    /// TLS could not be set up (certificate not trusted, …).
    case tls(server: String, reason: String)
    /// The server answered something a CardDAV server should not: a status, bad XML, no address book.
    case server(String)
    /// The server has no address book at the linked collection's `path` any more (404): another
    /// client deleted or moved it.
    case collectionGone(server: String, path: String)
    /// The URL given to `carnet sync setup` is not a URL Carnet can use.
    case badURL(String)
    /// The sync stopped partway for `reason`, after it had `done` something: what it did is
    /// kept (here, and on the server) and the next sync does the rest.
    indirect case interrupted(SyncFailure, done: String)
    /// The URL given to `carnet sync setup` holds a password (`http://ada:secret@host/`), which
    /// Carnet would then store and show; the URL is given with the password left out.
    case passwordInURL(String)
    /// The URL's user name is not the one given with `--user`.
    case userMismatch(inURL: String, given: String)
    /// The server's answer went past `limit` bytes, far more than an address book holds (the
    /// URL names something else, or the server is broken); it was not read further.
    case tooLarge(server: String, limit: Int)

    public var description: String {
        switch self {
        case let .interrupted(reason, done):
            let unchanged = "; nothing was changed"
            let why = reason.description.hasSuffix(unchanged) ? String(reason.description.dropLast(unchanged.count)) : reason.description
            return "the sync stopped partway: \(why); done: \(done); carnet sync does the rest"
        case .notConfigured:
            return "no address book to sync with; run carnet sync setup URL first"
        case let .password(reason):
            return "no password for the sync: \(reason); nothing was changed"
        case let .unreachable(server, reason):
            return "cannot reach \(server) (\(reason)); nothing was changed"
        case let .noAnswer(server, seconds):
            return "\(server) took the request but sent nothing for \(seconds) s; nothing was changed"
        case let .unauthorized(server):
            return "\(server) refused the user name or password; check --user and the password command, nothing was changed"
        case let .forbidden(server, path):
            return "\(server) refused this user access to \(path) (403 Forbidden); check the URL and --user, nothing was changed"
        case let .tls(server, reason):
            return "no secure connection to \(server) (\(reason)); nothing was changed"
        case let .server(reason):
            return "the server did not sync: \(reason); nothing was changed"
        case let .collectionGone(server, path):
            return "the server did not sync: \(server) has no address book at \(path) (404 Not Found): deleted or moved? run carnet sync setup again; no contact was changed (carnet sync status says so until a sync reaches it)"
        case let .badURL(url):
            return "\(url) is not an http:// or https:// URL"
        case let .passwordInURL(url):
            return "the URL holds a password (\(url)); Carnet never stores one: give the URL without it and the password with --password-command (or CARNET_SYNC_PASSWORD)"
        case let .userMismatch(inURL, given):
            return "the URL names the user \(inURL) and --user says \(given); give one"
        case let .tooLarge(server, limit):
            return "\(server) sent an answer larger than \(limit / 1_048_576) MiB, more than any address book holds, and it was not read further; check that the URL is your address book (carnet sync status) and that the server works; nothing was changed"
        }
    }
}

/// Where a sync is, for a progress line on a terminal.
public struct SyncProgress: Sendable, Equatable {
    public enum Phase: String, Sendable {
        case listing = "asking what changed"
        case downloading
        case uploading
    }

    public var phase: Phase
    public var done: Int
    /// Known when downloading (the cards the server listed).
    public var total: Int?

    public init(_ phase: Phase, done: Int = 0, total: Int? = nil) {
        self.phase = phase
        self.done = done
        self.total = total
    }
}

/// What `carnet sync setup` found: the collection remembered, and whether it had to be made.
/// With several collections in the home set, `links` has one per book linked, and
/// `account` is the first.
public struct SyncSetup: Sendable, Equatable {
    public var account: SyncAccount
    public var created: Bool
    public var links: [BookLink]

    public init(account: SyncAccount, created: Bool, links: [BookLink] = []) {
        self.account = account
        self.created = created
        self.links = links
    }
}

/// One address book of the file linked to one collection by `carnet sync setup`.
public struct BookLink: Sendable, Equatable {
    public var book: AddressBook
    public var account: SyncAccount
    /// Whether setup made the book here (it was named after the collection).
    public var madeBook: Bool

    public init(book: AddressBook, account: SyncAccount, madeBook: Bool) {
        self.book = book
        self.account = account
        self.madeBook = madeBook
    }
}

/// What one linked book's sync did, or why it failed (the other books' syncs went on).
public struct BookSyncOutcome: Sendable, Equatable {
    public var book: String
    public var report: SyncReport?
    public var failure: CarnetError?

    public init(book: String, report: SyncReport? = nil, failure: CarnetError? = nil) {
        self.book = book
        self.report = report
        self.failure = failure
    }
}

/// A sync engine, as a screen uses it: the CardDAV client (`CarnetSync.CardDAVSync`) in the
/// program, handed to the view model by the composition root, so screens never import it.
public protocol AddressBookSyncing: AnyObject {
    /// Finds the address book at or under `url` and remembers it (never the password), with
    /// `certificateAuthority` (PEM) as the only CA its server's certificate is verified against.
    /// Links the address books of this file to collections: the one at `url` (or the only one of
    /// its home set) to the book named `book` (nil: the default book); with several in the home
    /// set, each to the book of its name (made when missing), or only the one named `book`.
    func setup(url: String, username: String, passwordCommand: String, certificateAuthority: String?, book: String?) throws(CarnetError) -> SyncSetup
    /// One two-way sync of every linked book (see `SyncOptions`): their reports added up, or
    /// the first book's failure once every book was tried.
    func sync(options: SyncOptions, progress: ((SyncProgress) -> Void)?) throws(CarnetError) -> SyncReport
    /// One two-way sync of every linked book (or only `book`), each on its own: a book's
    /// failure does not stop the others. Throws when nothing is linked (or `book` is not).
    func syncBooks(_ book: String?, options: SyncOptions, progress: ((SyncProgress) -> Void)?) throws(CarnetError) -> [BookSyncOutcome]
    /// Every linked book's account and what waits to be sent.
    func statuses() throws(CarnetError) -> [SyncStatus]
    /// The account and what waits to be sent; nil when no sync is set up.
    func status() throws(CarnetError) -> SyncStatus?
    /// The conflict numbered `id`, its losing card read; nil when there is none.
    func conflict(id: Int64) throws(CarnetError) -> SyncConflict?
    /// Settles conflict `id`, met linking with no common base: its contact is sent from now on.
    func settleConflict(id: Int64) throws(CarnetError)
    /// Marks the card not synced numbered (or at the href) `reference` as skipped; nil when none is.
    func skipCard(_ reference: String) throws(CarnetError) -> CardNotSynced?
}

extension AddressBookSyncing {
    public func setup(url: String, username: String, passwordCommand: String) throws(CarnetError) -> SyncSetup {
        try setup(url: url, username: username, passwordCommand: passwordCommand, certificateAuthority: nil, book: nil)
    }

    public func setup(url: String, username: String, passwordCommand: String, certificateAuthority: String?) throws(CarnetError) -> SyncSetup {
        try setup(url: url, username: username, passwordCommand: passwordCommand, certificateAuthority: certificateAuthority, book: nil)
    }
}
