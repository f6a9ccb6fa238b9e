// Test support only: a release build (make), which has no XCTest, compiles this module empty.
#if canImport(XCTest)
import Foundation
import XCTest

/// Runs a completion script in a real shell, from `directory/work`, and returns what it offers.
public enum CompletionRun {
    /// What bash offers for `words` (the last one under the cursor): the function the script
    /// registers with `complete -F` is called with COMP_WORDS and COMP_CWORD set.
    public static func bash(script: String, words: [String], directory: URL, environment: [String: String]) throws -> [String] {
        let driver = """
            cd "$1/work" || exit 1
            source "$2" || exit 1
            shift 2
            function=$(complete -p "$1" | sed -n 's/.*-F \\([^ ]*\\) .*/\\1/p')
            [ -n "$function" ] || { echo "no completion registered for $1" >&2; exit 1; }
            COMP_WORDS=("$@")
            COMP_CWORD=$(( $# - 1 ))
            COMP_LINE="$*"
            COMP_POINT=${#COMP_LINE}
            "$function" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let output = try Shell.run(
            "bash", ["--norc", "--noprofile", "-c", driver, "bash", directory.path, script] + words,
            environment: environment)
        XCTAssertEqual(output.stderr, "", "bash: \(words)")
        return output.stdout.split(separator: "\n").map(String.init)
    }

    /// What fish offers for `line` (`complete -C`), without descriptions.
    public static func fish(script: String, line: String, directory: URL, environment: [String: String]) throws -> [String] {
        let output = try Shell.run(
            "fish", ["--no-config", "-c", "cd $argv[1]/work; and source $argv[2]; and complete -C $argv[3]",
                     directory.path, script, line],
            environment: environment)
        XCTAssertEqual(output.stderr, "", "fish: \(line)")
        return output.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
    }
}
#endif
