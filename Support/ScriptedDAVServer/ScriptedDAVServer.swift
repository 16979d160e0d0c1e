@_exported import DAVTestServer
import Foundation
import TestTools

/// A scripted CardDAV server on 127.0.0.1 that answers as a real server's quirk answers, for the
/// quirks that no server installed here shows. It is the one double among the sync tests'
/// servers, allowed because the behaviour it stands for cannot be had otherwise: Radicale and
/// Xandikos never show these quirks, and Debian's SabreDAV (1.8) predates sync-collection. Every
/// other sync behaviour is tested against the real servers (``RadicaleServer``, ``XandikosServer``).
///
/// It speaks just enough CardDAV over HTTP/1.1 for Carnet's client and another client (curl) to
/// use it as they would a real server: OPTIONS (a `DAV:` header of SabreDAV's classes),
/// discovery (PROPFIND of `current-user-principal`, `addressbook-home-set` and the home's
/// address books, with `resourcetype`, `displayname`, `getctag`, `sync-token`,
/// `supported-address-data`), MKCOL of an address book, REPORT
/// `sync-collection` (RFC 6578) and `addressbook-multiget` (RFC 6352), GET, PUT and DELETE of
/// cards with strong ETags and `If-Match`/`If-None-Match`, and `no-uid-conflict`. Its layout is
/// SabreDAV's (Nextcloud, Baïkal): the principal at `/principals/USER/`, the address book home at
/// `/addressbooks/USER/`, empty on start. Its sync tokens are URIs, as RFC 6578 asks.
///
/// Each quirk is a case of ``Quirk``, off unless given; ``setQuirks(_:)`` changes them between
/// requests (the script reads them at every request). A real process (`python3`), so the client
/// under test talks to it over a real socket, as it would to the server it stands for. Cards are
/// kept as files in its folder (``storedCards(user:collection:)`` reads them); ``stop()`` (or
/// dropping it) ends the process and removes the folder.
public final class ScriptedDAVServer: DAVTestServer, @unchecked Sendable {
    /// A way a real server answers that the servers installed here do not.
    public enum Quirk: Hashable, Sendable {
        /// RFC 6578 section 3.6: a sync-collection REPORT is answered with at most `pageSize`
        /// changes and, when there were more, a `507 Insufficient Storage` response for the
        /// collection itself and a sync-token to continue from. SabreDAV's servers
        /// (Nextcloud, Baïkal) page large address books this way.
        case truncatesSyncCollection(pageSize: Int)

        /// Its `DAV:` header (the answer to OPTIONS) names Nextcloud's own classes after
        /// SabreDAV's (`nextcloud-checksum-update`, `nc-calendar-search`,
        /// `nc-enable-birthday-calendar`), as Nextcloud's does: how a client tells it from
        /// another SabreDAV server.
        case announcesNextcloud

        /// A new card with a UID another card of the address book has is refused with `400 Bad
        /// Request` and SabreDAV's error body ("VCard object with uid already exists in this
        /// addressbook collection."), as Nextcloud's CardDAV backend refuses it, where RFC 6352
        /// says 409 with `no-uid-conflict`. A card changed over its own href is not checked.
        case refusesTakenUIDWithBadRequest

        /// Every PUT is answered with no `ETag`, as SabreDAV answers one whose card it stored
        /// changed (it repairs a vCard it finds wanting; RFC 7231 section 4.3.4 forbids an ETag
        /// then): the client must ask for the ETag.
        case omitsETagFromPut

        /// The setting the script reads (`settings.json`).
        var setting: (key: String, value: Any) {
            switch self {
            case let .truncatesSyncCollection(pageSize):
                precondition(pageSize > 0, "a page holds at least one change")
                return ("sync_page_size", pageSize)
            case .announcesNextcloud: return ("announces_nextcloud", true)
            case .refusesTakenUIDWithBadRequest: return ("uid_conflict_bad_request", true)
            case .omitsETagFromPut: return ("put_omits_etag", true)
            }
        }
    }

    /// One sync-collection REPORT the server answered: the token asked from ("" for none), the
    /// token answered, and whether the answer was truncated (507 on the collection).
    public struct SyncCollectionRequest: Equatable, Sendable, Decodable {
        public var asked: String
        public var answered: String
        public var truncated: Bool
    }

    public let name = "scripted CardDAV server"
    public let port: Int
    /// `http://127.0.0.1:PORT/`
    public let url: URL
    private let folder: URL
    private let process: Process
    private let lock = NSLock()
    private var stopped = false
    private var quirks: [Quirk]
    private var tokenEpoch = 0

