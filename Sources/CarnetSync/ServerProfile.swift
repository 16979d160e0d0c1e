import Foundation

/// What one kind of CardDAV server needs of Carnet beyond RFC 6352 and RFC 6578: each
/// difference between servers is a named property here, not a test inside the client.
///
/// The profile is derived per account from what the server has announced, with no request of
/// its own: the form of the sync token it gave. Xandikos keeps each address book as a git
/// repository, and its token is the commit (40 hex digits); Radicale's is a URI, as RFC 6578 asks.
///
/// Differences between Radicale and Xandikos that need nothing here (the sync suite runs on
/// both): Xandikos asks for no password (it ignores the one sent); it refuses a WebDAV body not
/// typed as XML (415), and Carnet types every body it sends; `/.well-known/carddav` answers 301
/// on Radicale and 302 on Xandikos, and the transport follows both with the request's body;
/// Radicale stores a card re-serialized (its properties sorted), Xandikos byte for byte;
/// Radicale does not answer `supported-address-data` (taken as 3.0 alone, as RFC 6352 says),
/// and Xandikos names its element `content-type` where RFC 6352 says `address-data-type`
/// (both are read). SabreDAV (Nextcloud, Baïkal) truncates a large sync-collection answer (507
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

    /// The profile of the server that gave `token` (nil before the first sync: standard).
    init(token: String?) {
        guard let token, token.utf8.count == 40, token.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            self = .standard
            return
        }
        self = .xandikos
    }

    private init(name: String, unknownTokenStatuses: Set<Int>, storesDuplicateUIDs: Bool) {
        self.name = name
        self.unknownTokenStatuses = unknownTokenStatuses
        self.storesDuplicateUIDs = storesDuplicateUIDs
    }
}
