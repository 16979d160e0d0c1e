import CCurl
import CarnetModels
import Foundation

/// One HTTP request of the CardDAV conversation.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header names lowercased.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public var isSuccess: Bool { (200..<300).contains(status) }
}

/// How the sync sends requests: ``CurlTransport`` in the program, a wrapper in tests that
/// stops it midway (as a kill would).
public protocol HTTPTransport: AnyObject {
    /// The response, whatever its status; throws only when no response came
    /// (``CarnetModels/SyncFailure/unreachable(server:reason:)`` or ``CarnetModels/SyncFailure/tls(server:reason:)``).
    func send(_ request: HTTPRequest) throws(CarnetError) -> HTTPResponse
}

/// libcurl's easy interface: one handle per transport, so a server that keeps connections open
/// is spoken to over one; each request blocks in curl (poll) until the answer is in. HTTP/1.1 and
/// TLS with the system's certificates (OpenSSL on Debian).
///
/// Foundation's URLSession, the first choice, is libcurl too on Linux, driven through its multi
/// interface and libdispatch: it kept a core busy for the whole time it waited for each answer
/// (about one core-second per second of waiting, most of it in the kernel), which on a small
/// machine is taken from the server (Radicale on the same host) it waits for; it reported every
/// TLS failure as an unknown error with OpenSSL's text; and it waited forever on a 401 it had no
/// credential for (swift-corelibs-foundation issue 5456). The easy interface has none of the three.
public final class CurlTransport: HTTPTransport {
    private let handle: UnsafeMutableRawPointer?
    private let timeout: TimeInterval

    /// `timeout`: how long to wait to connect, and how long the server may send nothing.
    public init(timeout: TimeInterval = 30) {
        handle = curl_easy_init()
        self.timeout = timeout
    }

    deinit { curl_easy_cleanup(handle) }

    /// What curl hands the callbacks, one request at a time.
    private final class Received {
        var body = Data()
        var headers: [String: String] = [:]
    }

    private static let receiveBody: carnet_curl_receive = { data, size, count, context in
        guard let data, let context else { return size * count }
        Unmanaged<Received>.fromOpaque(context).takeUnretainedValue().body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: size * count)
        return size * count
    }

    /// One header line at a time; a status line (the final answer after a `100 Continue`) starts the headers again.
    private static let receiveHeader: carnet_curl_receive = { data, size, count, context in
        guard let data, let context else { return size * count }
        let received = Unmanaged<Received>.fromOpaque(context).takeUnretainedValue()
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            received.headers = [:]
        } else if let colon = line.firstIndex(of: ":") {
            received.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return size * count
    }

    public func send(_ request: HTTPRequest) throws(CarnetError) -> HTTPResponse {
        let server = request.url.host.map { host in request.url.port.map { "\(host):\($0)" } ?? host } ?? request.url.absoluteString
        guard let curl = handle else { throw .sync(.unreachable(server: server, reason: "libcurl could not start")) }
        curl_easy_reset(curl)  // keeps the open connections
        let received = Received()
        var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var headers: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headers) }
        for (name, value) in request.headers { headers = curl_slist_append(headers, "\(name): \(value)") }
        headers = curl_slist_append(headers, "Expect:")  // no 100-continue round trip before a body
        let body = request.body.map { [UInt8]($0) + [0] }  // a C string's end, so an empty body has an address too
        let code = withExtendedLifetime(received) { () -> CURLcode in
            let context = Unmanaged.passUnretained(received).toOpaque()
            return request.url.absoluteString.withCString { url in
                request.method.withCString { method in
                    errorText.withUnsafeMutableBufferPointer { errorBuffer in
                        func perform(_ bodyBytes: UnsafeRawPointer?) -> CURLcode {
                            _ = carnet_curl_set_pointer(curl, CURLOPT_URL, UnsafeMutableRawPointer(mutating: url))
                            _ = carnet_curl_set_pointer(curl, CURLOPT_CUSTOMREQUEST, UnsafeMutableRawPointer(mutating: method))
                            if let bodyBytes, let body {
                                _ = carnet_curl_set_size(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count - 1))
                                _ = carnet_curl_set_pointer(curl, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: bodyBytes))
                            } else {
                                _ = carnet_curl_set_long(curl, CURLOPT_HTTPGET, 1)
                            }
                            _ = carnet_curl_set_pointer(curl, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers))
                            _ = carnet_curl_set_receiver(curl, CURLOPT_WRITEFUNCTION, Self.receiveBody)
                            _ = carnet_curl_set_pointer(curl, CURLOPT_WRITEDATA, context)
                            _ = carnet_curl_set_receiver(curl, CURLOPT_HEADERFUNCTION, Self.receiveHeader)
                            _ = carnet_curl_set_pointer(curl, CURLOPT_HEADERDATA, context)
                            _ = carnet_curl_set_pointer(curl, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer.baseAddress))
                            _ = carnet_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
                            _ = carnet_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT_MS, Int(timeout * 1000))
                            _ = carnet_curl_set_long(curl, CURLOPT_LOW_SPEED_LIMIT, 1)
                            _ = carnet_curl_set_long(curl, CURLOPT_LOW_SPEED_TIME, max(1, Int(timeout)))
                            return curl_easy_perform(curl)
                        }
                        guard let body else { return perform(nil) }
                        return body.withUnsafeBytes { perform($0.baseAddress) }
                    }
                }
            }
        }
        guard code == CURLE_OK else {
            let text = String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let reason = text.isEmpty ? String(cString: curl_easy_strerror(code)) : text
            throw .sync(Self.failure(code, reason: reason, osError: carnet_curl_get_long(curl, CURLINFO_OS_ERRNO), server: server))
        }
        return HTTPResponse(status: carnet_curl_get_long(curl, CURLINFO_RESPONSE_CODE), headers: received.headers, body: received.body)
    }

    /// curl's failure as one plain line: what went wrong, in words, not OpenSSL's error stack.
    static func failure(_ code: CURLcode, reason: String, osError: Int, server: String) -> SyncFailure {
        switch code {
        case CURLE_COULDNT_CONNECT:
            return .unreachable(server: server, reason: osError == Int(ECONNREFUSED) ? "connection refused" : Self.plain(reason))
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .unreachable(server: server, reason: "no such host")
        case CURLE_OPERATION_TIMEDOUT: return .unreachable(server: server, reason: "timed out")
        case CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR:
            return .unreachable(server: server, reason: "the connection closed before an answer came")
        case CURLE_PEER_FAILED_VERIFICATION:
            // "SSL certificate problem: self-signed certificate", "SSL: no alternative certificate subject name matches …"
            var detail = Self.plain(reason)
            for prefix in ["SSL certificate problem: ", "SSL: "] where detail.hasPrefix(prefix) { detail = String(detail.dropFirst(prefix.count)) }
            return .tls(server: server, reason: "its certificate is not trusted: \(detail)")
        case CURLE_SSL_CONNECT_ERROR:
            return .tls(server: server, reason: "the TLS handshake failed: \(Self.plain(reason)); is it an https server on that port?")
        case CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
             CURLE_SSL_ENGINE_INITFAILED, CURLE_USE_SSL_FAILED, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            return .tls(server: server, reason: Self.plain(reason))
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_BAD_CONTENT_ENCODING:
            return .server("\(server) did not answer in HTTP (\(Self.plain(reason)))")
        default:
            return .unreachable(server: server, reason: Self.plain(reason))
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
