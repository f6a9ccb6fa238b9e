/// Tracks just enough XML syntax on the raw bytes (tags, quoted values, PIs, comments, CDATA,
/// declarations) to protect libxml2 2.9 from two quadratic costs on hostile input:
///
/// - Its duplicate-attribute and namespace checks are quadratic in the attributes of one
///   element, so `=` signs in start tags are counted first.
/// - The push parser rescans a whole unfinished construct each time a chunk with `>` arrives,
///   so an unfinished construct is held back until its end (docs/DESIGN-NOTES.md "Footprint"
///   has the measurement). Text is not held back, so garbage is still reported at once.
struct MarkupScanner {
    /// What one scan found.
    struct Result {
        /// Leading bytes that end outside any markup construct: safe to hand to libxml2.
        var releasable: Int
        /// Whether a start tag exceeded the attribute limit (then nothing after `releasable` may be parsed).
        var tooManyAttributes: Bool
    }

    private enum State {
        case content, markupStart, startTag, quoted(UInt8), endTag, instruction, bang, cdata, comment, declaration

        var isContent: Bool {
            if case .content = self { return true }
            return false
        }
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

    /// Scans the next bytes of the input.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Result {
        var releasable = 0
        for (offset, byte) in bytes.enumerated() {
            defer {
                if state.isContent { releasable = offset + 1 }
            }
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
                    if count > maxAttributes { return Result(releasable: releasable, tooManyAttributes: true) }
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
        return Result(releasable: releasable, tooManyAttributes: false)
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
