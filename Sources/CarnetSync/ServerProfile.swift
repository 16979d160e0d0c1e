import Foundation

/// What one kind of CardDAV server needs of Carnet beyond RFC 6352 and RFC 6578: each
/// difference between servers is a named property here, not a test inside the client.
///
/// The client keeps one profile for the sync of one account (`CardDAVClient.profile`),
/// recognised once, when the sync begins, from what the server says of itself
/// (``ServerEvidence``): the compliance classes of its `DAV:` header and the form of the sync
/// token the account holds; a token given later in the sync refines it, with no request of
/// its own. It is not stored: a server upgraded or replaced behind the same URL is seen at the
/// next sync, and the file keeps no column that could go stale. Xandikos keeps each address
/// book as a git repository, and its token is the commit (40 hex digits); Radicale's is a URI,
/// as RFC 6578 asks.
///
/// Differences between Radicale and Xandikos that need nothing here (the sync suite runs on
/// both): Xandikos asks for no password (it ignores the one sent); it refuses a WebDAV body not
/// typed as XML (415), and Carnet types every body it sends; `/.well-known/carddav` answers 301
/// on Radicale and 302 on Xandikos, and the transport follows both with the request's body;
/// Radicale stores a card re-serialized (its properties sorted), Xandikos byte for byte;
/// Radicale does not answer `supported-address-data` (taken as 3.0 alone, as RFC 6352 says),
/// and Xandikos names its element `content-type` where RFC 6352 says `address-data-type`
/// (both are read); Radicale does not name `sync-collection` in its `DAV:` header though it
/// does it, so no class of that header is taken to say a report is missing. SabreDAV (Nextcloud, Baïkal) truncates a large sync-collection answer (507
/// on the collection, RFC 6578 section 3.6), which the client continues from the token given,
/// as the RFC says of every server (tested against `Support/ScriptedDAVServer`, since no server
/// here truncates).
struct ServerProfile: Equatable, Sendable {
    /// As messages and tests name it.
    let name: String
    /// The statuses with which the server answers a sync-collection REPORT whose token it does
    /// not know (the address book deleted and made again, or restored from a backup): the sync
    /// then asks for everything, as for a first sync. RFC 6578 says 403 (valid-sync-token);
    /// servers also answer 400, 409 or 412.
    let unknownTokenStatuses: Set<Int>
    /// Whether the server stores a second card with a UID the address book holds. RFC 6352 says
    /// to refuse it (409, no-uid-conflict), as Radicale does; where a server takes it, another
    /// client's card of a UID can land between this sync's listing and its upload of a new
    /// contact of that UID, so the sync asks again what changed after sending new cards.
    let storesDuplicateUIDs: Bool

    static let standard = ServerProfile(name: "CardDAV", unknownTokenStatuses: [400, 403, 409, 412], storesDuplicateUIDs: false)

    /// Xandikos answers a commit its repository does not have with 500 (Internal Server Error),
    /// and stores a second card of one UID.
    static let xandikos = ServerProfile(
        name: "Xandikos", unknownTokenStatuses: standard.unknownTokenStatuses.union([500]), storesDuplicateUIDs: true)

    /// The profile of the server that said `evidence`: Xandikos by its token, a git commit (40
    /// hex digits), where Radicale's is a URI as RFC 6578 asks (Xandikos's `DAV:` classes name
    /// no server: Radicale's are a subset of them); else the standard one.
    init(recognising evidence: ServerEvidence) {
        if let token = evidence.syncToken, Self.isGitCommit(token) {
            self = .xandikos
        } else {
            self = .standard
        }
    }

    private init(name: String, unknownTokenStatuses: Set<Int>, storesDuplicateUIDs: Bool) {
        self.name = name
        self.unknownTokenStatuses = unknownTokenStatuses
        self.storesDuplicateUIDs = storesDuplicateUIDs
    }

    private static func isGitCommit(_ token: String) -> Bool {
        token.utf8.count == 40 && token.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}

/// What a server has said of itself, from which its ``ServerProfile`` is recognised.
///
/// Its `Server:` header is not read: it names the HTTP front, not the CardDAV server
/// (`WSGIServer/0.2` for Radicale's own, `aiohttp` for Xandikos, Apache or nginx before
/// Nextcloud and Baïkal).
struct ServerEvidence: Equatable, Sendable {
    /// The compliance classes of the server's `DAV:` header (RFC 4918 section 10.1; RFC 6352
    /// section 6.1 adds `addressbook`), lowercased; nil until an answer carried the header.
    var davClasses: Set<String>?
    /// The sync token the server last gave, or was asked from (RFC 6578).
    var syncToken: String?

    /// Takes the `DAV:` header of an answer (Radicale sends it with every PROPFIND, every server
    /// with its answer to OPTIONS); an answer without one changes nothing.
    mutating func read(_ response: HTTPResponse) {
        guard let header = response.headers["dav"] else { return }
        let classes = header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        davClasses = (davClasses ?? []).union(classes)
    }
}
