# fish completion for xmpp-adhoc. Generated from its argument spec; do not edit.

# Prints the subcommand being completed and how many of its arguments precede the cursor.
function __xmpp_adhoc_position
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
                case -a --account --server --ca-file --pin --timeout --resource --to --field --password-field --password-file
                    set skip 1
            end
        else if test -z "$cmd"
            if contains -- $token list form run
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
function __xmpp_adhoc_at --argument-names cmd index
    set -l position (__xmpp_adhoc_position)
    test "$position[1]" = "$cmd"; or return 1
    if string match -q -- '+*' $index
        test $position[2] -ge (string sub -s 2 -- $index)
    else
        test $position[2] -eq $index
    end
end

# Files ending in one of the given extensions, and directories.
function __xmpp_adhoc_files
    set -l token (commandline -ct)
    for path in $token*
        if test -d $path
            printf '%s/\n' $path
        else if string match -q -r -- '\.('(string join '|' $argv)')$' $path
            printf '%s\n' $path
        end
    end
end

# Candidates the tool lists offline: 'xmpp-adhoc __complete KIND', one per line.
function __xmpp_adhoc_dynamic --argument-names kind
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
    command xmpp-adhoc $request 2>/dev/null
end

complete -c xmpp-adhoc -f
complete -c xmpp-adhoc -s a -l account -x -a '(__xmpp_adhoc_dynamic accounts)' -d 'Act as this account instead of the active one.'
complete -c xmpp-adhoc -l json -d 'Print one JSON document for scripts instead of text for people.'
complete -c xmpp-adhoc -l server -x -d 'Connect to this host and port instead of looking up the domain\'s SRV records; given more than once, try them in order (a batch spreads its streams over all of them).'
complete -c xmpp-adhoc -l direct-tls -d 'Start TLS with the first byte (XEP-0368) instead of STARTTLS.'
complete -c xmpp-adhoc -l ca-file -x -a '(__xmpp_adhoc_files pem PEM crt CRT)' -d 'Trust the certificate authorities in this PEM file instead of the system\'s.'
complete -c xmpp-adhoc -l pin -x -d 'Accept only a server whose public key has this SHA-256; without --ca-file, the pin replaces certificate verification.'
complete -c xmpp-adhoc -l insecure -d 'Do not verify the server\'s certificate: anyone on the network path can read the session. Warns on every use, even with -q; never remembered, and not allowed with --pin or --ca-file.'
complete -c xmpp-adhoc -l timeout -x -d 'Give up on a network step (connect, TLS, a request) that takes longer than this many seconds.'
complete -c xmpp-adhoc -l resource -x -d 'Bind this resource instead of xmpp-tools.RANDOM; checked as a JID\'s resource is (exit status 9).'
complete -c xmpp-adhoc -l trace -d 'Print the XML exchanged with the server on standard error, credentials redacted.'
complete -c xmpp-adhoc -s q -l quiet -d 'Print no notes and no warnings, only data and errors.'
complete -c xmpp-adhoc -s h -l help -d 'Show this help and exit.'
complete -c xmpp-adhoc -l version -d 'Print the version and exit.'
complete -c xmpp-adhoc -n '__xmpp_adhoc_at list +0' -l to -x -d 'The entity whose commands are meant (default: the account\'s server).'
complete -c xmpp-adhoc -n '__xmpp_adhoc_at form +0' -l to -x -d 'The entity whose commands are meant (default: the account\'s server).'
complete -c xmpp-adhoc -n '__xmpp_adhoc_at run +0' -l to -x -d 'The entity whose commands are meant (default: the account\'s server).'
complete -c xmpp-adhoc -n '__xmpp_adhoc_at run +0' -l field -x -d 'Answer the form field NAME; repeat it for each value of a multi-value field.'
complete -c xmpp-adhoc -n '__xmpp_adhoc_at run +0' -l password-field -x -d 'Answer the field NAME with the password (from --password-file, --password-stdin, XMPP_PASSWORD or a prompt).'
complete -c xmpp-adhoc -n '__xmpp_adhoc_at run +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-adhoc -n '__xmpp_adhoc_at run +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-adhoc -n '__xmpp_adhoc_at "" 0' -a list -d 'List the commands the server (or --to JID) offers the account.'
complete -c xmpp-adhoc -n '__xmpp_adhoc_at "" 0' -a form -d 'Show the form a command asks to fill in first, then cancel it.'
complete -c xmpp-adhoc -n '__xmpp_adhoc_at "" 0' -a run -d 'Run a command, answering its forms with --field NAME=VALUE.'
