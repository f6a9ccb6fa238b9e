# fish completion for xmpp-avatar. Generated from its argument spec; do not edit.

# Prints the subcommand being completed and how many of its arguments precede the cursor.
function __xmpp_avatar_position
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l cmd ''
    set -l count 0
    set -l skip 0
    set -l ended 0
    for token in $tokens
        if test $skip = 1
            set skip 0
        else if test $ended = 0; and string match -q -r -- '^-.' $token
            switch $token
                case --
                    set ended 1
                case -a --account --server --ca-file --pin --timeout --resource --size --fit --access --password-file -o --output --source
                    set skip 1
            end
        else if test -z "$cmd"
            if contains -- $token set get info remove resize
                set cmd $token
            else
                set cmd '?'
            end
        else
            set count (math $count + 1)
        end
    end
    printf '%s\n' "$cmd" $count
end

# Succeeds when completing argument INDEX (from 0) of subcommand CMD ('' before any);
# INDEX +N means N or later.
function __xmpp_avatar_at --argument-names cmd index
    set -l position (__xmpp_avatar_position)
    test "$position[1]" = "$cmd"; or return 1
    if string match -q -- '+*' $index
        test $position[2] -ge (string sub -s 2 -- $index)
    else
        test $position[2] -eq $index
    end
end

# Files ending in one of the given extensions, and directories.
function __xmpp_avatar_files
    set -l token (commandline -ct)
    for path in $token*
        if test -d $path
            printf '%s/\n' $path
        else if string match -q -r -- '\.('(string join '|' $argv)')$' $path
            printf '%s\n' $path
        end
    end
end

# Candidates the tool lists offline: 'xmpp-avatar __complete KIND', one per line.
function __xmpp_avatar_dynamic --argument-names kind
    set -l request __complete $kind
    set -l tokens (commandline -opc)
    for i in (seq (count $tokens))
        switch $tokens[$i]
            case -a --account
                set -q tokens[(math $i + 1)]; and set request $request --account $tokens[(math $i + 1)]
            case '--account=*'
                set request $request --account (string replace -- --account= '' $tokens[$i])
        end
    end
    command xmpp-avatar $request 2>/dev/null
end

