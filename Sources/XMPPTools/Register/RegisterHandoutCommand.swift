import Arguments
import Handouts
import TextFormats
import XMPPBatch
import XMPPStorage

extension RegisterTool {
    /// `xmpp-register handout REPORT -o slips.pdf`: a batch or sync report's accounts as
    /// printable slips, one per person, and the report marked with when each was printed.
    struct Handout: ToolCommand {
        static let report = PositionalSpec("REPORT", help: "The report of xmpp-register batch or sync (--report FILE).",
                                           completion: .file(extensions: ["csv"]))
        static let output = Option<String>("output", short: "o", value: "FILE", help: "Write the PDF to FILE (mode 0600), or - for standard output when it is not a terminal.",
                                           completion: .file(extensions: ["pdf"]))
        static let group = Option<String>("group", value: "NAME", help: "Only the rows of this group (the report's groups column).")
        static let all = Flag("all", help: "Print every row's slip, also those printed before.")
        static let paper = Option<Paper>.choice("paper", value: "SIZE", help: "a4 (default) or letter.")
        static let signIn = Option<String>("sign-in", value: "TEXT", help: "The short text under each slip saying how to sign in (replaces the default).")

        static let spec = CommandSpec(
            "handout", summary: "Print a report's accounts as slips to hand out (PDF).",
            discussion: [
                "Reads the report (REPORT) that xmpp-register batch or sync wrote with --report and --generate-passwords "
                    + "or --invite, and writes a PDF of slips to cut apart and hand out, eight to an A4 or Letter page "
                    + "(--paper), each group of the report's groups column starting a page under its heading. Each slip "
                    + "has the person's name (the name column), the XMPP address, the server and a short text saying how "
                    + "to sign in (--sign-in replaces it), and either the password, in DejaVu Sans Mono, where O and 0, "
                    + "l, 1 and I look different, or the invite as a QR code of its xmpp: URI (XEP-0401), which "
                    + "Conversations, Monal and Siskin open to make the account with a password the person chooses (a "
                    + "sync --invite report has both: its slips show the invite, which sets the account's password), with "
                    + "the time it stops working where the report has it (sync's invite_expires column, batch's note 'valid "
                    + "until …'), as 'before 2026-12-05 21:35 UTC'. Text "
                    + "is laid out by Pango (accented, CJK and right-to-left names; fontconfig falls back to a CJK font such "
                    + "as fonts-wqy-microhei or fonts-noto-cjk when DejaVu lacks a character) and drawn by cairo with its "
                    + "fonts embedded; the codes are made by libqrencode at error correction level M.",
                "Only rows not handed out yet are printed: the handout records the time (UTC) of each slip it prints in "
                    + "the report's handed_out column, added after the report's other columns, which keep their names "
                    + "and places. Batch and sync runs that rewrite the report keep a row's handed_out while its password "
                    + "or invite is the one the slip showed, so after a sync that adds pupils the next handout prints "
                    + "just the new ones (and anyone whose account was made again with a new password). --all prints "
                    + "every row again (and records the new time). Rows without a password or invite (an account that "
                    + "existed with its own) get no slip, nor do rows whose account was not made (failed, invalid, "
                    + "deleted, or unfinished: finish the run with --resume first); a note on standard error counts them. When no row is left to "
                    + "print, no PDF is written and the exit status is 0.",
                "REPORT may also be a file --report-by-group wrote (read in its dialect, and kept in it when marked), but "
                    + "its marks last only until the next run rewrites it from the report: hand out from the report itself, "
                    + "with --group for one class. --json prints one object: slips, pages, groups, bytes (the PDF's size), "
                    + "output and report.",
                "--group NAME prints only the rows in that group (a row in several groups is in each); without it every "
                    + "row is printed once, under the first group it lists (rows in none under Ungrouped; a report "
                    + "without a groups column under its file name).",
                "The PDF holds the passwords: it is written as the report is (mode 0600, atomically, never through a "
                    + "symbolic link or into a file or directory another user owns or can write), and refused where "
                    + "the report would be: in a directory others can write to, or over the report itself. The report is "
                    + "marked after the PDF is on disk; if marking fails, the next handout prints those rows again.",
            ],
            options: [output, group, all, paper, signIn],
            positionals: [report],
            examples: [
                Example("xmpp-register handout pw.csv -o slips.pdf", "Print the slips of every account not handed out yet."),
                Example("xmpp-register handout pw.csv --group 'Class 5A' --all -o 5a.pdf && lp 5a.pdf",
                        "Print class 5A's slips again, all of them, and send them to the printer."),
                Example("xmpp-register handout invites.csv --paper letter --sign-in 'Scan with Conversations or Monal.' -o invites.pdf",
                        "Print a batch's invites as QR codes on Letter paper, with your own instructions."),
            ])

        let context: AccountContext
        let report: String
        let output: String
        let group: String?
        let all: Bool
        let paper: Paper
        let signIn: String?

        init(_ invocation: Invocation) throws {
            context = invocation.context
            let command = invocation.command
            do {
                guard let report = command.argument(Self.report.name) else { throw ToolFailure(.usage, "REPORT is required: the report of batch or sync") }
                guard let output = try command.value(Self.output) else {
                    throw ToolFailure(.usage, "-o FILE is required: where to write the PDF (it holds passwords: mode 0600)")
                }
                self.report = report
                self.output = output
                group = try command.value(Self.group)
                all = command[Self.all]
                paper = try command.value(Self.paper) ?? .a4
                signIn = try command.value(Self.signIn)
            } catch let error as ArgumentError {
                throw ToolFailure(.usage, error.reason.description)
            }
        }

