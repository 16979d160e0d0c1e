import CarnetModels
import Foundation

/// A card as the server has it.
struct RemoteCard {
    var href: String
    var etag: String
    var text: String
}

/// What the server says changed: members with their ETags, members removed, and the token to
/// ask from next time. `complete` when it lists the whole collection (no token, or a first sync).
struct RemoteChanges {
    var changed: [(href: String, etag: String)] = []
    var removed: [String] = []
    var token: String?
    var complete = true
}

enum PutOutcome {
    case stored(etag: String)
    /// If-Match or If-None-Match failed: the server's card is not the one this side last saw.
    case preconditionFailed
    case notFound
    /// Another card of the collection has this card's UID (RFC 6352's `no-uid-conflict`).
    case uidTaken
    case refused(status: Int, reason: String)
}

enum DeleteOutcome {
    case deleted, notFound, preconditionFailed
    case refused(status: Int)
}

/// The CardDAV requests Carnet makes (RFC 6352, RFC 6578), over an `HTTPTransport`.
///
/// Hrefs are kept as paths with percent-escapes decoded, so the server's way of escaping (one
/// escapes `@`, another does not) never makes one card two; they are escaped again, the same
/// strict way, when a request names them.
final class CardDAVClient {
    let collection: URL
    private let transport: HTTPTransport
    private let authorization: String?
    private let certificateAuthority: String?
    private(set) var requests = 0
    /// What the server has said of itself in this client's answers (see ``ServerEvidence``).
    private(set) var evidence = ServerEvidence() {
        didSet { if evidence != oldValue { profile = ServerProfile(recognising: evidence) } }
    }
    /// What this server needs of Carnet: recognised when the sync begins (``recognise(token:)``)
    /// and kept for its length, refined as answers say more (a token of another form).
    private(set) var profile = ServerProfile.standard

    init(collection: URL, username: String, password: String?, transport: HTTPTransport, certificateAuthority: String? = nil) {
        self.collection = collection
        self.transport = transport
        self.certificateAuthority = certificateAuthority
        authorization = password.map { "Basic " + Data("\(username):\($0)".utf8).base64EncodedString() }
    }

    var server: String { collection.serverName }

    // MARK: Hrefs

