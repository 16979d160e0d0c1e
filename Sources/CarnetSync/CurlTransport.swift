import CCurl
import CarnetModels
import Foundation

/// HTTP/1.1 and TLS through the system's libcurl, with the system's certificates; one connection
/// kept open between requests. libcurl is loaded the first time a request is sent (see CCurl.h:
/// linking it, as Foundation's URLSession does, slowed the start of every `carnet` command).
/// Synchronous, as Carnet's commands are; one transport serves one thread at a time.
///
/// It stands in for URLSession: StandardImplementationTests sends a sync's requests through both
/// to real servers and expects the same status, headers and body.
public final class CurlTransport: HTTPTransport {
    /// The largest answer read, by default: far more than any address book's listing or batch
    /// of cards, and small enough that a server sending without end (or a URL that names a
    /// large file) stops the sync with a clear error before memory runs out.
    public static let defaultMaxResponseBytes = 256 * 1_048_576

    private let connectTimeout: TimeInterval
    private let answerTimeout: TimeInterval
    private let maxResponseBytes: Int
    private var http: OpaquePointer?

    /// `connectTimeout`: how long to wait for the connection (a server that is down is told
    /// quickly). `answerTimeout`: how long, once the request is on its way, not a byte may move
    /// (`SyncFailure.noAnswer(server:seconds:)`). `maxResponseBytes`: the largest body read;
    /// past it the request is given up (`SyncFailure.tooLarge(server:limit:)`).
    public init(
        connectTimeout: TimeInterval = 30, answerTimeout: TimeInterval = SyncOptions.defaultAnswerTimeout,
        maxResponseBytes: Int = CurlTransport.defaultMaxResponseBytes
    ) {
        self.connectTimeout = connectTimeout
        self.answerTimeout = answerTimeout
        self.maxResponseBytes = max(1, maxResponseBytes)
    }

    deinit { carnet_http_close(http) }

