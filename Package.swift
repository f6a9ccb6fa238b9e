// swift-tools-version:6.0
import PackageDescription

/// Layers (docs/ARCHITECTURE.md §1, checked by Tests/ArchitectureTests): each module imports
/// only those above it in this list; each C library comes in through one system-library target.
/// Linux only: the code calls Glibc directly.
/// How the shipped program is linked in release builds (docs/DESIGN-NOTES.md "Footprint"):
/// - with lld, the functions that start-up runs placed together (packaging/startup-order.txt,
///   written by scripts/startup-order), since the kernel maps 64 KB of code around every page
///   first touched;
/// - segments aligned to 64 KB, so the kernel loads the program at a 64 KB boundary and those
///   windows fall on the same code every run (with 4 KB alignment they moved with the random
///   load address: a roster list mapped 3.0-3.2 MB of code from the linker's file, 3.7-4.0 MB
///   from a copy made with cp or install, whose page cache holds large folios; 3.2 MB now);
/// - the relative relocations packed (DT_RELR), so the loader reads 8 KB of them, not 1 MB;
/// - only the symbols shared libraries need exported (5,600 exported ones cost the loader's
///   look-ups of every library's symbols a search of them, and 0.8 MB of RSS);
/// - libstdc++ (the Swift runtime's C++) from its static archive: the driver's `-lstdc++` finds
///   packaging/link/libstdc++.so first, a linker script naming libstdc++.a, since the shared
///   library cost 0.9 MB of RSS for the few functions the runtime calls.
let packageRoot = String(String(#filePath).dropLast("Package.swift".count))
let shippedProgramLinking: [LinkerSetting] = [
    .unsafeFlags([
        "-L", packageRoot + "packaging/link",
        "-use-ld=lld",
        "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
        "-Xlinker", "-z", "-Xlinker", "max-page-size=65536",
        "-Xlinker", "--no-export-dynamic",
        "-Xlinker", "--symbol-ordering-file=" + packageRoot + "packaging/startup-order.txt",
        "-Xlinker", "--no-warn-symbol-ordering",
    ], .when(configuration: .release)),
]

/// Each function in a section of its own in release builds, so that the order file above can
/// place the functions a run uses together (a module is one object, one `.text`, otherwise).
let releaseCodeLayout: [SwiftSetting] = [.unsafeFlags(["-function-sections"], .when(configuration: .release))]

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
        // C libraries, one system-library target each. No pkgConfig: its Libs would link them
        // (see CLazyLibraries below); their headers are in the default search path.
        // expat: the XML of streams and documents (docs/DESIGN-NOTES.md "Footprint", why not libxml2).
        .systemLibrary(name: "CLibExpat", providers: [.apt(["libexpat1-dev"])]),
        .systemLibrary(name: "CSQLite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibPNG", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CLibJPEG", providers: [.apt(["libjpeg62-turbo-dev"])]),
        // Little CMS: avatar inputs' ICC profiles and PNG gAMA/cHRM converted to sRGB.
        .systemLibrary(name: "CLibLCMS2", providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CLibCrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CResolv"),
        // IDNA2008/UTS #46 (libidn2) and the Unicode data of PRECIS (libunistring) for JIDs.
        .systemLibrary(name: "CLibIDN2", providers: [.apt(["libidn2-dev", "libunistring-dev"])]),
        // The libraries above but libresolv (and ICU's libicuuc, for CNFKC) are not linked: their
        // modulemaps have no `link`. Every function the code calls from them is a trampoline
        // here that loads its library on first use (docs/DESIGN-NOTES.md "Footprint"; the lists
        // in symbols/, the trampolines written from them by scripts/lazy-libraries). x86_64 only.
        // dlopen and pthread_once are in glibc's libc (2.34 and later): nothing to link.
        .target(name: "CLazyLibraries", exclude: ["symbols", "check"]),

        // Pure and protocol layers.
        // Text as people hand it to the tools and see it: CSV and JSON readers and writers,
        // terminal escaping, code point labels. No XMPP, no app code.
        .target(name: "TextFormats", swiftSettings: releaseCodeLayout),
        .target(name: "XMLTree", dependencies: ["CLibExpat", "CLazyLibraries"], swiftSettings: releaseCodeLayout),
        .target(name: "XMPPStanzas", dependencies: ["XMLTree", "TextFormats", "CLibIDN2", "CLazyLibraries"], swiftSettings: releaseCodeLayout),
        // NFKC for SASLprep from ICU (libicu-dev), which libxml2 loads anyway; loaded on first use.
        .target(name: "CNFKC", dependencies: ["CLazyLibraries"]),
        // Digests, HMAC, PBKDF2, random bytes, Base64 and Hex: what SCRAM, avatars and sessions hash and encode.
        .target(name: "CryptoPrimitives", dependencies: ["CLibCrypto", "CLazyLibraries"], swiftSettings: releaseCodeLayout),
        .target(name: "XMPPConnection", dependencies: [
            "XMPPStanzas", "XMLTree", "TextFormats", "CryptoPrimitives", "COpenSSL", "CResolv", "CNFKC", "CLazyLibraries",
        ], swiftSettings: releaseCodeLayout),
        .target(name: "XMPPServices", dependencies: ["XMPPConnection", "XMPPStanzas", "XMLTree", "CryptoPrimitives"], swiftSettings: releaseCodeLayout),
        .target(name: "XMPPStorage", dependencies: ["XMPPStanzas", "TextFormats", "CSQLite3", "CLazyLibraries"], swiftSettings: releaseCodeLayout),
        .target(name: "CPNGStream", dependencies: ["CLibPNG", "CLibJPEG", "CLibLCMS2", "CLazyLibraries"]),
        .target(name: "PNGImage", dependencies: ["CPNGStream", "CLibPNG"], swiftSettings: releaseCodeLayout),
        // Accounts by the thousand: the batch engine (CSV rows, journal, pipelined registration,
        // log-in phase, report) without the command line; XMPPTools' batch command drives it.
        .target(name: "XMPPBatch", dependencies: [
            "XMPPServices", "XMPPConnection", "XMPPStanzas", "XMPPStorage", "PNGImage", "TextFormats", "CryptoPrimitives", "XMLTree",
        ], swiftSettings: releaseCodeLayout),
        .target(name: "Arguments", swiftSettings: releaseCodeLayout),
        .target(name: "XMPPTools", dependencies: [
            "Arguments", "XMPPBatch", "TextFormats", "CryptoPrimitives", "XMPPServices", "XMPPConnection", "XMPPStanzas", "XMPPStorage", "PNGImage", "XMLTree",
        ], swiftSettings: releaseCodeLayout),

        // Thin executables.
        .executableTarget(name: "xmpp-register", dependencies: ["XMPPTools"]),
        .executableTarget(name: "xmpp-login", dependencies: ["XMPPTools"]),
        .executableTarget(name: "xmpp-roster", dependencies: ["XMPPTools"]),
        .executableTarget(name: "xmpp-vcard", dependencies: ["XMPPTools"]),
        .executableTarget(name: "xmpp-avatar", dependencies: ["XMPPTools"]),
        .executableTarget(name: "xmpp-adhoc", dependencies: ["XMPPTools"]),
        // All six in one program, chosen by the name it runs as: what `make install` ships (one
        // copy of the code, the six names as links to it).
        .executableTarget(name: "xmpp-tools", dependencies: ["XMPPTools"], swiftSettings: releaseCodeLayout,
                          linkerSettings: shippedProgramLinking),

        // Writes man/ and completions/ from the specs (`make docs`); a development tool, not a product.
        .executableTarget(name: "xmpp-tools-docgen", dependencies: ["XMPPTools"]),

        // libFuzzer targets (fuzz/README.md): built with -sanitize=fuzzer by fuzz/run; in plain
        // builds each one replays input files through the same entry point.
        .target(name: "FuzzSupport"),
        .executableTarget(name: "FuzzXML", dependencies: ["FuzzSupport", "XMLTree"]),
        .executableTarget(name: "FuzzJID", dependencies: ["FuzzSupport", "XMPPStanzas"]),
        .executableTarget(name: "FuzzSCRAM", dependencies: ["FuzzSupport", "XMPPConnection", "CryptoPrimitives"]),
        .executableTarget(name: "FuzzPNG", dependencies: ["FuzzSupport", "PNGImage"]),
        .executableTarget(name: "FuzzVCard", dependencies: ["FuzzSupport", "XMPPStanzas", "XMLTree"]),
        .executableTarget(name: "FuzzCSV", dependencies: ["FuzzSupport", "TextFormats"]),

        // One unit-test target per library module.
        .testTarget(name: "XMLTreeTests", dependencies: ["XMLTree"]),
        .testTarget(name: "XMPPStanzasTests", dependencies: ["XMPPStanzas", "XMLTree"], exclude: ["Data"]),
        .testTarget(name: "CryptoPrimitivesTests", dependencies: ["CryptoPrimitives"]),
        .testTarget(name: "XMPPConnectionTests", dependencies: ["XMPPConnection", "CryptoPrimitives", "XMPPStanzas", "XMLTree", "COpenSSL"]),
        .testTarget(name: "XMPPServicesTests", dependencies: ["XMPPServices", "XMPPConnection", "CryptoPrimitives", "XMPPStanzas", "XMLTree"]),
        .testTarget(name: "XMPPStorageTests", dependencies: ["XMPPStorage", "XMPPStanzas"]),
        .testTarget(name: "PNGImageTests", dependencies: ["PNGImage"], exclude: ["Data"]),
        .testTarget(name: "XMPPBatchTests", dependencies: ["XMPPBatch", "XMPPStorage", "XMPPServices", "XMPPConnection", "XMPPStanzas", "TextFormats"]),
        // Shell runners and the help/man/completion readers both docs test targets use.
        .target(name: "ShellTestSupport", dependencies: ["Arguments"], path: "Tests/ShellTestSupport"),
        .testTarget(name: "ArgumentsTests", dependencies: ["Arguments", "ShellTestSupport"]),
        .testTarget(name: "TextFormatsTests", dependencies: ["TextFormats"]),
        .testTarget(name: "XMPPToolsTests", dependencies: ["XMPPTools", "XMPPBatch", "ShellTestSupport", "XMPPConnection", "XMPPStanzas", "XMPPServices"]),
        // Reads Sources/ and docs/ARCHITECTURE.md: the import graph is the documented one.
        .testTarget(name: "ArchitectureTests"),
        .testTarget(name: "EndToEndTests", dependencies: ["XMPPStanzas"]),
    ],
    swiftLanguageModes: [.v6]
)