    /// The decoded path of an href as a server writes it (a path or a whole URL).
    static func canonical(_ href: String) -> String {
        var path = Substring(href)
        if let scheme = path.range(of: "://") {
            let rest = path[scheme.upperBound...]
            path = rest.firstIndex(of: "/").map { rest[$0...] } ?? "/"
        }
        return path.removingPercentEncoding ?? String(path)
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// A canonical href escaped for a request: every byte but the unreserved ones, segment by segment.
    static func encoded(_ href: String) -> String {
        href.split(separator: "/", omittingEmptySubsequences: false)
            .map { String($0).addingPercentEncoding(withAllowedCharacters: unreserved) ?? String($0) }.joined(separator: "/")
    }

    /// The URL of a canonical href on this server.
    func url(_ href: String) -> URL {
        URL(string: Self.encoded(href), relativeTo: collection)?.absoluteURL ?? collection
    }

    /// The collection's own canonical href.
    var collectionHref: String { Self.canonical(collection.absoluteString) }

    // MARK: Requests

    private func send(_ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil) throws(CarnetError) -> HTTPResponse {
        var headers = headers
        if let authorization { headers["Authorization"] = authorization }
        if body != nil, headers["Content-Type"] == nil { headers["Content-Type"] = "application/xml; charset=utf-8" }
        requests += 1
        var request = HTTPRequest(method: method, url: url, headers: headers, body: body)
        request.certificateAuthority = certificateAuthority
        let response = try transport.send(request)
        if response.status == 401 { throw .sync(.unauthorized(server: server)) }
        evidence.read(response)
        return response
    }

    /// Recognises the server's profile, once, as a sync begins: its `DAV:` header (asked with
    /// OPTIONS on the collection, unless an answer has already carried one) and the form of
    /// `token`, the one the account holds. The one request a sync makes for it; a server that
    /// does not answer OPTIONS (or not with 2xx) leaves the header unknown, and the token alone
    /// says which it is.
    func recognise(token: String?) throws(CarnetError) {
        if evidence.davClasses == nil { _ = try send("OPTIONS", collection) }
        if let token { evidence.syncToken = token }
    }

    private func multistatus(_ method: String, _ url: URL, depth: String, body: Data) throws(CarnetError) -> Multistatus {
        let response = try send(method, url, headers: ["Depth": depth], body: body)
        guard response.status == 207 else { throw unexpected(response, method, url) }
        return try Multistatus(response.body, from: url)
    }

    private func unexpected(_ response: HTTPResponse, _ method: String, _ url: URL) -> CarnetError {
        let path = Self.canonical(url.absoluteString)
        switch response.status {
        case 403: return .sync(.forbidden(server: server, path: path))
        case 404 where path == collectionHref:
            return .sync(.collectionGone(server: server, path: path))
        default: return .sync(.server("\(method) \(path) answered \(Self.status(response.status))"))
        }
    }

    /// "500 (Internal Server Error)": the code with the words a person looks up.
    static func status(_ code: Int) -> String {
        let words = [
            400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 409: "Conflict", 410: "Gone", 413: "Content Too Large",
            415: "Unsupported Media Type", 423: "Locked", 429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented",
            502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout", 507: "Insufficient Storage",
        ][code]
        return words.map { "\(code) (\($0))" } ?? "\(code)"
    }

    func propfind(_ url: URL, depth: String, props: String) throws(CarnetError) -> Multistatus {
        try multistatus("PROPFIND", url, depth: depth, body: DAV.propfind(props))
    }

    /// RFC 6578: what changed since `token` (everything, with no token). Nil when the server
    /// does not do sync-collection; a token it no longer knows starts again from none.
    ///
    /// A server may answer with part of the changes, a 507 (Insufficient Storage) for the
    /// collection itself and a token to go on from (RFC 6578 section 3.6; SabreDAV's servers,
    /// Nextcloud and Baïkal, page a large address book so): the answer is asked again from each
    /// token given until it is whole, since only the whole of a listing from no token says which
    /// cards are gone.
    func changes(since token: String?) throws(CarnetError) -> RemoteChanges? {
        var asked = token
        var pages: [Multistatus] = []
        while true {
            let response = try send("REPORT", collection, headers: ["Depth": "1"], body: DAV.syncCollection(token: asked))
            guard response.status == 207 else {
                if pages.isEmpty {
                    // The token is too old or unknown (403 valid-sync-token, or the server's own way of
                    // saying so): ask for everything.
                    if token != nil, profile.unknownTokenStatuses.contains(response.status) { return try changes(since: nil) }
                    if profile.noSyncCollectionStatuses.contains(response.status) { return nil }
                }
                throw unexpected(response, "REPORT", collection)
            }
            let page = try Multistatus(response.body, from: collection)
            pages.append(page)
            if let given = page.syncToken { evidence.syncToken = given }
            guard page.responses.contains(where: { $0.status == profile.truncatedStatus && isCollection(Self.canonical($0.href)) }) else { break }
            // Truncated with no way on (no new token, or a page of nothing): asking again would
            // never end, so the members' ETags, which are the whole collection, are compared instead.
            guard let next = page.syncToken, next != asked, page.responses.contains(where: { !isCollection(Self.canonical($0.href)) })
            else { return try listing() }
            asked = next
        }
        var changes = RemoteChanges(token: pages.last?.syncToken, complete: token == nil)
        // A later page tells a later state of a member: each href as the last page names it.
        var named: Set<String> = []
        for item in pages.reversed().flatMap({ $0.responses.reversed() }) {
            let href = Self.canonical(item.href)
            guard !isCollection(href), named.insert(href).inserted else { continue }
            if item.status == 404 {
                changes.removed.append(href)
            } else if let etag = item.property(DAV.dav, "getetag")?.text {
                changes.changed.append((href, etag.trimmingCharacters(in: .whitespacesAndNewlines)))
            }
        }
        changes.changed.reverse()
        changes.removed.reverse()
        return changes
    }

    /// Whether a canonical href is the collection's own (written with or without its last `/`).
    private func isCollection(_ href: String) -> Bool {
        href == collectionHref || href + "/" == collectionHref
    }

    /// Every member with its ETag (PROPFIND, Depth 1): the comparison a server without
    /// sync-collection leaves.
    func listing() throws(CarnetError) -> RemoteChanges {
        let status = try propfind(collection, depth: "1", props: "<d:getetag/><d:resourcetype/>")
        var changes = RemoteChanges(token: nil, complete: true)
        let own = collectionHref
        for item in status.responses {
            let href = Self.canonical(item.href)
            guard href != own, let etag = item.property(DAV.dav, "getetag")?.text else { continue }
            if item.property(DAV.dav, "resourcetype")?.child(DAV.dav, "collection") != nil { continue }
            changes.changed.append((href, etag.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        return changes
    }

    /// The cards at `hrefs` (one addressbook-multiget); members gone meanwhile are left out.
    func cards(_ hrefs: [String]) throws(CarnetError) -> [RemoteCard] {
        guard !hrefs.isEmpty else { return [] }
        let status = try multistatus("REPORT", collection, depth: "1", body: DAV.multiget(hrefs.map(Self.encoded)))
        return status.responses.compactMap { item in
            guard let data = item.property(DAV.cardDAV, "address-data")?.text, let etag = item.property(DAV.dav, "getetag")?.text else {
                return nil
            }
            return RemoteCard(href: Self.canonical(item.href), etag: etag.trimmingCharacters(in: .whitespacesAndNewlines), text: data)
        }
    }

    /// Uploads a card: over the version with `ifMatch`, or only where none is (`ifMatch` nil).
    func put(_ href: String, card: String, ifMatch: String?) throws(CarnetError) -> PutOutcome {
        var headers = ["Content-Type": "text/vcard; charset=utf-8"]
        if let ifMatch, !ifMatch.isEmpty { headers["If-Match"] = ifMatch } else if ifMatch == nil { headers["If-None-Match"] = "*" }
        let target = url(href)
        let response = try send("PUT", target, headers: headers, body: Data(card.utf8))
        let status = response.status
        if response.isSuccess {
            if let etag = response.headers["etag"], !etag.hasPrefix("W/") { return .stored(etag: etag) }
            // No strong ETag in the answer (see `asksETagAfterPut`).
            guard profile.asksETagAfterPut else { return .stored(etag: "") }
            let answer = try propfind(target, depth: "0", props: "<d:getetag/>")
            return .stored(etag: answer.responses.first?.property(DAV.dav, "getetag")?.text ?? "")
        }
        if profile.preconditionFailedStatuses.contains(status) { return .preconditionFailed }
        if profile.cardGoneStatuses.contains(status) { return .notFound }
        if profile.isUIDConflict(status, body: String(decoding: response.body.prefix(2000), as: UTF8.self)) { return .uidTaken }
        if profile.writeFailureStatuses.contains(status), !(ifMatch == nil && profile.newCardRefusalStatuses.contains(status)) {
            throw unexpected(response, "PUT", target)
        }
        return .refused(status: status, reason: String(decoding: response.body.prefix(200), as: UTF8.self))
    }

    func delete(_ href: String, etag: String) throws(CarnetError) -> DeleteOutcome {
        let target = url(href)
        let response = try send("DELETE", target, headers: etag.isEmpty ? [:] : ["If-Match": etag])
        let status = response.status
        if response.isSuccess { return .deleted }
        if profile.cardGoneStatuses.contains(status) { return .notFound }
        if profile.preconditionFailedStatuses.contains(status) { return .preconditionFailed }
        if profile.writeFailureStatuses.contains(status) { throw unexpected(response, "DELETE", target) }
        return .refused(status: status)
    }

    // MARK: What the collection stores

    /// The vCard versions the collection says it stores; asked once, when first needed.
    private var vCardVersions: Set<String>?

    /// Whether the collection says it stores vCard 4.0 (its `supported-address-data`, RFC 6352
    /// section 6.2.2). Asked when a card first needs to know, not at setup: a link made before
    /// has nothing stored, and a server upgraded since is seen. A server that does not answer
    /// is taken as RFC 6352 says of one without the property: 3.0 only.
    func storesVCard4() -> Bool {
        if vCardVersions == nil {
            let answer = try? propfind(collection, depth: "0", props: "<c:supported-address-data/>").responses.first
            vCardVersions = Self.vCardVersions(answer?.property(DAV.cardDAV, "supported-address-data"))
        }
        return vCardVersions?.contains("4.0") == true
    }

    /// Whether a new card of `draft` goes up as vCard 4.0: a group that came as a 4.0
    /// `KIND:group` card, or one made here (no form of its own yet) for a collection that
    /// stores 4.0. Other groups go in Apple's form, which servers of 3.0 alone take.
    func sendsNewCardAsVCard4(_ draft: ContactDraft) -> Bool {
        guard draft.kind == .group else { return false }
        return (draft.groupForm ?? (storesVCard4() ? .vcard4 : .apple)) == .vcard4
    }

    /// The vCard versions of a `supported-address-data` property: each `address-data-type` of
    /// `text/vcard`, RFC 6352's defaults (`text/vcard`, `3.0`) for what it leaves out; 3.0
    /// alone when there is no property. Xandikos names the element `content-type`, read alike.
    static func vCardVersions(_ property: XMLNode?) -> Set<String> {
        guard let property else { return ["3.0"] }
        var versions: Set<String> = []
        for type in property.children where type.namespace == DAV.cardDAV && (type.name == "address-data-type" || type.name == "content-type") {
            let media = (type.attributes["content-type"] ?? "text/vcard").trimmingCharacters(in: .whitespaces).lowercased()
            guard media == "text/vcard" else { continue }
            versions.insert((type.attributes["version"] ?? "3.0").trimmingCharacters(in: .whitespaces))
        }
        return versions.isEmpty ? ["3.0"] : versions
    }

    // MARK: Discovery

    /// An address book collection of the user's home set, with its display name (the last part
    /// of its path when it has none).
    struct FoundCollection: Equatable {
        var url: URL
        var name: String
    }

    /// The address books at or under `url`: `url` itself when it is one (`isCollection`); else
    /// every address book of the user's home set (`current-user-principal` →
    /// `addressbook-home-set`, then a Depth 1 PROPFIND for resourcetype and displayname), by
    /// path. The home set's URL is returned for making one there when it has none.
    func addressBooks(at url: URL) throws(CarnetError) -> (collections: [FoundCollection], isCollection: Bool, home: URL?) {
        let props = "<d:resourcetype/><d:displayname/><d:current-user-principal/><c:addressbook-home-set/>"
        let start = try propfind(url, depth: "0", props: props).responses.first
        if Self.isAddressBook(start) {
            return ([FoundCollection(url: Self.directory(url), name: Self.displayName(start, href: url.path))], true, nil)
        }
        var home = start?.property(DAV.cardDAV, "addressbook-home-set")?.href
        if home == nil, let principal = start?.property(DAV.dav, "current-user-principal")?.href {
            home = try propfind(self.url(Self.canonical(principal)), depth: "0", props: props).responses.first?
                .property(DAV.cardDAV, "addressbook-home-set")?.href
        }
        guard let home else {
            throw .sync(.server("\(url.absoluteString) is not an address book, and names no principal or address book home"))
        }
        let homeURL = self.url(Self.canonical(home))
        let members = try propfind(homeURL, depth: "1", props: "<d:resourcetype/><d:displayname/>").responses
            .filter(Self.isAddressBook)
            .map { FoundCollection(url: Self.directory(self.url(Self.canonical($0.href))), name: Self.displayName($0, href: $0.href)) }
            .sorted { $0.url.absoluteString < $1.url.absoluteString }
        return (members, false, homeURL)
    }

    /// Makes an address book named `carnet/` in the home set `home` and returns its URL.
    func makeAddressBook(in home: URL) throws(CarnetError) -> URL {
        let made = Self.directory(URL(string: "carnet/", relativeTo: Self.directory(home))?.absoluteURL ?? home)
        let response = try send("MKCOL", made, body: DAV.makeAddressBook)
        guard response.isSuccess else { throw unexpected(response, "MKCOL", made) }
        return made
    }

    /// The address book collection at or under `url`: `url` itself when it is one; else the
    /// first address book of the user's home set, made there when the home has none. Returns
    /// it and whether it was made.
    func discover(_ url: URL) throws(CarnetError) -> (collection: URL, created: Bool) {
        let found = try addressBooks(at: url)
        if let first = found.collections.first { return (first.url, false) }
        guard let home = found.home else { throw .sync(.server("\(url.absoluteString) is not an address book")) }
        return (try makeAddressBook(in: home), true)
    }

    /// A collection's display name, trimmed; else the last part of its path, percent-escapes decoded.
    private static func displayName(_ response: DAVResponse?, href: String) -> String {
        let shown = response?.property(DAV.dav, "displayname")?.text.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if !shown.isEmpty { return shown }
        let last = href.split(separator: "/").last.map(String.init) ?? href
        return last.removingPercentEncoding ?? last
    }

    private static func isAddressBook(_ response: DAVResponse?) -> Bool {
        response?.property(DAV.dav, "resourcetype")?.child(DAV.cardDAV, "addressbook") != nil
    }

    /// `url` ending in `/`, as a collection's URL does.
    static func directory(_ url: URL) -> URL {
        url.absoluteString.hasSuffix("/") ? url : URL(string: url.absoluteString + "/") ?? url
    }
}
