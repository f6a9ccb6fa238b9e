import Glibc
import TextFormats

/// The loop of `xmpp-tools-http`, the program that speaks HTTPS for the tools: libcurl and the
/// two dozen libraries it brings are mapped only by this program, run when an admin interface is
/// used, never at every tool's start. One JSON request a line on standard input (`url`, `body`,
/// `ca_file`, `timeout`, and `user` and `password` for basic authentication: through the pipe,
/// never argv or the environment), one JSON answer a line on standard output: `status` and
/// `body`, or `error`. One connection is kept across requests with the same CA file and timeout.
public enum HTTPHelperLoop {
    public static func run() -> Int32 {
        var client: (key: String, client: CurlClient)?
        while let line = readLine(strippingNewline: true) {
            guard case .object(let fields)? = try? JSONParser.parse(Array(line.utf8)) else {
                answer(.object([("error", .string("a request that is not a JSON object"))]))
                continue
            }
            func text(_ name: String) -> String? {
                if case .string(let value)? = fields.first(where: { $0.0 == name })?.1 { return value }
                return nil
            }
            var timeout = 15
            if case .int(let seconds)? = fields.first(where: { $0.0 == "timeout" })?.1 { timeout = seconds }
            guard let url = text("url"), let body = text("body") else {
                answer(.object([("error", .string("a request without url or body"))]))
                continue
            }
            let caFile = text("ca_file")
            let key = (caFile ?? "") + "\n\(timeout)"
            do throws(CurlClient.Failure) {
                let current: CurlClient
                if let open = client, open.key == key { current = open.client } else {
                    current = try CurlClient(caFile: caFile, timeoutSeconds: timeout)
                    client = (key, current)
                }
                let credentials = text("user").map { ($0, text("password") ?? "") }
                let (status, reply) = try current.postJSON(url, body: Array(body.utf8), basicAuth: credentials)
                answer(.object([("status", .int(status)), ("body", .string(String(decoding: reply, as: UTF8.self)))]))
            } catch {
                answer(.object([("error", .string(error.message))]))
            }
        }
        return 0
    }

    private static func answer(_ value: JSONValue) {
        let line = value.compact + "\n"
        var bytes = Array(line.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { exit(1) }
            bytes = bytes.dropFirst(n)
        }
    }
}
