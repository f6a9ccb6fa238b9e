import TextFormats
import XMPPStanzas

/// Prints `get` results as they arrive: one card alone, or a list (JSON Lines, tab-separated
/// lines prefixed with the JID, text blocks, or concatenated vCards).
struct VCardPrinter {
    /// text, json, vcf (vCard 3.0) or vcf4 (vCard 4.0).
    enum Format: String, Sendable, CaseIterable { case text, json, vcf, vcf4 }

    let format: Format
    /// `--field`, if given.
    let field: String?
    /// More than one JID, or '-': every result is printed and failures are reported in line.
    let list: Bool
    /// Standard output is a terminal (text output is labelled, not tab-separated).
    let tty: Bool
    let env: ToolEnvironment
    private var printedBlocks = 0
    /// Exit statuses of the failures so far.
    private(set) var failureCodes: [ExitCode] = []

    init(format: Format, field: String?, list: Bool, tty: Bool, env: ToolEnvironment) {
        self.format = format
        self.field = field
        self.list = list
        self.tty = tty
        self.env = env
    }

    /// Prints one result; with a single JID a failure is thrown, in a list it is reported.
    mutating func emit(label: String, _ result: Result<VCardResult, ToolFailure>) throws {
        switch result {
        case .success(let r): print(r)
        case .failure(let f):
            guard list else { throw f }
            failureCodes.append(f.code)
            if format == .json {
                let line = field.map { VCardRender.fieldLine(jid: label, field: $0, values: [], failure: f) }
                    ?? VCardRender.failureLine(label: label, f)
                Output.line(line.compact)
            } else {
                Output.err("\(env.program): \(f.message)")
            }
        }
    }

    /// The status of a whole list: 0 when all succeeded, the failures' status when they agree, 1 otherwise.
    var listStatus: ExitCode {
        guard let first = failureCodes.first else { return .ok }
        return failureCodes.allSatisfy { $0 == first } ? first : .failed
    }

    private mutating func print(_ r: VCardResult) {
        if let field {
            let values = VCardRender.field(field, of: r.card)
            if format == .json {
                Output.line(list ? VCardRender.fieldLine(jid: r.jid.description, field: field, values: values).compact
                                 : VCardRender.fieldValue(field, values).pretty)
            } else if list {
                for v in values { Output.line(TerminalText.escaped(r.jid.description) + "\t" + VCardRender.escapeTSV(v)) }
            } else {
                for v in values { Output.line(VCardRender.escapeTSV(v)) }
            }
            return
        }
        switch format {
        case .json:
            Output.line(list ? VCardRender.jsonLine(r).compact : VCardRender.json(r).pretty)
        case .vcf, .vcf4:
            let four = format == .vcf4
            Output.out(four ? VCF4Writer.write(r.card, vcard4Extras: r.vcard4Extras) : VCFWriter.write(r.card))
            // Neither version has a form for all that the stores hold: say what the file leaves out.
            let losses = four ? VCF4Writer.losses(r.card, vcard4Extras: r.vcard4Extras) : VCFWriter.losses(r.card)
            for field in VCardPublisher.fieldNames(losses) {
                let values = losses.filter { $0.field == field }.map { VCardPublisher.short($0.value) }
                env.warn("warning: the .vcf file of \(r.jid) leaves out \(field) (\(values.joined(separator: "; ")))")
            }
        case .text:
            if tty {
                if printedBlocks > 0 { Output.line("") }
                VCardRender.text(r).forEach(Output.line)
            } else {
                VCardRender.tsv(r, prefix: list ? TerminalText.escaped(r.jid.description) + "\t" : "").forEach(Output.line)
            }
        }
        printedBlocks += 1
    }
}
