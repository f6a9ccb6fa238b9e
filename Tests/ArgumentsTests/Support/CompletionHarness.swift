import Arguments
import Foundation
import ShellTestSupport
import XCTest

/// Runs generated completion scripts in real shells, in a scratch directory holding a few files
/// and stub tools whose `__complete` answers from a fixed "cache":
/// contacts `alice@example.org` and `bob@example.org` (or `carol@DOMAIN` with `--account X@DOMAIN`),
/// accounts `me@example.org` and `work@example.com`, groups `Friends` and `Work` (or the
/// `contacts` and `groups` given, printed as they are).
final class CompletionHarness {
    let directory: URL

    init(contacts: [String]? = nil, groups: [String] = ["Friends", "Work"]) throws {
        directory = try Shell.temporaryDirectory()
        let listed = contacts.map(Self.printed) ?? "printf 'alice@example.org\\nbob@example.org\\n'"
        let stub = """
            #!/bin/sh
            [ "$1" = __complete ] || exit 64
            case "$2" in
            contacts) if [ "$3" = --account ]; then printf 'carol@%s\\n' "${4#*@}"
                      else \(listed); fi ;;
            accounts) printf 'me@example.org\\nwork@example.com\\n' ;;
            groups) \(Self.printed(groups)) ;;
            esac

            """
        for tool in ["xmpp-roster", "xmpp-login", "xmpp-avatar"] {
            try Shell.write(stub, to: "bin/" + tool, in: directory, executable: true)
        }
        for file in ["work/me.png", "work/notes.txt", "work/list.json", "work/photos/x.jpg"] {
            try Shell.write("", to: file, in: directory)
        }
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// A `printf` printing `lines`, one per line, exactly.
    private static func printed(_ lines: [String]) -> String {
        "printf '%s\\n' " + lines.map { "'" + $0.replacing("'", with: "'\\''") + "'" }.joined(separator: " ")
    }

    /// The argument the completed word becomes once the shell reads the line: bash's sole reply
    /// for `words` put in place of the word under the cursor as readline does (after an opening
    /// quote, readline keeps the quote and closes it after a single match), then parsed by bash.
    func bashArgument(_ spec: ToolSpec, _ words: [String]) throws -> String? {
        let offered = try bash(spec, words)
        guard offered.count == 1, let reply = offered.first, let typed = words.last else { return nil }
        let opening = typed.unicodeScalars.first.flatMap { $0 == "'" || $0 == "\"" ? String($0) : nil }
        let word = opening.map { $0 + reply + $0 } ?? reply
        let parsed = try Shell.run("bash", ["--norc", "--noprofile", "-c", "eval \"set -- $1\"; printf '%s' \"$1\"", "bash", word])
        XCTAssertEqual(parsed.stderr, "", "bash cannot read \(word)")
        return parsed.stdout
    }

    private var environment: [String: String] {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return [
            "PATH": directory.path + "/bin:" + path, "HOME": directory.path,
            "XDG_CONFIG_HOME": directory.path + "/config",
            "XDG_DATA_HOME": directory.path + "/data", "XDG_CACHE_HOME": directory.path + "/cache",
        ]
    }

    /// What bash offers for `words`, the last being the word under the cursor.
    func bash(_ spec: ToolSpec, _ words: [String]) throws -> [String] {
        let script = try Shell.write(CompletionRenderer.bash(spec), to: spec.name + ".bash", in: directory)
        return try CompletionRun.bash(script: script, words: words, directory: directory, environment: environment)
    }

    /// What fish offers for `line` (`complete -C`), without descriptions.
    func fish(_ spec: ToolSpec, _ line: String) throws -> [String] {
        let script = try Shell.write(CompletionRenderer.fish(spec), to: spec.name + ".fish", in: directory)
        return try CompletionRun.fish(script: script, line: line, directory: directory, environment: environment)
    }

    /// What zsh offers for `line` typed at an interactive prompt followed by Tab: a pseudo-terminal
    /// runs zsh with compinit and the script, and every `compadd` is echoed. Tab runs a widget
    /// that completes and then prints a mark, so the driver waits for the completion to end (up
    /// to two minutes on a loaded machine) instead of guessing from a pause in the output.
    func zsh(_ spec: ToolSpec, _ line: String) throws -> [String] {
        let script = try Shell.write(CompletionRenderer.zsh(spec), to: "_" + spec.name, in: directory)
        let driver = """
            zmodload zsh/zpty
            zpty z zsh -f -i
            zpty -w z "PROMPT='> ' RPROMPT=''; cd ${(q)1}/work"
            zpty -w z "autoload -U compinit; compinit -u -D"
            zpty -w z "source ${(q)2}"
            zpty -w z 'compadd () { local -a hits; builtin compadd -O hits "$@"; (( $#hits )) && print -r -- "<<${(j:|:)hits}>>"; builtin compadd "$@"; }'
            zpty -w z 'complete-then-mark () { zle complete-word; print -rn -- "@@""DONE@@"; }; zle -N complete-then-mark'
            zpty -w z "bindkey '^I' complete-then-mark"
            zpty -w -n z "$3"$'\\t'
            local out chunk
            integer waited=0
            while [[ $out != *@@DONE@@* ]] && (( waited < 1200 )); do
              if zpty -r -t z chunk; then out+=$chunk; else sleep 0.1; (( waited++ )); fi
            done
            zpty -d z
            print -r -- ${(M)${(f)out}:#*<<*}
            """
        let output = try Shell.run(
            "zsh", ["-f", "-c", driver, "zsh", directory.path, script, line], environment: environment)
        var matches: [String] = []
        for group in output.stdout.split(separator: "<<").dropFirst() {
            let body = group.prefix { $0 != ">" }
            if body.contains("$") { continue }  // the echo of the compadd definition itself
            for match in body.split(separator: "|") where !matches.contains(String(match)) {
                matches.append(String(match))
            }
        }
        return matches
    }
}
