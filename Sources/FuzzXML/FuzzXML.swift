import FuzzSupport
import XMLTree

/// Fuzz target for `XMLStreamParser` (the bytes a server sends) and `parseXMLDocument`.
///
/// The input is fed in two chunks split at the offset given by its first byte, so the fuzzer
/// explores chunk boundaries too. Invariants checked: the parser never crashes; after an error
/// it keeps throwing the same error; every completed element survives a serialize → parse round
/// trip unchanged (XMLElement's documented promise).
enum FuzzXMLTarget: FuzzTarget {
    static let limits = XMLLimits(maxStanzaBytes: 8192, maxDepth: 16, maxAttributes: 16)

    static func run(_ data: UnsafeBufferPointer<UInt8>) {
        guard let first = data.first else { return }
        let body = UnsafeBufferPointer(rebasing: data.dropFirst())
        let split = min(Int(first), body.count)
        let parser = XMLStreamParser(limits: limits)
        var events: [XMLStreamEvent] = []
        var failure: XMLTreeError?
        for chunk in [body[..<split], body[split...]] {
            do throws(XMLTreeError) {
                events += try parser.feed(UnsafeBufferPointer(rebasing: chunk))
            } catch {
                failure = error
                break
            }
        }
        if let failure {
            do throws(XMLTreeError) {
                _ = try parser.feed(CollectionOfOne(UInt8(ascii: "<")))
                FuzzReplay.invariant(false, "feed after \(failure) succeeded")
            } catch {
                FuzzReplay.invariant(error == failure, "feed after \(failure) threw \(error)")
            }
        }
        for case .element(let element) in events {
            checkRoundTrip(element)
        }
        if let document = try? parseXMLDocument(bytes: body, limits: limits) {
            checkRoundTrip(document)
        }
    }

    /// serialize → parse gives an equal element.
    static func checkRoundTrip(_ element: XMLElement) {
        let text = element.serialized()
        do throws(XMLTreeError) {
            let again = try parseXMLDocument(text, limits: XMLLimits(maxStanzaBytes: 1 << 22, maxDepth: 64, maxAttributes: 64))
            FuzzReplay.invariant(again == element, "round trip changed \(element) into \(again) via \(text)")
        } catch {
            FuzzReplay.invariant(false, "own output \(text) does not parse: \(error)")
        }
    }
}
