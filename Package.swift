// swift-tools-version:6.0
import PackageDescription

/// Layers (docs/ARCHITECTURE.md §1, checked by Tests/ArchitectureTests): each module imports
/// only those above it in this list; each C library comes in through one system-library target.
/// Linux only: the code calls Glibc directly. No unsafe flags: every setting is SwiftPM's own, so
/// any toolchain and distribution builds it as it builds other packages.
let package = Package(
    name: "xmpp-tools",
    products: [
        .executable(name: "xmpp-register", targets: ["xmpp-register"]),
        .executable(name: "xmpp-login", targets: ["xmpp-login"]),
        .executable(name: "xmpp-roster", targets: ["xmpp-roster"]),
        .executable(name: "xmpp-vcard", targets: ["xmpp-vcard"]),
        .executable(name: "xmpp-avatar", targets: ["xmpp-avatar"]),
        .executable(name: "xmpp-adhoc", targets: ["xmpp-adhoc"]),
        .executable(name: "xmpp-tools", targets: ["xmpp-tools"]),
    ],
    targets: [
        // C libraries, one system-library target each, found and linked through pkg-config
        // (libunistring and libresolv have no .pc file: their modulemaps name them).
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CSQLite3", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CLibJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg-dev"])]),
        // Little CMS: avatar inputs' ICC profiles and PNG gAMA/cHRM converted to sRGB.
        .systemLibrary(name: "CLibLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        // WebP avatar inputs.
        .systemLibrary(name: "CLibWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CResolv"),
        // HTTP for servers' admin interfaces (ejabberd's mod_http_api): the field's client.
        .systemLibrary(name: "CLibCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // IDNA2008/UTS #46 (libidn2) and libunistring's Unicode data and normalization forms, for
        // the PRECIS profiles of JIDs and for SASLprep: one Unicode version for both.
        .systemLibrary(name: "CLibIDN2", pkgConfig: "libidn2", providers: [.apt(["libidn2-dev", "libunistring-dev"])]),
        // Printed account slips: QR codes (libqrencode), and the PDF laid out by Pango (shaping of
        // accented, CJK and right-to-left names, fonts through fontconfig) and drawn by cairo.
        .systemLibrary(name: "CLibQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CPangoCairo", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]),

        // Pure and protocol layers.
        // Text as people hand it to the tools and see it: CSV and JSON readers and writers, LDIF,
        // terminal escaping, code point labels. No XMPP, no app code.
        .target(name: "TextFormats"),
        .target(name: "XMLTree", dependencies: ["CLibXML2"]),
        .target(name: "XMPPStanzas", dependencies: ["XMLTree", "TextFormats", "CLibIDN2"]),
        // Digests, HMAC, PBKDF2, random bytes, Base64 and Hex: what SCRAM, avatars and sessions hash and encode.
        .target(name: "CryptoPrimitives", dependencies: ["CLibCrypto"]),
        .target(name: "XMPPConnection", dependencies: [
            "XMPPStanzas", "XMLTree", "TextFormats", "CryptoPrimitives", "COpenSSL", "CResolv",
        ]),
        .target(name: "XMPPServices", dependencies: ["XMPPConnection", "XMPPStanzas", "XMLTree", "CryptoPrimitives"]),
        .target(name: "XMPPStorage", dependencies: ["XMPPStanzas", "TextFormats", "CSQLite3"]),
        // Servers' own admin interfaces, beside XMPP: ejabberd's HTTP API (through xmpp-tools-http)
        // and Prosody's admin shell (prosodyctl shell).
        .target(name: "ServerAdmin", dependencies: ["TextFormats"]),
        // HTTPS with libcurl, for xmpp-tools-http alone: libcurl brings two dozen libraries (Kerberos,
        // LDAP, GnuTLS, libssh2...) that the loader would map at every tool's start (--help went from
        // 6.6 to 9.6 ms, bench/help), so the tools run this program when an admin API is used.
        .target(name: "HTTPHelper", dependencies: ["TextFormats", "CLibCurl"]),
        .target(name: "CPNGStream", dependencies: ["CLibPNG", "CLibJPEG", "CLibLCMS2", "CLibWebP"]),
        .target(name: "PNGImage", dependencies: ["CPNGStream", "CLibPNG"]),
        // What is handed to people: QR codes (as a matrix, or as text for a terminal), slips and the
        // printer's request. The PDF is drawn by SlipPrinter in a program of its own
        // (xmpp-tools-slips): Pango, cairo and GLib are about 40 libraries the loader would map at
        // every start of every tool.
        .target(name: "Handouts", dependencies: ["CLibQREncode", "TextFormats"]),
        .target(name: "SlipPrinter", dependencies: ["Handouts", "CPangoCairo"]),
        // Accounts by the thousand: the batch engine (CSV rows, journal, pipelined registration,
        // log-in phase, report) without the command line; XMPPTools' batch command drives it.
        .target(name: "XMPPBatch", dependencies: [
            "XMPPServices", "XMPPConnection", "XMPPStanzas", "XMPPStorage", "PNGImage", "TextFormats", "CryptoPrimitives", "XMLTree",
            "ServerAdmin",
        ]),
        .target(name: "Arguments", dependencies: ["TextFormats"]),
        .target(name: "XMPPTools", dependencies: [
            "Arguments", "XMPPBatch", "TextFormats", "CryptoPrimitives", "XMPPServices", "XMPPConnection", "XMPPStanzas", "XMPPStorage", "PNGImage", "XMLTree",
            "ServerAdmin", "Handouts",
        ]),

        // Thin executables.
        .executableTarget(name: "xmpp-register", dependencies: ["XMPPTools"]),
        .executableTarget(name: "xmpp-login", dependencies: ["XMPPTools"]),
        .executableTarget(name: "xmpp-roster", dependencies: ["XMPPTools"]),
        .executableTarget(name: "xmpp-vcard", dependencies: ["XMPPTools"]),
        .executableTarget(name: "xmpp-avatar", dependencies: ["XMPPTools"]),
        .executableTarget(name: "xmpp-adhoc", dependencies: ["XMPPTools"]),
        // All six in one program, chosen by the name it runs as: what `make install` ships (one
        // copy of the code, the six names as links to it).
        .executableTarget(name: "xmpp-tools", dependencies: ["XMPPTools"]),

        // The slip printer xmpp-register handout runs: a request on stdin, the PDF on stdout.
        .executableTarget(name: "xmpp-tools-slips", dependencies: ["Handouts", "SlipPrinter"]),

        // Writes man/ and completions/ from the specs (`make docs`); a development tool, not a product.
        .executableTarget(name: "xmpp-tools-docgen", dependencies: ["XMPPTools"]),
        // The tools' HTTPS program (HTTPHelper), installed in libexec/xmpp-tools/.
        .executableTarget(name: "xmpp-tools-http", dependencies: ["HTTPHelper"]),

        // libFuzzer targets (fuzz/README.md): built with -sanitize=fuzzer by fuzz/run; in plain
        // builds each one replays input files through the same entry point.
        .target(name: "FuzzSupport"),
        .executableTarget(name: "FuzzXML", dependencies: ["FuzzSupport", "XMLTree"]),
        .executableTarget(name: "FuzzJID", dependencies: ["FuzzSupport", "XMPPStanzas"]),
        .executableTarget(name: "FuzzSCRAM", dependencies: ["FuzzSupport", "XMPPConnection", "CryptoPrimitives"]),
        .executableTarget(name: "FuzzPNG", dependencies: ["FuzzSupport", "PNGImage"]),
        .executableTarget(name: "FuzzVCard", dependencies: ["FuzzSupport", "XMPPStanzas", "XMLTree"]),
        .executableTarget(name: "FuzzCSV", dependencies: ["FuzzSupport", "TextFormats"]),
        .executableTarget(name: "FuzzLDIF", dependencies: ["FuzzSupport", "TextFormats"]),
        .executableTarget(name: "FuzzGroupsFile", dependencies: ["FuzzSupport", "TextFormats"]),

        // One unit-test target per library module.
        .testTarget(name: "XMLTreeTests", dependencies: ["XMLTree"]),
        .testTarget(name: "XMPPStanzasTests", dependencies: ["XMPPStanzas", "XMLTree", "ExportShapes"], exclude: ["Data"]),
        .testTarget(name: "CryptoPrimitivesTests", dependencies: ["CryptoPrimitives"]),
        .testTarget(name: "XMPPConnectionTests", dependencies: ["XMPPConnection", "CryptoPrimitives", "XMPPStanzas", "XMLTree", "COpenSSL", "CResolv"]),
        .testTarget(name: "XMPPServicesTests", dependencies: ["XMPPServices", "XMPPConnection", "CryptoPrimitives", "XMPPStanzas", "XMLTree"]),
        .testTarget(name: "XMPPStorageTests", dependencies: ["XMPPStorage", "XMPPStanzas"]),
        .testTarget(name: "PNGImageTests", dependencies: ["PNGImage", "CLibWebP", "JPEGTestSupport"], exclude: ["Data"]),
        // The tests' JPEG inputs: libjpeg's encoder, which the product never uses.
        .target(name: "CJPEGTestWriter", dependencies: ["CLibJPEG"], path: "Tests/CJPEGTestWriter"),
        .target(name: "JPEGTestSupport", dependencies: ["CJPEGTestWriter"], path: "Tests/JPEGTestSupport"),
        .testTarget(name: "XMPPBatchTests", dependencies: ["XMPPBatch", "XMPPStorage", "XMPPServices", "XMPPConnection", "XMPPStanzas", "TextFormats", "ShellTestSupport", "ServerAdmin"]),
        // Shell runners and the help/man/completion readers both docs test targets use.
        .target(name: "ShellTestSupport", dependencies: ["Arguments"], path: "Tests/ShellTestSupport"),
        .testTarget(name: "ArgumentsTests", dependencies: ["Arguments", "ShellTestSupport", "TextFormats"]),
        .testTarget(name: "TextFormatsTests", dependencies: ["TextFormats"]),
        .testTarget(name: "HandoutsTests", dependencies: ["Handouts"]),
        .testTarget(name: "SlipPrinterTests", dependencies: ["SlipPrinter", "Handouts"]),
        .testTarget(name: "XMPPToolsTests", dependencies: ["XMPPTools", "XMPPBatch", "ShellTestSupport", "XMPPConnection", "XMPPStanzas", "XMPPServices"]),
        // Reads Sources/ and docs/ARCHITECTURE.md: the import graph is the documented one.
        .testTarget(name: "ArchitectureTests"),
        // Address-book exports made by the tests, shared by the reader's and the import's tests.
        .target(name: "ExportShapes", path: "Tests/ExportShapes"),
        .testTarget(name: "EndToEndTests", dependencies: ["XMPPStanzas", "ExportShapes"]),
    ],
    swiftLanguageModes: [.v6]
)
