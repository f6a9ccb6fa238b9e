import Glibc
import Handouts
import SlipPrinter

// xmpp-tools-slips: the slip printer that `xmpp-register handout` runs. It reads one request
// (`SlipRequest`, JSON) from standard input and writes the PDF to standard output; on failure
// it writes one line to standard error and exits 1. It is a program of its own so that Pango,
// cairo and GLib (about 40 shared libraries, ~5 ms at every start) are loaded only here, not
// by every start of every tool (bench/help).

/// Standard input, whole, up to `limit` bytes; nil when it is larger or cannot be read.
func readInput(limit: Int) -> [UInt8]? {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n < 0 { return nil }
        if n == 0 { return bytes }
        bytes += buffer[0..<n]
        if bytes.count > limit { return nil }
    }
}

func fail(_ message: String) -> Never {
    let line = Array(("xmpp-tools-slips: " + message + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

// 256 MB: a report's size limit, with room for the JSON around it.
guard let input = readInput(limit: 256 << 20) else { fail("cannot read the request on standard input") }
do {
    let request = try SlipRequest(json: input)
    let pdf = try SlipPDF(request.sheet).render(request.groups)
    var offset = 0
    while offset < pdf.count {
        let n = pdf.withUnsafeBytes { write(1, $0.baseAddress! + offset, pdf.count - offset) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { fail("cannot write the PDF: " + String(cString: strerror(errno))) }
        offset += n
    }
} catch {
    fail(error.description)
}
