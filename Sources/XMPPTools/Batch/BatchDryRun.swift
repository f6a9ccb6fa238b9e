import XMPPBatch

/// `--dry-run`: every row's check, and a summary; nothing is sent. Invalid rows are printed
/// as in a real run, valid ones only as JSON Lines (`valid`). The rows are taken one at a time
/// (`BatchSheetReader.next`), printed and forgotten.
enum BatchDryRun {
    static func report(_ next: () throws -> CheckedRow?, json: Bool, output: BatchOutput) throws {
        var valid = 0, invalid = 0
        while let row = try next() {
            switch row {
            case .invalid(let bad):
                invalid += 1
                output.row(RowOutcome(invalid: bad))
            case .valid(let good):
                valid += 1
                if json { Output.line(BatchOutput.validJSON(line: good.line, jid: good.jid.description).compact) }
            }
        }
        let summary = "dry run: \(valid) valid row\(valid == 1 ? "" : "s"), \(invalid) invalid; nothing was sent"
        if invalid > 0 { throw ToolFailure(.failed, summary) }
        output.note(summary)
    }
}
