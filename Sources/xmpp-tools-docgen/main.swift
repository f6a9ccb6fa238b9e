// xmpp-tools-docgen: writes man/ and completions/ from the tools' specs (`make docs`), or with
// --check reports every file that differs from what the specs give (`make check-docs`).
//   xmpp-tools-docgen [--check] [PACKAGE-ROOT]      (default: the current directory)
// A development tool, not a product: `make install` does not ship it.
import XMPPTools

import Glibc

var check = false
var root = "."
for argument in CommandLine.arguments.dropFirst() {
    switch argument {
    case "--check": check = true
    case "-h", "--help":
        print("usage: xmpp-tools-docgen [--check] [PACKAGE-ROOT]")
        exit(0)
    case let other where other.hasPrefix("-"):
        DocFiles.fail("unknown option \(other)\nusage: xmpp-tools-docgen [--check] [PACKAGE-ROOT]", status: 2)
    default: root = argument
    }
}
guard DocFiles.exists(root + "/Package.swift") else {
    DocFiles.fail("\(root) is not the package root (no Package.swift there)", status: 2)
}

let wanted = Documentation.files()
let report = DocFiles.compare(wanted, root: root)
if check {
    for line in report.lines { DocFiles.warn(line) }
    if !report.isClean {
        DocFiles.fail("generated files are out of date: run 'make docs' and commit man/ and completions/", status: 1)
    }
    print("\(wanted.count) generated files are up to date")
} else {
    DocFiles.apply(report, root: root)
    for file in report.write { print((report.missing.contains(file.path) ? "created: " : "updated: ") + file.path) }
    for path in report.stale { print("removed: " + path) }
    print("\(wanted.count) files generated, \(report.changedCount) changed")
}