    /// Starts a server where each of `users` (name → password) may log in, with `quirks`.
    public init(users: [String: String] = ["carnet": "secret"], quirks: [Quirk] = []) throws {
        self.quirks = quirks
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-scripted-dav-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("collections"), withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("server.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        try JSONSerialization.data(withJSONObject: users).write(to: folder.appendingPathComponent("users.json"))
        try Self.writeSettings(quirks: quirks, tokenEpoch: 0, in: folder)
        let portFile = folder.appendingPathComponent("port")
        let log = folder.appendingPathComponent("log")
        process = try Loopback.start(TestTool.path("python3"), [script.path, folder.path, portFile.path], log: log)
        let port = try Loopback.port(writtenTo: portFile, by: process, log: log, folder: folder, what: "the scripted CardDAV server")
        self.port = port
        url = URL(string: "http://127.0.0.1:\(port)/")!
    }

    deinit { stop() }

    /// From the next request on, the server shows `quirks` (and no other).
    public func setQuirks(_ quirks: [Quirk]) throws {
        let epoch = lock.withLock { () -> Int in
            self.quirks = quirks
            return tokenEpoch
        }
        try Self.writeSettings(quirks: quirks, tokenEpoch: epoch, in: folder)
    }

    /// From the next request on, every sync token given before is unknown to the server (403
    /// `valid-sync-token`), as to a server restored from a backup: a client must list the whole
    /// collection again.
    public func forgetSyncTokens() throws {
        let (quirks, epoch) = lock.withLock { () -> ([Quirk], Int) in
            tokenEpoch += 1
            return (self.quirks, tokenEpoch)
        }
        try Self.writeSettings(quirks: quirks, tokenEpoch: epoch, in: folder)
    }

    /// The sync-collection REPORTs answered so far, in order.
    public func syncCollectionRequests() -> [SyncCollectionRequest] {
        let text = (try? String(contentsOf: folder.appendingPathComponent("sync-log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(SyncCollectionRequest.self, from: Data($0.utf8)) }
    }

    public func principal(_ user: String) -> URL { url.appendingPathComponent("principals/\(user)/") }

    public func home(_ user: String) -> URL { url.appendingPathComponent("addressbooks/\(user)/") }

    public func storedCards(user: String, collection: String) -> [String] {
        let path = folder.appendingPathComponent("collections/\(user)/\(collection)").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".vcf") }.sorted()
    }

    public func storedCard(user: String, collection: String, name: String) -> String? {
        try? String(contentsOf: folder.appendingPathComponent("collections/\(user)/\(collection)/\(name)"), encoding: .utf8)
    }

    /// Ends the server (SIGKILL, see ``Loopback/end(_:)``) and removes its folder.
    public func stop() {
        Loopback.stop(process, removing: folder, once: lock, &stopped)
    }

    /// Written whole and renamed into place, so the script never reads half a file.
    private static func writeSettings(quirks: [Quirk], tokenEpoch: Int, in folder: URL) throws {
        var settings: [String: Any] = ["token_epoch": tokenEpoch]
        for quirk in quirks { settings[quirk.setting.key] = quirk.setting.value }
        try JSONSerialization.data(withJSONObject: settings).write(to: folder.appendingPathComponent("settings.json"), options: .atomic)
    }

    private static let script = #"""
        import base64, hashlib, json, os, re, sys, threading
        import xml.etree.ElementTree as ET
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from urllib.parse import quote, unquote, urlsplit
        from xml.sax.saxutils import escape

        folder, port_file = sys.argv[1], sys.argv[2]
        users = json.load(open(os.path.join(folder, "users.json")))
        D, C, CS = "DAV:", "urn:ietf:params:xml:ns:carddav", "http://calendarserver.org/ns/"
        TOKEN = "http://carnet.test/ns/sync/"
        SABRE_CLASSES = "1, 3, extended-mkcol, access-control, calendarserver-principal-property-search, addressbook"
        NEXTCLOUD_CLASSES = "nextcloud-checksum-update, nc-calendar-search, nc-enable-birthday-calendar"
        lock = threading.Lock()
        state = {"seq": 0, "books": {}}  # (user, name) -> book

        def settings():
            return json.load(open(os.path.join(folder, "settings.json")))

        class Book:
            def __init__(self, user, name, displayname):
                self.user, self.name, self.displayname = user, name, displayname
                self.cards = {}  # name -> (etag, text)
                self.log = []  # (seq, name, deleted)
                self.created = state["seq"]
                self.dir = os.path.join(folder, "collections", user, name)
                self.path = "/addressbooks/%s/%s/" % (user, name)
                os.makedirs(self.dir, exist_ok=True)
            def change(self, name, deleted):
                state["seq"] += 1
                self.log.append((state["seq"], name, deleted))
            def token(self, seq):
                return "%s%d-%d" % (TOKEN, settings()["token_epoch"], seq)

        def etag_of(data):
            return '"%s"' % hashlib.sha1(data).hexdigest()

        def unfolded_uid(text):
            m = re.search(r"^UID[;:](?:[^:\r\n]*:)?(.*)$", re.sub(r"\r?\n[ \t]", "", text), re.M)
            return m.group(1).strip() if m else None

        def href(path):
            return escape(quote(path, safe="/"))

        def multistatus(responses, token=None):
            body = '<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:" xmlns:c="%s" xmlns:cs="%s">' % (C, CS)
            body += "".join(responses)
            if token is not None: body += "<d:sync-token>%s</d:sync-token>" % escape(token)
            return (body + "</d:multistatus>").encode()

        def propstats(found, missing):
            out = ""
            if found: out += "<d:propstat><d:prop>%s</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>" % "".join(found)
            if missing: out += "<d:propstat><d:prop>%s</d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>" % "".join(missing)
            return out

        PREFIX = {D: "d", C: "c", CS: "cs"}

        def element(ns, name, inner):
            tag = "%s:%s" % (PREFIX[ns], name) if ns in PREFIX else '%s xmlns="%s"' % (name, ns)
            close = tag.split(" ")[0]
            return "<%s/>" % tag if inner == "" else "<%s>%s</%s>" % (tag, inner, close)

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args): pass

            def answer(self, status, body=b"", headers=None, content_type="application/xml; charset=utf-8"):
                self.send_response(status)
                for k, v in (headers or {}).items(): self.send_header(k, v)
                if body: self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if body and self.command != "HEAD": self.wfile.write(body)

            def user(self):
                auth = self.headers.get("Authorization") or ""
                if not auth.startswith("Basic "): return None
                try: name, _, password = base64.b64decode(auth[6:]).decode().partition(":")
                except Exception: return None
                return name if users.get(name) == password else None

            def handle_any(self):
                length = int(self.headers.get("Content-Length") or 0)
                self.body = self.rfile.read(length) if length else b""
                self.path_ = unquote(urlsplit(self.path).path)
                if self.path_.startswith("/.well-known/carddav"):
                    return self.answer(301, headers={"Location": "/"})
                self.me = self.user()
                if self.me is None:
                    return self.answer(401, headers={"WWW-Authenticate": 'Basic realm="carnet"'})
                with lock:
                    self.route()

            def __getattr__(self, name):
                if name.startswith("do_"): return self.handle_any
                raise AttributeError(name)

            # Where a path is: ("root",), ("principal", user), ("home", user), ("book", user, name), ("card", user, book, name)
            def resource(self, path):
                parts = [p for p in path.split("/") if p]
                if not parts: return ("root",)
                if parts[0] == "principals" and len(parts) == 2: return ("principal", parts[1])
                if parts[0] == "addressbooks" and 2 <= len(parts) <= 4:
                    return (["home", "book", "card"][len(parts) - 2],) + tuple(parts[1:])
                return None

            def route(self):
                where = self.resource(self.path_)
                if where is None: return self.answer(404)
                if len(where) > 1 and where[1] != self.me: return self.answer(403)
                method = getattr(self, "dav_" + self.command, None)
                if method is None: return self.answer(405)
                method(where)

            def book(self, where):
                return state["books"].get((where[1], where[2])) if len(where) >= 3 else None

            # MARK: OPTIONS

            def dav_OPTIONS(self, where):
                if not self.exists(where): return self.answer(404)
                dav = SABRE_CLASSES + (", " + NEXTCLOUD_CLASSES if settings().get("announces_nextcloud") else "")
                allow = "OPTIONS, GET, HEAD, DELETE, PROPFIND, PUT, MKCOL, REPORT"
                self.answer(200, headers={"DAV": dav, "Allow": allow, "MS-Author-Via": "DAV"})

            # MARK: PROPFIND

            def props(self, where, path):
                me = self.me
                p = {(D, "current-user-principal"): "<d:href>/principals/%s/</d:href>" % href(me)}
                kind = where[0]
                if kind == "card":
                    book = self.book(where)
                    etag, _ = book.cards[where[3]]
                    p[(D, "resourcetype")] = ""
                    p[(D, "getetag")] = escape(etag)
                    p[(D, "getcontenttype")] = "text/vcard; charset=utf-8"
                    return p
                p[(D, "resourcetype")] = "<d:collection/>"
                if kind == "principal":
                    p[(D, "resourcetype")] = "<d:collection/><d:principal/>"
                    p[(C, "addressbook-home-set")] = "<d:href>/addressbooks/%s/</d:href>" % href(me)
                if kind == "book":
                    book = self.book(where)
                    token = book.token(state["seq"])
                    p[(D, "resourcetype")] = "<d:collection/><c:addressbook/>"
                    p[(D, "displayname")] = escape(book.displayname)
                    p[(CS, "getctag")] = escape(token)
                    p[(D, "sync-token")] = escape(token)
                    p[(C, "supported-address-data")] = (
                        '<c:address-data-type content-type="text/vcard" version="3.0"/>'
                        '<c:address-data-type content-type="text/vcard" version="4.0"/>')
                return p

            def exists(self, where):
                if where[0] in ("book", "card") and self.book(where) is None: return False
                if where[0] == "card" and where[3] not in self.book(where).cards: return False
                return True

            def members(self, where, path):
                base = path if path.endswith("/") else path + "/"
                if where[0] == "home":
                    return [(("book", where[1], b.name), base + b.name + "/") for (u, _), b in sorted(state["books"].items()) if u == where[1]]
                if where[0] == "book":
                    return [(("card",) + where[1:] + (name,), base + name) for name in sorted(self.book(where).cards)]
                return []

            def dav_PROPFIND(self, where):
                if not self.exists(where): return self.answer(404)
                wanted = None
                if self.body:
                    try: root = ET.fromstring(self.body)
                    except ET.ParseError: return self.answer(400)
                    prop = root.find("{DAV:}prop")
                    if prop is not None:
                        wanted = [tuple(child.tag[1:].split("}", 1)) for child in prop]
                targets = [(where, self.path_)]
                if self.headers.get("Depth", "infinity") == "1": targets += self.members(where, self.path_)
                responses = []
                for target, path in targets:
                    have = self.props(target, path)
                    names = wanted if wanted is not None else list(have)
                    found = [element(ns, n, have[(ns, n)]) for ns, n in names if (ns, n) in have]
                    missing = [element(ns, n, "") for ns, n in names if (ns, n) not in have]
                    responses.append("<d:response><d:href>%s</d:href>%s</d:response>" % (href(path), propstats(found, missing)))
                self.answer(207, multistatus(responses))

            # MARK: REPORT

            def dav_REPORT(self, where):
                book = self.book(where)
                if where[0] != "book" or book is None: return self.answer(404 if where[0] == "book" else 405)
                try: root = ET.fromstring(self.body)
                except ET.ParseError: return self.answer(400)
                if root.tag == "{DAV:}sync-collection": return self.sync_collection(book, root)
                if root.tag == "{%s}addressbook-multiget" % C: return self.multiget(book, root)
                self.answer(501)

            def card_response(self, book, name, with_data):
                etag, text = book.cards[name]
                found = ["<d:getetag>%s</d:getetag>" % escape(etag)]
                if with_data: found.append("<c:address-data>%s</c:address-data>" % escape(text))
                return "<d:response><d:href>%s</d:href>%s</d:response>" % (href(book.path + name), propstats(found, []))

            def gone_response(self, book, name):
                return "<d:response><d:href>%s</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>" % href(book.path + name)

            def sync_collection(self, book, root):
                asked = (root.findtext("{DAV:}sync-token") or "").strip()
                since = None
                if asked:
                    epoch = "%s%d-" % (TOKEN, settings()["token_epoch"])
                    seq = asked[len(epoch):] if asked.startswith(epoch) else ""
                    if not seq.isdigit() or not book.created <= int(seq) <= state["seq"]:
                        body = b'<?xml version="1.0" encoding="utf-8"?>\n<d:error xmlns:d="DAV:"><d:valid-sync-token/></d:error>'
                        return self.answer(403, body)
                    since = int(seq)
                latest = {}
                for seq, name, deleted in book.log:
                    if since is None or seq > since: latest[name] = (seq, deleted)
                changes = sorted((seq, name, deleted) for name, (seq, deleted) in latest.items() if since is not None or not deleted)
                page = settings().get("sync_page_size")
                truncated = bool(page) and len(changes) > page
                if truncated: changes = changes[:page]
                token = book.token(changes[-1][0] if truncated else max(since or 0, state["seq"]))
                responses = [self.gone_response(book, name) if deleted else self.card_response(book, name, False) for _, name, deleted in changes]
                if truncated:
                    responses.append("<d:response><d:href>%s</d:href><d:status>HTTP/1.1 507 Insufficient Storage</d:status></d:response>" % href(book.path))
                with open(os.path.join(folder, "sync-log"), "a") as log:
                    log.write(json.dumps({"asked": asked, "answered": token, "truncated": truncated}) + "\n")
                self.answer(207, multistatus(responses, token))

            def multiget(self, book, root):
                responses = []
                for element_ in root.findall("{DAV:}href"):
                    name = unquote(urlsplit((element_.text or "").strip()).path).rsplit("/", 1)[-1]
                    responses.append(self.card_response(book, name, True) if name in book.cards else self.gone_response(book, name))
                self.answer(207, multistatus(responses))

            # MARK: Cards

            def dav_GET(self, where):
                if where[0] != "card" or not self.exists(where): return self.answer(404)
                etag, text = self.book(where).cards[where[3]]
                self.answer(200, text.encode(), {"ETag": etag}, "text/vcard; charset=utf-8")

            dav_HEAD = dav_GET

            def dav_PUT(self, where):
                book = self.book(where)
                if where[0] != "card": return self.answer(405)
                if book is None: return self.answer(409)
                name, current = where[3], book.cards.get(where[3])
                if self.headers.get("If-None-Match") == "*" and current: return self.answer(412)
                match = self.headers.get("If-Match")
                if match and (current is None or (match != "*" and match != current[0])): return self.answer(412)
                text = self.body.decode("utf-8")
                uid = unfolded_uid(text)
                bad_request = settings().get("uid_conflict_bad_request")
                for other, (_, other_text) in book.cards.items():
                    if other != name and uid is not None and unfolded_uid(other_text) == uid:
                        if bad_request and current: break
                        if bad_request:
                            body = ('<?xml version="1.0" encoding="utf-8"?>\n<d:error xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns">'
                                    '<s:exception>Sabre\\DAV\\Exception\\BadRequest</s:exception>'
                                    '<s:message>VCard object with uid already exists in this addressbook collection.</s:message></d:error>')
                            return self.answer(400, body.encode())
                        body = ('<?xml version="1.0" encoding="utf-8"?>\n<d:error xmlns:d="DAV:" xmlns:c="%s"><c:no-uid-conflict>'
                                '<d:href>%s</d:href></c:no-uid-conflict></d:error>' % (C, href(book.path + other)))
                        return self.answer(409, body.encode())
                etag = etag_of(self.body)
                book.cards[name] = (etag, text)
                book.change(name, False)
                with open(os.path.join(book.dir, name), "wb") as f: f.write(self.body)
                self.answer(204 if current else 201, headers={} if settings().get("put_omits_etag") else {"ETag": etag})

            def dav_DELETE(self, where):
                book = self.book(where)
                if book is None: return self.answer(404)
                if where[0] == "book":
                    del state["books"][(where[1], where[2])]
                    for name in os.listdir(book.dir): os.remove(os.path.join(book.dir, name))
                    os.rmdir(book.dir)
                    return self.answer(204)
                if where[0] != "card": return self.answer(405)
                current = book.cards.get(where[3])
                if current is None: return self.answer(404)
                match = self.headers.get("If-Match")
                if match and match != "*" and match != current[0]: return self.answer(412)
                del book.cards[where[3]]
                book.change(where[3], True)
                os.remove(os.path.join(book.dir, where[3]))
                self.answer(204)

            def dav_MKCOL(self, where):
                if where[0] != "book": return self.answer(405)
                if self.book(where) is not None: return self.answer(405)
                displayname = where[2]
                if self.body:
                    try: displayname = ET.fromstring(self.body).findtext(".//{DAV:}displayname") or displayname
                    except ET.ParseError: return self.answer(400)
                state["books"][(where[1], where[2])] = Book(where[1], where[2], displayname)
                self.answer(201)

        ThreadingHTTPServer.daemon_threads = True
        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        with open(port_file + ".tmp", "w") as f: f.write(str(server.server_address[1]))
        os.rename(port_file + ".tmp", port_file)
        server.serve_forever()
        """#
}
