import Arguments

/// Every generated documentation file: the man pages and the bash, zsh and fish completion
/// scripts of the tools in `AllSpecs`, `xmpp-tools(7)` and `xmpp-tools-provisioning(7)`. The generator
/// (`xmpp-tools-docgen`, `make docs`) writes them and the tests compare them with the
/// checked-in copies, both through `files(for:)`.
public enum Documentation {
    /// The date every generated page carries (`.Dd`). Change it when the pages change in substance.
    public static let date = "2026-11-30"

    /// Directories, relative to the package root, that hold generated files only: a file there
    /// that `files(for:)` does not produce is stale.
    public static let generatedDirectories = ["man", "completions"]

    /// One generated file.
    public struct File: Sendable, Equatable {
        /// Path relative to the package root: `man/xmpp-login.1`.
        public var path: String
        /// The whole contents.
        public var contents: String

        /// Declares a file.
        public init(path: String, contents: String) {
            self.path = path
            self.contents = contents
        }
    }

    /// Where each kind of file goes, relative to the package root (and, below `man` and
    /// `completions`, to the install prefix's `share/man` and completion directories).
    public enum Location {
        /// `man/xmpp-login.1`.
        public static func manPage(_ tool: String, section: String = "1") -> String { "man/\(tool).\(section)" }
        /// `completions/bash/xmpp-login`: bash-completion loads it by the command's name.
        public static func bash(_ tool: String) -> String { "completions/bash/\(tool)" }
        /// `completions/zsh/_xmpp-login`: an autoloaded function on `fpath`.
        public static func zsh(_ tool: String) -> String { "completions/zsh/_\(tool)" }
        /// `completions/fish/xmpp-login.fish`.
        public static func fish(_ tool: String) -> String { "completions/fish/\(tool).fish" }
    }

    /// Every file generated for `tools`, sorted by path.
    public static func files(for tools: [ToolSpec] = AllSpecs.tools) -> [File] {
        var files = [
            File(path: Location.manPage("xmpp-tools", section: "7"),
                 contents: OverviewPage.page(tools: tools).render(date: date)),
            File(path: Location.manPage(OperatorGuidePage.name, section: "7"),
                 contents: OperatorGuidePage.page().render(date: date)),
        ]
        for tool in tools {
            files.append(File(path: Location.manPage(tool.name), contents: ManPageRenderer.render(tool, date: date)))
            files.append(File(path: Location.bash(tool.name), contents: CompletionRenderer.bash(tool)))
            files.append(File(path: Location.zsh(tool.name), contents: CompletionRenderer.zsh(tool)))
            files.append(File(path: Location.fish(tool.name), contents: CompletionRenderer.fish(tool)))
        }
        return files.sorted { $0.path < $1.path }
    }
}
