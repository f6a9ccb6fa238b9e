import XMPPBatch

/// `--dry-run`: every row's check, and a summary; nothing is sent. Invalid rows are printed
/// as in a real run, valid ones only as JSON Lines (`valid`).
enum BatchDryRun {
    static func report(_ sheet: BatchSheet, json: Bool, output: BatchOutput) throws(ToolFailure) {
        for row in sheet.rows {
            switch row {
            case .invalid(let bad): output.row(RowOutcome(invalid: bad))
            case .valid(let good) where json:
                Output.line(BatchOutput.validJSON(line: good.line, jid: good.jid.description).compact)
            case .valid: break
            }
        }
        let invalid = sheet.invalid.count, valid = sheet.rows.count - invalid
        let summary = "dry run: \(valid) valid row\(valid == 1 ? "" : "s"), \(invalid) invalid; nothing was sent"
        if invalid > 0 { throw ToolFailure(.failed, summary) }
        output.note(summary)
    }
}