    public func send(_ request: HTTPRequest) throws(CarnetError) -> HTTPResponse {
        let server = request.url.serverName
        if http == nil {
            var error = [CChar](repeating: 0, count: 256)
            http = carnet_http_open(&error, error.count)
            guard http != nil else { throw .sync(.unreachable(server: server, reason: Self.text(error))) }
        }
        var response = carnet_http_response()
        defer { carnet_http_response_free(&response) }
        // Header values come from Carnet and the server's ETags; a line break in one would start
        // another header, so none is sent.
        let lines = request.headers.sorted { $0.key < $1.key }.map { name, value in
            "\(name): \(value.filter { $0 != "\r" && $0 != "\n" })"
        }
        let milliseconds = { (seconds: TimeInterval) in Int(max(seconds, 0.001) * 1000) }
        withCStrings(lines) { headers in
            let body = request.body ?? Data()
            body.withUnsafeBytes { bytes in
                withOptionalCString(request.certificateAuthority) { ca in
                    carnet_http_perform(
                        http, request.method, request.url.absoluteString, headers, Int32(lines.count),
                        request.body == nil ? nil : (bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)), body.count,
                        milliseconds(connectTimeout), milliseconds(answerTimeout), maxResponseBytes, ca, &response)
                }
            }
        }
        if response.silent != 0 { throw .sync(.noAnswer(server: server, seconds: Int(answerTimeout.rounded(.up)))) }
        if response.too_large != 0 { throw .sync(.tooLarge(server: server, limit: maxResponseBytes)) }
        guard response.code == 0 else {
            let reason = Self.text(withUnsafeBytes(of: response.error) { Array($0.bindMemory(to: CChar.self)) })
            let failure = Self.failure(code: response.code, reason: reason, osError: response.os_error, server: server)
            if request.certificateAuthority != nil, case let .tls(server, reason) = failure {
                throw .sync(.tls(server: server, reason: reason + " (checked against the CA given to carnet sync setup --ca-file only)"))
            }
            throw .sync(failure)
        }
        let headerText = response.headers.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: response.headers_length), as: UTF8.self) } ?? ""
        // The body's bytes become the Data as they are, not copied: a large answer is held once.
        var body = Data()
        if let bytes = response.body {
            body = Data(bytesNoCopy: bytes, count: response.body_length, deallocator: .free)
            response.body = nil
        }
        return HTTPResponse(status: response.status, headers: Self.headers(headerText), body: body)
    }

    /// The last response's header lines, names lowercased; a repeated header's values joined by ", ".
    static func headers(_ text: String) -> [String: String] {
        var headers: [String: String] = [:]
        for line in text.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }).dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        return headers
    }

    private static func text(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// libcurl's result codes (curl/curl.h's CURLcode, a stable ABI) that Carnet tells apart.
    enum Code {
        static let couldNotResolveProxy: Int32 = 5, couldNotResolveHost: Int32 = 6, couldNotConnect: Int32 = 7
        static let weirdServerReply: Int32 = 8, http2: Int32 = 16, timedOut: Int32 = 28, sslConnect: Int32 = 35
        static let gotNothing: Int32 = 52, send: Int32 = 55, receive: Int32 = 56, peerFailedVerification: Int32 = 60
        static let badContentEncoding: Int32 = 61, http2Stream: Int32 = 92
        /// Certificate files, ciphers, engines, revocation lists, pinning: TLS, said in curl's words.
        static let otherTLS: Set<Int32> = [53, 54, 58, 59, 64, 66, 77, 80, 82, 83, 90, 91]
    }

    /// curl's failure as one plain line: what went wrong, in words, not OpenSSL's error stack.
    static func failure(code: Int32, reason: String, osError: Int = 0, server: String) -> SyncFailure {
        switch code {
        case -1: return .tls(server: server, reason: plain(reason))
        case Code.couldNotConnect:
            return .unreachable(server: server, reason: osError == Int(ECONNREFUSED) || osError == 0 ? "connection refused" : plain(reason))
        case Code.couldNotResolveHost, Code.couldNotResolveProxy: return .unreachable(server: server, reason: "no such host")
        case Code.timedOut: return .unreachable(server: server, reason: "timed out")
        case Code.gotNothing, Code.send, Code.receive:
            return .unreachable(server: server, reason: "the connection closed before an answer came")
        case Code.peerFailedVerification:
            // "SSL certificate problem: self-signed certificate", "SSL: no alternative certificate subject name matches …"
            var detail = plain(reason)
            for prefix in ["SSL certificate problem: ", "SSL: "] where detail.hasPrefix(prefix) { detail = String(detail.dropFirst(prefix.count)) }
            return .tls(server: server, reason: "its certificate is not trusted: \(detail)")
        case Code.sslConnect:
            return .tls(server: server, reason: "the TLS handshake failed: \(plain(reason)); is it an https server on that port?")
        case _ where Code.otherTLS.contains(code):
            return .tls(server: server, reason: plain(reason))
        case Code.weirdServerReply, Code.http2, Code.http2Stream, Code.badContentEncoding:
            return .server("\(server) did not answer in HTTP (\(plain(reason)))")
        default:
            return .unreachable(server: server, reason: plain(reason))
        }
    }

    /// An error text of curl's or OpenSSL's as a short plain phrase: "OpenSSL/3.0.19:
    /// error:0A00010B:SSL routines::wrong version number" is "wrong version number".
    static func plain(_ text: String) -> String {
        var text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let last = text.range(of: "::", options: .backwards) { text = String(text[last.upperBound...]) }
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let printable = String(String.UnicodeScalarView(line.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }))
        return printable.count <= 200 ? printable : String(printable.prefix(199)) + "…"
    }
}

/// Calls `body` with `text` as a NUL-terminated C string, or NULL.
private func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}

/// Calls `body` with the strings as a C array of NUL-terminated UTF-8, valid only inside.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress ?? UnsafePointer(bitPattern: 8)!) }
}
