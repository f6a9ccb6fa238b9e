import Glibc
import XCTest
@testable import XMPPStanzas

/// Reading and writing a .vcf is linear in its entries: a card of 100,000 EMAIL lines (and a
/// vCard 2.1 quoted-printable value folded over 100,000 lines) is read, written in both
/// versions and compared for losses. Not a speed goal (bench/vcard has those): the check is
/// that ten times the entries costs about ten times the CPU, where the quadratic code of
/// issue 26 cost a hundred times (40,000 EMAIL lines took 28 s).
final class VCardScalingTests: XCTestCase {
    /// The bytes of `head`, `n` lines made by `line` (given their index), and `tail`.
    private func card(_ head: String, _ n: Int, _ line: (Int) -> String, _ tail: String) -> [UInt8] {
        var text = head
        text.reserveCapacity(n * 40)
        for i in 0..<n { text += line(i) }
        text += tail
        return Array(text.utf8)
    }

    /// A vCard 3.0 of `n` EMAIL lines.
    private func emails(_ n: Int) -> [UInt8] {
        card("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Many\r\n", n, { "EMAIL;TYPE=INTERNET:user\($0)@example.org\r\n" },
             "NOTE:x\r\nX-EXTRA:y\r\nEND:VCARD\r\n")
    }

    /// A vCard 2.1 NOTE in quoted-printable, folded by soft line breaks over `n` lines.
    private func softBreaks(_ n: Int) -> [UInt8] {
        card("BEGIN:VCARD\r\nVERSION:2.1\r\nFN:Folded\r\nNOTE;ENCODING=QUOTED-PRINTABLE:", n, { _ in "abc=3Ddef=\r\n" },
             "end\r\nEND:VCARD\r\n")
    }

    /// CPU seconds `body` takes.
    private func cpu(_ body: () throws -> Void) rethrows -> Double {
        var before = rusage(), after = rusage()
        getrusage(RUSAGE_SELF.rawValue, &before)
        try body()
        getrusage(RUSAGE_SELF.rawValue, &after)
        func seconds(_ r: rusage) -> Double {
            Double(r.ru_utime.tv_sec + r.ru_stime.tv_sec) + Double(r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6
        }
        return seconds(after) - seconds(before)
    }

    /// Linear is 10x; quadratic is 100x. 30x leaves room for a loaded machine.
    private func assertLinear(_ smallTime: Double, _ largeTime: Double, _ what: String,
                              file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertLessThan(largeTime, max(smallTime, 0.05) * 30, "\(what): 10,000 took \(smallTime) s, 100,000 \(largeTime) s",
                          file: file, line: line)
    }

    /// `xmpp-vcard import FILE.vcf`: reading the file.
    func testImportOfAHundredThousandEntriesIsLinear() throws {
        let small = emails(10_000), large = emails(100_000)
        var count = 0
        let smallTime = try cpu { count = try VCFReader.read(small)[0].card.emails.count }
        XCTAssertEqual(count, 10_000)
        let largeTime = try cpu { count = try VCFReader.read(large)[0].card.emails.count }
        XCTAssertEqual(count, 100_000)
        assertLinear(smallTime, largeTime, "reading")
    }

    /// `xmpp-vcard get --format vcf` (3.0 and 4.0): writing the card, and finding what the
    /// file cannot carry (which reads it back and compares).
    func testExportOfAHundredThousandEntriesIsLinear() throws {
        let small = try VCFReader.read(emails(10_000))[0].card, large = try VCFReader.read(emails(100_000))[0].card
        func export(_ card: VCard) {
            XCTAssertFalse(VCFWriter.write(card).isEmpty)
            XCTAssertFalse(VCF4Writer.write(card, vcard4Extras: []).isEmpty)
            XCTAssertEqual(VCFWriter.losses(card), [])
        }
        let smallTime = cpu { export(small) }
        let largeTime = cpu { export(large) }
        assertLinear(smallTime, largeTime, "writing")
    }

    func testAValueFoldedOverAHundredThousandLinesIsLinear() throws {
        let small = softBreaks(10_000), large = softBreaks(100_000)
        let smallTime = try cpu { XCTAssertEqual(try VCFReader.read(small).first?.card.note?.count, 10_000 * 7 + 3) }
        let largeTime = try cpu { XCTAssertEqual(try VCFReader.read(large).first?.card.note?.count, 100_000 * 7 + 3) }
        assertLinear(smallTime, largeTime, "a folded value")
    }

    /// Issue 39: what is left out, or holds a control character, costs a warning each, not the
    /// card, and no more than a kept property's time: half the lines a BDAY that is no date,
    /// half a property with a form feed, and one value holding a control on every folded line.
    func testAHundredThousandPropertiesLeftOutOrWithControlsAreLinear() throws {
        func damaged(_ n: Int) -> [UInt8] {
            card("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Damaged\r\nNOTE:", n, { _ in "ab\u{0C}c\r\n " },
                 "end\r\n" + String(repeating: "BDAY:1980-02-30\r\nX-FB:a\u{0C}b\r\n", count: n / 2) + "END:VCARD\r\n")
        }
        let small = damaged(10_000), large = damaged(100_000)
        let smallTime = try cpu { XCTAssertEqual(try VCFReader.read(small).first?.warnings.count, 10_000 + 1) }
        let largeTime = try cpu {
            let entry = try XCTUnwrap(try VCFReader.read(large).first)
            XCTAssertEqual(entry.warnings.count, 100_000 + 1)
            XCTAssertEqual(entry.card.note?.count, 100_000 * 3 + 3)
            XCTAssertEqual(entry.dropped.count, 50_000)
        }
        assertLinear(smallTime, largeTime, "left-out properties and controls")
    }
}
