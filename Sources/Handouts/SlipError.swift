/// What can go wrong making a code or a page of slips.
public enum SlipError: Error, Equatable, CustomStringConvertible {
    case qrCode(reason: String)
    case pdf(reason: String)
    /// The printer's request could not be read.
    case request(reason: String)

    public var description: String {
        switch self {
        case .qrCode(let reason): return "cannot make the QR code: \(reason)"
        case .pdf(let reason): return "cannot make the PDF: \(reason)"
        case .request(let reason): return "cannot read the slips to print: \(reason)"
        }
    }
}
