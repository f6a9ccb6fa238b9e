import Arguments

/// The command line of `xmpp-avatar`.
public enum AvatarSpec {
    private static let size = OptionSpec("size", value: "PIXELS", help: "Side of the square avatar, 16 to 1024.", default: "100")
    private static let fit = OptionSpec("fit", value: "MODE",
                                        help: "crop: cut the long side to the centred square; pad: keep it all, with transparent borders.",
                                        default: "crop", completion: .values(["crop", "pad"]))
    private static let source = OptionSpec(
        "source", value: "WHERE",
        help: "Where to look: auto (PEP, then the vCard), pep (XEP-0084 only) or vcard (XEP-0153 only).",
        default: "auto", completion: .values(["auto", "pep", "vcard"]))
    private static let cached = OptionSpec.flag("cached", help: "Answer from the local cache only, without connecting.")
    private static let jid = PositionalSpec("JID", help: "Whose avatar (default: the account's own); a name without @ is on the account's domain.",
                                            optional: true, completion: .contacts)

    /// The declaration that drives parsing, help, man page and completions.
    public static let spec = ToolSpec(
        name: "xmpp-avatar",
        summary: "set, fetch and remove XMPP user avatars (XEP-0084 and vCard PHOTO)",
        description: [
            "xmpp-avatar turns any PNG or JPEG into a small square PNG and publishes it both ways clients look for "
                + "avatars: as XEP-0084 User Avatar over PEP (data node, then metadata; the id is the SHA-1 of the PNG) "
                + "and as the PHOTO of the vcard-temp vCard (XEP-0153), merged into the existing card so no other field "
                + "changes. It fetches anyone's avatar, PEP first and the vCard as fallback, and checks its SHA-1.",
            "Images are decoded row by row and area-averaged on the fly, so a 12-megapixel photo resizes in a few MB. "
                + "resize runs the same pipeline offline, without an account.",
            "Fetched avatars are cached once per SHA-1 in $XDG_CACHE_HOME/xmpp-tools/cache.sqlite3; an image already "
                + "there is not downloaded again (XEP-0084 §4.4), and --cached answers without the network.",
        ],
        version: CommonSpec.version,
        commonOptions: CommonSpec.options,
        subcommands: [
            CommandSpec(
                "set", summary: "Resize IMAGE and publish it as the account's avatar (PEP and vCard); print its SHA-1.",
                discussion: [
                    "The vCard is fetched, only its PHOTO is replaced (TYPE image/png and BINVAL), and it is stored back. "
                        + "Then the PNG is published to urn:xmpp:avatar:data and its metadata (id, bytes, width, height, "
                        + "type) to urn:xmpp:avatar:metadata, asking with publish-options for the access model given by "
                        + "--access. A node configured otherwise is reconfigured; a server that refuses publish-options "
                        + "gets the items without them. Setting the same image again is harmless.",
                    "The vCard goes first because servers that sync the vCard to PEP (Prosody's vcard_legacy) republish "
                        + "the PEP nodes from it, without the dimensions; publishing PEP last leaves the metadata complete.",
                ],
                options: [
                    size, fit,
                    OptionSpec("access", value: "MODEL",
                               help: "Who may fetch it over PEP: open (anyone, as most clients expect) or presence (contacts only).",
                               default: "open", completion: .values(["open", "presence"])),
                ],
                positionals: [PositionalSpec("IMAGE", help: "A PNG or JPEG file, or - for standard input.",
                                             completion: .file(extensions: ["png", "jpg", "jpeg"]))],
                examples: [Example("xmpp-avatar set me.jpg", "Publish a photo as the avatar, cropped to 100x100.")]),
            CommandSpec(
                "get", summary: "Fetch an avatar, check its SHA-1 and write its bytes.",
                discussion: [
                    "The image goes to FILE, or to standard output when that is not a terminal (-o - or no -o). With -o "
                        + "FILE the SHA-1 is printed. Exit status 4 when the JID has no avatar.",
                ],
                options: [
                    OptionSpec("output", short: "o", value: "FILE", help: "Write the image here (- for standard output).",
                               completion: .anyFile),
                    cached, source,
                ],
                positionals: [jid],
                examples: [Example("xmpp-avatar get bob -o bob.png", "Save bob's avatar (bob on the account's domain).")]),
            CommandSpec(
                "info", summary: "Show an avatar's SHA-1, type, size in bytes, dimensions and source (pep or vcard).",
                options: [cached, source],
                positionals: [jid]),
            CommandSpec(
                "remove", summary: "Remove the account's avatar: empty PEP metadata, data retracted, vCard PHOTO cleared.",
                discussion: ["Every other vCard field is kept. Removing when there is no avatar is not an error."]),
            CommandSpec(
                "resize", summary: "Resize IMAGE to a square PNG, offline (no account needed).",
                options: [
                    OptionSpec("output", short: "o", value: "FILE", help: "Where to write the PNG (- for standard output).",
                               completion: .file(extensions: ["png"])),
                    size, fit,
                ],
                positionals: [PositionalSpec("IMAGE", help: "A PNG or JPEG file, or - for standard input.",
                                             completion: .file(extensions: ["png", "jpg", "jpeg"]))]),
        ],
        exitCodes: CommonSpec.exitCodes,
        environment: CommonSpec.environment,
        files: CommonSpec.files,
        examples: [
            Example("xmpp-avatar set ~/photo.jpg --fit pad", "Publish a photo whole, padded to a square."),
            Example("xmpp-avatar get alice@example.org > alice.png", "Save someone's avatar through a redirect."),
            Example("xmpp-avatar info bob --json | jq -r .hash", "Print the SHA-1 of bob's avatar."),
            Example("xmpp-avatar get bob --cached | display -", "Show a cached avatar without connecting."),
            Example("curl -s https://example.org/me.png | xmpp-avatar set -", "Publish an image from a pipe."),
            Example("for f in *.jpg; do xmpp-avatar resize \"$f\" -o \"${f%.jpg}.png\" --size 64; done",
                    "Make 64x64 avatars of a folder of photos, offline."),
            Example("xmpp-avatar remove", "Remove the account's avatar everywhere."),
        ],
        seeAlso: ["xmpp-login(1)", "xmpp-vcard(1)", "xmpp-tools(7)"]
    )
}
