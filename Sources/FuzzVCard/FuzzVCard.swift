import FuzzSupport
import XMLTree
import XMPPStanzas

/// Fuzz target for `VCFReader`, which reads the .vcf files `xmpp-vcard set --from` and
/// `import` load (vCard 3.0 and 4.0: folding, escapes, parameters, data: URIs, base64 photos).
///
/// The input is the file. Invariants checked: reading never crashes; every card read is written
/// back by `VCFWriter` and read again to an equal card (the writer's promise); the card's
/// vcard-temp XML, as published and cached, reads back to an equal card; a 4.0 card's xCard (for
/// the vCard4 node) writes back as text without refusing a property, and that text reads in to
/// the same xCard.
enum FuzzVCardTarget: FuzzTarget {
    static func run(_ data: UnsafeBufferPointer<UInt8>) {
        guard let entries = try? VCFReader.read(Array(data)) else { return }
        for entry in entries {
            let card = entry.card
            let vcf = VCFWriter.write(card)
            do throws(VCFError) {
                let again = try VCFReader.read(vcf).map(\.card)
                FuzzReplay.invariant(again == [card], "card of line \(entry.line) written as \(vcf.debugDescription) reads back differently: \(difference(card, again.first))")
            } catch {
                FuzzReplay.invariant(false, "card of line \(entry.line) written as \(vcf.debugDescription) is refused: \(error)")
            }
            if let xcard = entry.xcard { checkXCard(xcard, line: entry.line) }
            let xml = card.xml
            do throws(StanzaParseError) {
                let fromXML = try VCard(xml: xml)
                FuzzReplay.invariant(fromXML == card, "card of line \(entry.line) as XML \(xml.debugDescription) reads back differently: \(difference(card, fromXML))")
            } catch {
                FuzzReplay.invariant(false, "card of line \(entry.line) as XML \(xml.debugDescription) is refused: \(error)")
            }
        }
    }
}

/// xCard → text → xCard is the identity on what the reader made, and refuses nothing.
private func checkXCard(_ xcard: XMLElement, line: Int) {
    let (lines, refused) = XCardText.lines(of: xcard.elements)
    FuzzReplay.invariant(refused.isEmpty, "card of line \(line): xCard properties with no text form: \(refused)")
    let text = (["BEGIN:VCARD", "VERSION:4.0"] + lines + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
    do throws(VCFError) {
        let again = try VCFReader.read(text).first?.xcard
        FuzzReplay.invariant(again == xcard, "card of line \(line): xCard written as \(text.debugDescription) reads back as \(String(describing: again)), not \(xcard)")
    } catch {
        FuzzReplay.invariant(false, "card of line \(line): xCard written as \(text.debugDescription) is refused: \(error)")
    }
    _ = try? VCard4(element: xcard)
}

/// The fields where `a` and `b` differ, for the failure message.
private func difference(_ a: VCard, _ b: VCard?) -> String {
    guard let b else { return "not one card" }
    let left = Mirror(reflecting: a).children, right = Array(Mirror(reflecting: b).children)
    return zip(left, right).compactMap { l, r in
        let (x, y) = (String(describing: l.value), String(describing: r.value))
        return x == y ? nil : "\(l.label ?? "?"): \(x) ≠ \(y)"
    }.joined(separator: "; ")
}
