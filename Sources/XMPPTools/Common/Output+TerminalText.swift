import TextFormats

extension Output {
    /// Writes a line of text to standard output with its controls escaped (`TerminalText`).
    static func textLine(_ text: String) { line(TerminalText.escaped(text)) }
}
