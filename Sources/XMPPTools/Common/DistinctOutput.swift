import XMPPStorage

/// An output file that would replace the input it is made from: `batch --report ./in.csv`,
/// `avatar resize in.png -o ./in.png`. Compared by device and inode (`FileIdentity`), so a
/// second spelling, a symlink, a hard link or the file standard input was redirected from is
/// caught as well as the same string; an output that does not exist yet is never the input.
enum DistinctOutput {
    /// Refuses (usage, exit 2) `output`, given as `option`, when it names the file `input` is
    /// read from (`-`: standard input). `resolve` makes a path as spelt one to open (absolute
    /// against the tool's current directory); the message names both as spelt.
    static func require(output: String, input: String, option: String,
                        resolve: (String) -> String = { $0 }) throws(ToolFailure) {
        guard output != "-", isInput(resolve(output), input == "-" ? nil : resolve(input)) else { return }
        throw ToolFailure(.usage, "\(option) \(output) is the input \(input == "-" ? "(standard input)" : input): it would be "
                          + "overwritten; choose another file")
    }

    /// Whether the existing file at `output` is `input` (nil: standard input), by device and inode.
    static func isInput(_ output: String, _ input: String?) -> Bool {
        guard let written = FileIdentity(path: output) else { return false }
        let read = if let input { FileIdentity(path: input) } else { FileIdentity(descriptor: 0) }
        return written == read
    }
}
