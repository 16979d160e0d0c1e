import Foundation

/// What one kind of CardDAV server needs of Carnet beyond RFC 6352 and RFC 6578: each
/// difference between servers is a named property here, not a test inside the client, and so
/// is every list of statuses the client reads and every rule by which it asks again.
///
/// The client keeps one profile for the sync of one account (`CardDAVClient.profile`),
/// recognised once, when the sync begins, from what the server says of itself
/// (``ServerEvidence``): the compliance classes of its `DAV:` header and the form of the sync
/// token the account holds; a token given later in the sync refines it, with no request of
/// its own. It is not stored: a server upgraded or replaced behind the same URL is seen at the
/// next sync, and the file keeps no column that could go stale.
///
/// Differences between Radicale and Xandikos that need nothing here (the sync suite runs on
/// both): Xandikos asks for no password (it ignores the one sent); it refuses a WebDAV body not
/// typed as XML (415), and Carnet types every body it sends; `/.well-known/carddav` answers 301
/// on Radicale and 302 on Xandikos, and the transport follows both with the request's body;
/// Radicale stores a card re-serialized (its properties sorted), Xandikos byte for byte;
/// Radicale does not answer `supported-address-data` (taken as 3.0 alone, as RFC 6352 says),
/// and Xandikos names its element `content-type` where RFC 6352 says `address-data-type`
/// (both are read); Radicale does not name `sync-collection` in its `DAV:` header though it
/// does it, so no class of that header is taken to say a report is missing. SabreDAV
/// (Nextcloud, Baïkal) truncates a large sync-collection answer (507 on the collection, RFC
/// 6578 section 3.6), which the client continues from the token given, as the RFC says of
/// every server, and leaves the ETag out of its answer to a PUT of a card it changed, which
/// the client then asks for (``asksETagAfterPut``). Quirks no server here shows are tested
/// against `Support/ScriptedDAVServer`.
struct ServerProfile: Equatable, Sendable {
    /// As messages and tests name it.
    var name: String

    // MARK: What statuses mean

    /// The statuses with which the server answers a sync-collection REPORT whose token it does
    /// not know (the address book deleted and made again, or restored from a backup): the sync
    /// then asks for everything, as for a first sync. RFC 6578 says 403 (valid-sync-token);
    /// servers also answer 400, 409 or 412.
    var unknownTokenStatuses: Set<Int> = [400, 403, 409, 412]
    /// The statuses of a sync-collection REPORT (from no token, or from one these statuses
    /// do not read as unknown) that say the server does not do it: RFC 6578 is optional, and a
    /// server without it answers that it does not know the report (403 or 501, RFC 3253's
    /// `supported-report`), the method (405), the body (400, 415, 422), or the collection as a
    /// place to ask it (404). The sync then compares every member's ETag (a PROPFIND, Depth 1).
    var noSyncCollectionStatuses: Set<Int> = [400, 403, 404, 405, 415, 422, 501]
    /// The status of the response for the collection itself that says a sync-collection answer
    /// holds only part of the changes (RFC 6578 section 3.6: 507 Insufficient Storage): the sync
    /// asks again from the token given until the answer is whole.
    var truncatedStatus = 507
    /// The statuses of a PUT over a card (If-Match) or a DELETE that say no card is at the href:
    /// 404, or 410 (Gone) from a server that remembers a card was there.
    var cardGoneStatuses: Set<Int> = [404, 410]
    /// The statuses of a PUT or DELETE whose If-Match or If-None-Match failed (RFC 7232): the
    /// server's card is not the one this side last saw.
    var preconditionFailedStatuses: Set<Int> = [412]
    /// How the server refuses a second card of a UID the collection holds: RFC 6352 section
    /// 6.3.2.1 says 409 with the `no-uid-conflict` precondition. The sync then looks for the
    /// other card and merges rather than skipping the contact.
    var uidConflicts: [UIDConflict] = [UIDConflict(status: 409, says: "no-uid-conflict")]
    /// The statuses of a PUT or DELETE that end the sync rather than skip one card: the account
    /// may not write there (403), or the server cannot take writes now (5xx). Every card would
    /// meet the same answer, and the message names the first.
    var writeFailureStatuses: Set<Int> = Set([403]).union(500..<600)
    /// The statuses among ``writeFailureStatuses`` that, for a new card (If-None-Match), refuse
    /// that card alone: a server that checks what it stores answers 403 for a card it will not
    /// take (a size or a property it refuses), and the other cards go up all the same.
    var newCardRefusalStatuses: Set<Int> = [403]