        func run() throws {
            let env = context.environment
            let reportPath = absolute(report)
            let toStdout = output == "-"
            if toStdout && Output.stdoutIsTTY {
                throw ToolFailure(.usage, "-o - would print the PDF on the terminal: give -o FILE, or pipe it (| lp)")
            }
            if toStdout && context.common.json {
                throw ToolFailure(.usage, "--json and -o - would both write to standard output: give -o FILE")
            }
            let outputPath = absolute(output)
            // By device and inode as well as by name: `./report.csv`, a link or a hard link name it too.
            if !toStdout && (outputPath == reportPath || DistinctOutput.isInput(outputPath, reportPath)) {
                throw ToolFailure(.usage, "-o \(output) would overwrite the report")
            }
            // Before anything is read or drawn: the PDF may go only where the report could.
            if !toStdout {
                do { try HandoutReport.checkDestination(outputPath) } catch {
                    throw ToolFailure(.failed, "cannot write the slips to \(output): \(error)")
                }
            }
            let handout: HandoutReport
            do { handout = try HandoutReport(path: reportPath) } catch {
                if case .unsafeReport(let storage) = error { throw ToolFailure(.failed, "cannot use the report \(report): \(storage)") }
                throw ErrorMapping.failure(for: error)
            }
            if let group, !handout.groups.contains(group) {
                let known = handout.groups.isEmpty ? "it has no groups" : "its groups: " + handout.groups.joined(separator: ", ")
                throw ToolFailure(.usage, "no row of \(report) is in the group \(group) (\(known))")
            }
            let rows = handout.selection(group: group, all: all)
            if handout.withoutSlip > 0 && !context.common.quiet {
                let count = handout.withoutSlip
                env.warn("\(count) row\(count == 1 ? " gets" : "s get") no slip: no password or invite (an account that existed), "
                         + "or no account made (failed, invalid, deleted, unfinished)")
            }
            guard !rows.isEmpty else {
                let printed = handout.selection(group: group, all: true).count
                if !context.common.quiet {
                    env.warn(printed == 0 ? "nothing to hand out: no row has a password or invite"
                             : "nothing to hand out: every slip was printed before (--all prints them again); no PDF written")
                }
                if context.common.json { Output.line(summary(slips: 0, pages: 0, groups: 0, bytes: 0).pretty) }
                return
            }
            let groups = HandoutLayout.groups(rows, only: group, reportHasGroups: handout.hasGroups, reportName: baseName(report))
            var sheet = SlipSheet(paper: paper, title: "Account slips: " + baseName(report))
            if let signIn { sheet.passwordText = signIn; sheet.inviteText = signIn }
            let pdf = try SlipPrinterProgram.print(SlipRequest(sheet: sheet, groups: groups))
            if toStdout {
                Output.bytes(pdf)
            } else {
                do { try SecureFile.writeSecret(pdf, to: outputPath) } catch {
                    throw ToolFailure(.failed, "cannot write the slips to \(output): \(error)")
                }
            }
            do { try handout.markHandedOut(rows, at: HandoutReport.now()) } catch {
                throw ToolFailure(.failed, "the slips are written, but \(report) could not be marked (\(error)): the next handout prints them again")
            }
            let pages = SlipSheet.pages(groups)
            if context.common.json {
                Output.line(summary(slips: rows.count, pages: pages, groups: groups.count, bytes: pdf.count).pretty)
            } else if !context.common.quiet {
                let line = "\(rows.count) slip\(rows.count == 1 ? "" : "s") on \(pages) page\(pages == 1 ? "" : "s")"
                    + (toStdout ? "" : " in \(output)") + "; marked handed out in \(report)"
                if toStdout { env.warn(line) } else { Output.line(line) }
            }
        }

        private func summary(slips: Int, pages: Int, groups: Int, bytes: Int) -> JSONValue {
            .object([("slips", .int(slips)), ("pages", .int(pages)), ("groups", .int(groups)), ("bytes", .int(bytes)),
                     ("output", slips == 0 ? .null : .string(output)), ("report", .string(report))])
        }

        private func absolute(_ path: String) -> String { PathText.absolute(path, from: context.environment.currentDirectory) }

        private func baseName(_ path: String) -> String { PathText.lastComponent(path) }
    }
}

/// Which slips go under which heading.
enum HandoutLayout {
    /// `rows` by group: all under `only` when one group was asked for; else each row under the
    /// first group it lists, groups in the order they first appear, rows in none last under
    /// Ungrouped (or, when the report has no groups column, all under `reportName`).
    static func groups(_ rows: [HandoutReport.Row], only: String?, reportHasGroups: Bool, reportName: String) -> [SlipGroup] {
        if let only { return [SlipGroup(heading: only, slips: rows.map(slip))] }
        guard reportHasGroups else { return [SlipGroup(heading: reportName, slips: rows.map(slip))] }
        var order: [String] = []
        var members: [String: [Slip]] = [:]
        var ungrouped: [Slip] = []
        for row in rows {
            guard let first = row.groups.first else { ungrouped.append(slip(row)); continue }
            if members[first] == nil { order.append(first) }
            members[first, default: []].append(slip(row))
        }
        return order.map { SlipGroup(heading: $0, slips: members[$0] ?? []) }
            + (ungrouped.isEmpty ? [] : [SlipGroup(heading: "Ungrouped", slips: ungrouped)])
    }

    static func slip(_ row: HandoutReport.Row) -> Slip {
        switch row.secret {
        case .password(let password): return Slip(name: row.name, address: row.jid, secret: .password(password))
        case .invite(let uri):
            return Slip(name: row.name, address: row.jid, secret: .invite(uri), validUntil: row.inviteExpires.flatMap(Slip.readableTime))
        }
    }
}
