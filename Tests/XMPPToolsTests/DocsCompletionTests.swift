import Arguments
import Foundation
import ShellTestSupport
import XCTest
import XMPPTools

/// The checked-in completion scripts in real shells: subcommands first, JIDs from the tool's own
/// offline `__complete` (a stub for every kind, and the real built tools for accounts).
final class DocsCompletionTests: XCTestCase {
    func testBashOffersTheSubcommandsFirst() throws {
        let bash = try BashCompletion()
        for spec in AllSpecs.tools {
            let offered = try bash.complete([spec.name, ""])
            for command in spec.visibleSubcommands where command.name != spec.defaultSubcommand {
                XCTAssertTrue(offered.contains(command.name), "\(spec.name): \(command.name) not offered in \(offered)")
            }
            if let kind = spec.defaultCommand?.positionals.first?.completion.dynamicKind {
                for candidate in BashCompletion.stubAnswer(kind, account: nil) {
                    XCTAssertTrue(offered.contains(candidate), "\(spec.name): \(candidate) not offered in \(offered)")
                }
            }
            XCTAssertFalse(offered.contains(CompletionRequest.subcommand), "\(spec.name) offers the hidden request")
        }
    }

    /// Wherever a subcommand's first argument is a JID or another dynamic value, bash asks the
    /// tool (`TOOL __complete KIND`) and offers its answer, narrowed by what is typed; the
    /// account given with -a is passed on.
    func testBashAsksTheToolForDynamicArguments() throws {
        let bash = try BashCompletion()
        var checked = 0
        for spec in AllSpecs.tools {
            for command in spec.visibleSubcommands {
                guard let kind = command.positionals.first?.completion.dynamicKind else { continue }
                let words = [spec.name, command.name]
                XCTAssertEqual(try bash.complete(words + [""]), BashCompletion.stubAnswer(kind, account: nil),
                               "\(words)")
                XCTAssertEqual(try bash.complete(words + ["b"]), ["bob@example.org"], "\(words) b")
                if spec.accountOption != nil {
                    XCTAssertEqual(try bash.complete(words + ["-a", "me@example.com", ""]),
                                   BashCompletion.stubAnswer(kind, account: "me@example.com"), "\(words) -a")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 0, "no subcommand completes a JID")
    }

    /// The real tools answer `__complete accounts` from accounts.json and the sessions directory,
    /// offline, and the checked-in bash and fish scripts offer those accounts.
    func testRealToolsCompleteAccountsFromLocalFiles() throws {
        let binaries = try DocsSupport.binaries()
        let bash = try BashCompletion(binaries: binaries)
        try bash.seedAccounts(["alice@example.org", "bob@example.net"], sessionsOnly: ["carol@example.com"])
        let all = ["alice@example.org", "bob@example.net", "carol@example.com"]
        for spec in AllSpecs.tools {
            let direct = try Shell.run(
                binaries + "/" + spec.name, [CompletionRequest.subcommand, "accounts"], environment: bash.environment)
            XCTAssertEqual(direct.status, 0, spec.name)
            XCTAssertEqual(direct.stderr, "", spec.name)
            XCTAssertEqual(direct.stdout, all.joined(separator: "\n") + "\n", spec.name)
            if let option = spec.accountOption {
                XCTAssertEqual(try bash.complete([spec.name, option.longName, ""]), all, spec.name)
                XCTAssertEqual(try bash.complete([spec.name, option.longName, "b"]), ["bob@example.net"], spec.name)
            }
        }
        XCTAssertEqual(try bash.complete(["xmpp-login", "switch", ""]), all)
        XCTAssertEqual(try bash.complete(["xmpp-login", "logout", "c"]), ["carol@example.com"])
        let fish = try bash.fish("xmpp-login switch ")
        XCTAssertEqual(fish, all)
    }

    func testScriptsAreValidSyntax() throws {
        for spec in AllSpecs.tools {
            let checks = [
                ("bash", ["-n", Documentation.Location.bash(spec.name)]),
                ("zsh", ["-n", Documentation.Location.zsh(spec.name)]),
                ("fish", ["--no-execute", Documentation.Location.fish(spec.name)]),
            ]
            for (shell, arguments) in checks {
                let result = try Shell.run(shell, arguments, in: DocsSupport.root)
                XCTAssertEqual(result.status, 0, "\(shell) \(arguments): \(result.stderr)")
                XCTAssertEqual(result.stderr, "", "\(shell) \(arguments)")
            }
        }
    }
}

/// Runs the checked-in bash (and fish) completion scripts in a scratch directory, with either
/// stub tools answering every `__complete` kind or the real built tools on PATH, and a private
/// HOME and XDG directories.
final class BashCompletion {
    let directory: URL
    let environment: [String: String]

    /// A stub answers `contacts`, `accounts` and any other kind from a fixed list.
    static func stubAnswer(_ kind: String, account: String?) -> [String] {
        let domain = account.map { String($0.split(separator: "@").last ?? "") } ?? "example.org"
        return ["alice@\(domain)", "bob@example.org", "\(kind)@example.org"]
    }

    /// With `binaries` nil, stubs for every tool in AllSpecs; otherwise the real tools there.
    init(binaries: String? = nil) throws {
        directory = try Shell.temporaryDirectory("completion")
        let stub = """
            #!/bin/sh
            [ "$1" = __complete ] || exit 64
            domain=example.org
            [ "$3" = --account ] && domain="${4#*@}"
            printf 'alice@%s\\nbob@example.org\\n%s@example.org\\n' "$domain" "$2"

            """
        if binaries == nil {
            for spec in AllSpecs.tools { try Shell.write(stub, to: "bin/" + spec.name, in: directory, executable: true) }
        }
        try Shell.write("", to: "work/ca.pem", in: directory)
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        environment = [
            "PATH": (binaries ?? directory.path + "/bin") + ":" + path, "HOME": directory.path,
            "XDG_CONFIG_HOME": directory.path + "/config", "XDG_CACHE_HOME": directory.path + "/cache",
            "XDG_DATA_HOME": directory.path + "/data", "XDG_STATE_HOME": directory.path + "/state",
            "XMPP_ACCOUNT": "",
        ]
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Writes accounts.json naming `accounts` and session files for `sessionsOnly`.
    func seedAccounts(_ accounts: [String], sessionsOnly: [String]) throws {
        let entries = accounts.map { "\"\($0)\": {}" }.joined(separator: ", ")
        let json = "{\"active\": \"\(accounts.first ?? "")\", \"accounts\": {\(entries)}}"
        try Shell.write(json, to: "config/xmpp-tools/accounts.json", in: directory)
        for account in sessionsOnly {
            try Shell.write("{}", to: "config/xmpp-tools/sessions/" + account, in: directory)
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o600], ofItemAtPath: directory.path + "/config/xmpp-tools/sessions/" + account)
        }
    }

    /// What bash offers for `words`, the last being the word under the cursor.
    func complete(_ words: [String]) throws -> [String] {
        let script = DocsSupport.root.appendingPathComponent(Documentation.Location.bash(words[0])).path
        return try CompletionRun.bash(script: script, words: words, directory: directory, environment: environment)
    }

    /// What fish offers for `line` (`complete -C`), without descriptions.
    func fish(_ line: String) throws -> [String] {
        let tool = String(line.prefix { $0 != " " })
        let script = DocsSupport.root.appendingPathComponent(Documentation.Location.fish(tool)).path
        return try CompletionRun.fish(script: script, line: line, directory: directory, environment: environment)
    }
}
