import FuzzSupport
import XMPPStanzas

/// Fuzz target for `JID` parsing (RFC 7622), which sees every address a server or a user sends.
///
/// The input is read as UTF-8 (invalid sequences become U+FFFD). Invariants checked: parsing never
/// crashes; a parsed JID's text form parses again to the same JID with the same text (what
/// normalization gives, PRECIS and IDNA, normalizes to itself); building from its parts gives
/// the same JID; the domain's A-label form gives the same domain; `bare` and `with(resource:)`
/// agree with it.
enum FuzzJIDTarget: FuzzTarget {
    static func run(_ data: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: data, as: UTF8.self)
        guard let jid = try? JID(text) else { return }
        let canonical = jid.description
        do throws(JIDError) {
            let again = try JID(canonical)
            FuzzReplay.invariant(again == jid && again.description == canonical,
                                 "\(text.debugDescription) → \(canonical.debugDescription) → \(again.description.debugDescription)")
            let rebuilt = try JID(local: jid.local, domain: jid.domain, resource: jid.resource)
            FuzzReplay.invariant(rebuilt == jid, "parts of \(canonical.debugDescription) rebuild \(rebuilt.description.debugDescription)")
            let ascii = try JID(local: nil, domain: jid.asciiDomain)
            FuzzReplay.invariant(ascii.domain == jid.domain && !jid.asciiDomain.unicodeScalars.contains { !$0.isASCII },
                                 "A-labels \(jid.asciiDomain.debugDescription) of \(canonical.debugDescription) give \(ascii.domain.debugDescription)")
            let bare = jid.bare
            FuzzReplay.invariant(bare.isBare && bare.local == jid.local && bare.domain == jid.domain,
                                 "bare of \(canonical.debugDescription)")
            FuzzReplay.invariant(try bare.with(resource: jid.resource) == jid, "bare + resource of \(canonical.debugDescription)")
        } catch {
            FuzzReplay.invariant(false, "canonical form \(canonical.debugDescription) of \(text.debugDescription) is refused: \(error)")
        }
    }
}
