/// Counts attributes in start tags on the raw bytes, before libxml2 sees them.
///
/// libxml2 2.9's duplicate-attribute and namespace checks are quadratic in the number of
/// attributes on one element, so a 1 MiB tag with 150,000 attributes would burn CPU for
/// seconds before any SAX callback could object. This scanner tracks just enough syntax
/// (tags, quoted values, PIs, comments, CDATA) to count `=` signs in start tags.
struct AttributeGuard {
    private enum State {
        case content, markupStart, startTag, quoted(UInt8), endTag, instruction, bang, cdata, comment, declaration
    }

    let maxAttributes: Int
    private var state = State.content
    /// `=` seen in the current start tag (attributes and namespace declarations).
    private var count = 0
    /// Consecutive `]`, `-` or `?` just seen, for the `]]>`, `-->` and `?>` terminators.
    private var run = 0

    init(maxAttributes: Int) {
        self.maxAttributes = maxAttributes
    }

    /// Scans `bytes` and returns how many leading bytes are safe to parse: all of them, or the
    /// offset of the `=` that starts the attribute over the limit.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        for (offset, byte) in bytes.enumerated() {
            switch state {
            case .content:
                if byte == UInt8(ascii: "<") { state = .markupStart }
            case .markupStart:
                run = 0
                switch byte {
                case UInt8(ascii: "/"): state = .endTag
                case UInt8(ascii: "?"): state = .instruction
                case UInt8(ascii: "!"): state = .bang
                default:
                    state = .startTag
                    count = 0
                }
            case .startTag:
                switch byte {
                case UInt8(ascii: "'"), UInt8(ascii: "\""): state = .quoted(byte)
                case UInt8(ascii: ">"): state = .content
                case UInt8(ascii: "="):
                    count += 1
                    if count > maxAttributes { return offset }
                default: break
                }
            case .quoted(let quote):
                if byte == quote { state = .startTag }
            case .endTag, .declaration:
                if byte == UInt8(ascii: ">") { state = .content }
            case .bang:
                switch byte {
                case UInt8(ascii: "["): state = .cdata
                case UInt8(ascii: "-"): state = .comment
                default: state = .declaration
                }
            case .instruction:
                endRun(byte, repeated: UInt8(ascii: "?"), needed: 1)
            case .cdata:
                endRun(byte, repeated: UInt8(ascii: "]"), needed: 2)
            case .comment:
                endRun(byte, repeated: UInt8(ascii: "-"), needed: 2)
            }
        }
        return bytes.count
    }

    /// Leaves the construct at `>` after at least `needed` copies of `repeated`.
    private mutating func endRun(_ byte: UInt8, repeated: UInt8, needed: Int) {
        if byte == repeated {
            run += 1
        } else {
            if byte == UInt8(ascii: ">") && run >= needed { state = .content }
            run = 0
        }
    }
}