    // MARK: When to ask again

    /// Whether a PUT answered with no strong ETag is followed by a PROPFIND (Depth 0) of the
    /// card's `getetag`. SabreDAV leaves the ETag out when it stored the card changed (it repairs
    /// a vCard it finds wanting), as RFC 7231 section 4.3.4 asks; without one the link has no
    /// ETag and the next sync fetches back the card it has just sent, and an If-Match cannot be
    /// sent over it.
    var asksETagAfterPut = true
    /// Whether a 412 to an If-Match where the server then has no card is taken as the card gone
    /// from its href (and looked for elsewhere, else sent again as new): RFC 7232 fails If-Match
    /// on a resource that does not exist with 412, not 404, so a 412 alone does not tell a
    /// changed card from a deleted one.
    var preconditionFailedMayMeanGone = true
    /// Whether the server stores a second card with a UID the address book holds. RFC 6352 says
    /// to refuse it (``uidConflicts``), as Radicale does; where a server takes it, another
    /// client's card of a UID can land between this sync's listing and its upload of a new
    /// contact of that UID, so the sync asks again what changed after sending new cards.
    var storesDuplicateUIDs = false
    /// Attempts at sending one contact whose card keeps changing on the server meanwhile (each
    /// 412 fetches, merges and tries again); after them it waits for the next sync.
    var uploadAttempts = 3
    /// Times one sync may ask the server again what changed, to find where a card went (gone
    /// from its href, or its UID taken), or a card of a UID the server took twice.
    var catchUps = 2

    /// A status and a text of the answer's body that, together, say the UID is taken.
    struct UIDConflict: Equatable, Sendable {
        var status: Int
        var says: String
    }

    /// Whether a PUT answered `status` with `body` was refused because another card has its UID.
    func isUIDConflict(_ status: Int, body: String) -> Bool {
        uidConflicts.contains { $0.status == status && body.contains($0.says) }
    }

    // MARK: The servers

    static let standard = ServerProfile(name: "CardDAV")

    /// Xandikos answers a commit its repository does not have with 500 (Internal Server Error),
    /// and stores a second card of one UID.
    static let xandikos: ServerProfile = {
        var profile = ServerProfile(name: "Xandikos")
        profile.unknownTokenStatuses.insert(500)
        profile.storesDuplicateUIDs = true
        return profile
    }()

    /// Nextcloud (SabreDAV with a backend of its own) refuses a second card of one UID with 400
    /// (Bad Request) and SabreDAV's error body, whose message says "VCard object with uid
    /// already exists in this addressbook collection.", not RFC 6352's 409.
    static let nextcloud: ServerProfile = {
        var profile = ServerProfile(name: "Nextcloud")
        profile.uidConflicts.append(UIDConflict(status: 400, says: "uid already exists"))
        return profile
    }()

    /// The profile of the server that said `evidence`: Nextcloud by the classes its `DAV:` header
    /// adds to SabreDAV's (`nextcloud-checksum-update`, `nc-…`); Xandikos by its token, a git
    /// commit (40 hex digits), where Radicale's is a URI as RFC 6578 asks (Xandikos's `DAV:`
    /// classes name no server: Radicale's are a subset of them); else the standard one.
    init(recognising evidence: ServerEvidence) {
        if let classes = evidence.davClasses, classes.contains(where: { $0 == "nextcloud-checksum-update" || $0.hasPrefix("nc-") }) {
            self = .nextcloud
        } else if let token = evidence.syncToken, Self.isGitCommit(token) {
            self = .xandikos
        } else {
            self = .standard
        }
    }

    private init(name: String) {
        self.name = name
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
