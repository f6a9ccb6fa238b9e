import CLibCurl

/// HTTPS POSTs with libcurl: one easy handle, so consecutive requests reuse one TLS connection
/// (an admin API call is then a round trip, not a handshake). TLS is verified (the system's
/// authorities, or `caFile`); there is no switch to turn that off, and no redirect is followed.
public final class CurlClient {
    private let handle: UnsafeMutableRawPointer

    /// Largest answer read; more is an error (an admin API's replies are lists of names).
    static let maxReplyBytes = 16 << 20

    /// Why a request got no answer: libcurl's words.
    public struct Failure: Error, Sendable { public let message: String }

    public init(caFile: String?, timeoutSeconds: Int) throws(Failure) {
        CurlClient.globalInit
        guard let handle = curl_easy_init() else { throw Failure(message: "libcurl could not start") }
        self.handle = handle
        _ = xt_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = xt_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
        _ = xt_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
        _ = xt_curl_setopt_long(handle, CURLOPT_TIMEOUT, timeoutSeconds)
        _ = xt_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, timeoutSeconds)
        _ = xt_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        if let caFile { _ = xt_curl_setopt_string(handle, CURLOPT_CAINFO, caFile) }
    }

    deinit { curl_easy_cleanup(handle) }

    /// libcurl's process-wide setup, once, before any handle.
    private static let globalInit: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// The status and body of a POST of `body` (JSON) to `url`.
    public func postJSON(_ url: String, body: [UInt8], basicAuth: (user: String, password: String)?) throws(Failure) -> (status: Int, body: [UInt8]) {
        var headers: UnsafeMutablePointer<curl_slist>? = curl_slist_append(nil, "Content-Type: application/json")
        headers = curl_slist_append(headers, "Accept: application/json")
        defer { curl_slist_free_all(headers) }
        let sink = Sink()
        let context = Unmanaged.passUnretained(sink).toOpaque()
        let code: CURLcode = body.withUnsafeBufferPointer { bodyBytes in
            _ = xt_curl_setopt_string(handle, CURLOPT_URL, url)
            _ = xt_curl_setopt_long(handle, CURLOPT_POST, 1)
            _ = xt_curl_setopt_pointer(handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: bodyBytes.baseAddress))
            _ = xt_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, bodyBytes.count)
            _ = xt_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers)
            if let basicAuth {
                _ = xt_curl_use_basic_auth(handle)
                _ = xt_curl_setopt_string(handle, CURLOPT_USERNAME, basicAuth.user)
                _ = xt_curl_setopt_string(handle, CURLOPT_PASSWORD, basicAuth.password)
            }
            _ = xt_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
            _ = xt_curl_setopt_write_function(handle) { data, size, count, context in
                guard let data, let context else { return 0 }
                let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
                let n = size * count
                guard sink.bytes.count + n <= CurlClient.maxReplyBytes else { return 0 }
                data.withMemoryRebound(to: UInt8.self, capacity: n) { sink.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: n)) }
                return n
            }
            return curl_easy_perform(handle)
        }
        guard code == CURLE_OK else { throw Failure(message: String(cString: curl_easy_strerror(code))) }
        var status = 0
        _ = xt_curl_response_code(handle, &status)
        return (status, sink.bytes)
    }

    /// Where the write callback puts the answer.
    private final class Sink { var bytes: [UInt8] = [] }
}
