import Foundation

/// What the documentation's example lines run in: a directory of wrappers on PATH.
enum ExampleShell {
    /// Writes into `bin` one wrapper per program of the suite that adds the test server's address
    /// (`--server`, `--ca-file`) where the command takes --server: what a real domain's SRV
    /// records would give, so the lines run as printed.
    static func installToolWrappers(in bin: String, server: TestServer) throws {
        for name in ["xmpp-register", "xmpp-login", "xmpp-roster", "xmpp-vcard", "xmpp-avatar", "xmpp-adhoc"] {
            try script(bin + "/" + name, """
                #!/bin/bash
                real=\(Paths.binaries)/\(name)
                sub=""
                for a in "$@"; do case $a in -*) ;; *) sub=$a; break ;; esac; done
                if "$real" $sub --help 2>/dev/null | grep -q -- '--server HOST'; then
                  exec "$real" "$@" --server \(server.server) --ca-file \(server.caFile)
                fi
                exec "$real" "$@"
                """)
        }
    }

    /// An executable script at `path`.
    static func script(_ path: String, _ text: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data((text + "\n").utf8), attributes: [.posixPermissions: 0o755]) else {
            throw TestServerError.unusable("cannot write \(path)")
        }
    }
}
