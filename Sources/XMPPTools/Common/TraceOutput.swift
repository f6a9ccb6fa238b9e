import XMPPConnection

/// The `--trace` sink: XML both ways to stderr, credentials already redacted by the stream.
enum TraceOutput {
    static func sink(enabled: Bool) -> TraceSink? {
        guard enabled else { return nil }
        return { direction, xml in Output.err("\(direction == .sent ? "SEND" : "RECV") \(xml)") }
    }
}
