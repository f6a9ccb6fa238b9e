import CResolv
import Glibc

/// One place to connect to: host, port and whether TLS starts immediately (XEP-0368).
public struct Endpoint: Sendable, Equatable, CustomStringConvertible {
    /// Host name or address.
    public var host: String
    /// TCP port.
    public var port: Int
    /// True for direct TLS (`_xmpps-client`), false for STARTTLS.
    public var directTLS: Bool

    /// Builds an endpoint.
    public init(host: String, port: Int, directTLS: Bool) {
        self.host = host
        self.port = port
        self.directTLS = directTLS
    }

    public var description: String { "\(host):\(port)\(directTLS ? " (direct TLS)" : "")" }
}

/// Finds where a domain's XMPP client service lives (RFC 6120 §3.2, XEP-0368).
public enum SRVResolver {
    /// Endpoints for `domain`, in the order to try them: `targets(for:)` without the weights.
    public static func endpoints(for domain: String, directTLSOnly: Bool = false) -> [Endpoint] {
        targets(for: domain, directTLSOnly: directTLSOnly).map(\.endpoint)
    }

    /// Targets for `domain` in RFC 2782 order (`SRVOrder`): SRV records of `_xmpps-client._tcp`
    /// and `_xmpp-client._tcp` merged by priority (direct TLS first within one), falling back
    /// to the domain itself on 5222. With `directTLSOnly`, only direct-TLS records (fallback 5223).
    public static func targets(for domain: String, directTLSOnly: Bool = false,
                               random: (Int) -> Int = SRVOrder.systemRandom) -> [SRVTarget] {
        // Names without a dot and IP literals have no SRV records worth asking the resolver for.
        let skipLookup = !domain.contains(".") || domain.hasPrefix("[") || domain.allSatisfy { $0.isNumber || $0 == "." }
        var records: [SRVTarget] = []
        if !skipLookup {
            for r in lookup("_xmpps-client._tcp." + domain) {
                records.append(SRVTarget(endpoint: Endpoint(host: r.target, port: r.port, directTLS: true), priority: r.priority, weight: r.weight))
            }
            if !directTLSOnly {
                for r in lookup("_xmpp-client._tcp." + domain) {
                    records.append(SRVTarget(endpoint: Endpoint(host: r.target, port: r.port, directTLS: false), priority: r.priority, weight: r.weight))
                }
            }
        }
        // A single "." target means the service is decidedly not available (RFC 2782).
        if records.count == 1 && (records[0].endpoint.host == "." || records[0].endpoint.host.isEmpty) { return [] }
        records.removeAll { $0.endpoint.host == "." || $0.endpoint.host.isEmpty }
        if records.isEmpty {
            let host = domain.hasPrefix("[") ? String(domain.dropFirst().dropLast()) : domain
            return [SRVTarget(endpoint: Endpoint(host: host, port: directTLSOnly ? 5223 : 5222, directTLS: directTLSOnly), priority: 0, weight: 0)]
        }
        return SRVOrder.ordered(records, random: random)
    }

    struct Record { var priority: Int; var weight: Int; var port: Int; var target: String }

    /// Raw SRV lookup; an empty list on any failure (the caller falls back).
    static func lookup(_ name: String) -> [Record] {
        var answer = [UInt8](repeating: 0, count: 4096)
        let length = res_query(name, 1 /* C_IN */, 33 /* T_SRV */, &answer, Int32(answer.count))
        guard length > 0, Int(length) <= answer.count else { return [] }
        return answer.withUnsafeBufferPointer { buf -> [Record] in
            guard let base = buf.baseAddress else { return [] }
            var msg = ns_msg()
            guard ns_initparse(base, length, &msg) == 0 else { return [] }
            let count = Int(msg._counts.1)  // answer section
            var out: [Record] = []
            for i in 0..<count {
                var rr = ns_rr()
                guard ns_parserr(&msg, ns_s_an, Int32(i), &rr) == 0, rr.type == 33, rr.rdlength >= 7,
                      let rdata = rr.rdata else { continue }
                let priority = Int(rdata[0]) << 8 | Int(rdata[1])
                let weight = Int(rdata[2]) << 8 | Int(rdata[3])
                let port = Int(rdata[4]) << 8 | Int(rdata[5])
                var nameBuf = [CChar](repeating: 0, count: 1025)
                let used = dn_expand(base, base + Int(length), rdata + 6, &nameBuf, Int32(nameBuf.count))
                guard used > 0 else { continue }
                let target = String(decoding: nameBuf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                out.append(Record(priority: priority, weight: weight, port: port, target: target.isEmpty ? "." : target))
            }
            return out
        }
    }
}