complete -c xmpp-avatar -f
complete -c xmpp-avatar -s a -l account -x -a '(__xmpp_avatar_dynamic accounts)' -d 'Act as this account instead of the active one.'
complete -c xmpp-avatar -l json -d 'Print one JSON document for scripts instead of text for people.'
complete -c xmpp-avatar -l server -x -d 'Connect to this host and port instead of looking up the domain\'s SRV records; given more than once, try them in order (a batch spreads its streams over all of them).'
complete -c xmpp-avatar -l direct-tls -d 'Start TLS with the first byte (XEP-0368) instead of STARTTLS.'
complete -c xmpp-avatar -l ca-file -x -a '(__xmpp_avatar_files pem PEM crt CRT)' -d 'Trust the certificate authorities in this PEM file instead of the system\'s.'
complete -c xmpp-avatar -l pin -x -d 'Accept only a server whose public key has this SHA-256; without --ca-file, the pin replaces certificate verification.'
complete -c xmpp-avatar -l insecure -d 'Do not verify the server\'s certificate: anyone on the network path can read the session. Warns on every use, even with -q; never remembered, and not allowed with --pin or --ca-file.'
complete -c xmpp-avatar -l timeout -x -d 'Give up on a network step (connect, TLS, a request) that takes longer than this many seconds.'
complete -c xmpp-avatar -l resource -x -d 'Bind this resource instead of xmpp-tools.RANDOM; checked as a JID\'s resource is (exit status 9).'
complete -c xmpp-avatar -l trace -d 'Print the XML exchanged with the server on standard error, credentials redacted.'
complete -c xmpp-avatar -s q -l quiet -d 'Print no notes and no warnings, only data and errors.'
complete -c xmpp-avatar -s h -l help -d 'Show this help and exit.'
complete -c xmpp-avatar -l version -d 'Print the version and exit.'
complete -c xmpp-avatar -n '__xmpp_avatar_at set +0' -l size -x -d 'Side of the square avatar, 16 to 1024.'
complete -c xmpp-avatar -n '__xmpp_avatar_at set +0' -l fit -x -a 'crop pad' -d 'crop: cut the long side to the centred square; pad: keep it all, with transparent borders.'
complete -c xmpp-avatar -n '__xmpp_avatar_at set +0' -l access -x -a 'open presence' -d 'Who may fetch it over PEP: open (anyone, as most clients expect) or presence (contacts only).'
complete -c xmpp-avatar -n '__xmpp_avatar_at set +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-avatar -n '__xmpp_avatar_at set +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-avatar -n '__xmpp_avatar_at set 0' -x -a '(__xmpp_avatar_files png PNG jpg JPG jpeg JPEG webp WEBP)'
complete -c xmpp-avatar -n '__xmpp_avatar_at get +0' -s o -l output -r -F -d 'Write the image here (- for standard output).'
complete -c xmpp-avatar -n '__xmpp_avatar_at get +0' -l cached -d 'Answer from the local cache only, without connecting.'
complete -c xmpp-avatar -n '__xmpp_avatar_at get +0' -l source -x -a 'auto pep vcard' -d 'Where to look: auto (PEP, then the vCard), pep (XEP-0084 only) or vcard (XEP-0153 only).'
complete -c xmpp-avatar -n '__xmpp_avatar_at get +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-avatar -n '__xmpp_avatar_at get +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-avatar -n '__xmpp_avatar_at get 0' -x -a '(__xmpp_avatar_dynamic contacts)'
complete -c xmpp-avatar -n '__xmpp_avatar_at info +0' -l cached -d 'Answer from the local cache only, without connecting.'
complete -c xmpp-avatar -n '__xmpp_avatar_at info +0' -l source -x -a 'auto pep vcard' -d 'Where to look: auto (PEP, then the vCard), pep (XEP-0084 only) or vcard (XEP-0153 only).'
complete -c xmpp-avatar -n '__xmpp_avatar_at info +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-avatar -n '__xmpp_avatar_at info +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-avatar -n '__xmpp_avatar_at info 0' -x -a '(__xmpp_avatar_dynamic contacts)'
complete -c xmpp-avatar -n '__xmpp_avatar_at remove +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-avatar -n '__xmpp_avatar_at remove +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-avatar -n '__xmpp_avatar_at resize +0' -s o -l output -x -a '(__xmpp_avatar_files png PNG)' -d 'Where to write the PNG (- for standard output).'
complete -c xmpp-avatar -n '__xmpp_avatar_at resize +0' -l size -x -d 'Side of the square avatar, 16 to 1024.'
complete -c xmpp-avatar -n '__xmpp_avatar_at resize +0' -l fit -x -a 'crop pad' -d 'crop: cut the long side to the centred square; pad: keep it all, with transparent borders.'
complete -c xmpp-avatar -n '__xmpp_avatar_at resize 0' -x -a '(__xmpp_avatar_files png PNG jpg JPG jpeg JPEG webp WEBP)'
complete -c xmpp-avatar -n '__xmpp_avatar_at "" 0' -a set -d 'Resize IMAGE and publish it as the account\'s avatar (PEP and vCard); print its SHA-1.'
complete -c xmpp-avatar -n '__xmpp_avatar_at "" 0' -a get -d 'Fetch an avatar, check its SHA-1 and write its bytes.'
complete -c xmpp-avatar -n '__xmpp_avatar_at "" 0' -a info -d 'Show an avatar\'s SHA-1, type, size in bytes, dimensions and source (pep or vcard).'
complete -c xmpp-avatar -n '__xmpp_avatar_at "" 0' -a remove -d 'Remove the account\'s avatar: empty PEP metadata, data retracted, vCard PHOTO cleared.'
complete -c xmpp-avatar -n '__xmpp_avatar_at "" 0' -a resize -d 'Resize IMAGE to a square PNG, offline (no account needed).'
