/// Why a .vcf file (RFC 2426 vCard 3.0, RFC 6350 vCard 4.0) could not be read.
public enum VCFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input is larger than the reader accepts.
    case tooLarge(limit: Int)
    /// The input holds no vCard at all.
    case noCard
    /// A line is not valid; `line` counts physical lines from 1.
    case malformed(line: Int, reason: String)

    /// The line the problem is on, if it is on one.
    public var line: Int? {
        if case .malformed(let line, _) = self { return line }
        return nil
    }

    /// The problem without its line number.
    public var reason: String {
        switch self {
        case .tooLarge(let limit): return "the input is larger than \(limit) bytes"
        case .noCard: return "no vCard found (expected BEGIN:VCARD)"
        case .malformed(_, let reason): return reason
        }
    }

    public var description: String {
        line.map { "line \($0): \(reason)" } ?? reason
    }
}
