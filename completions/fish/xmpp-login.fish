# fish completion for xmpp-login. Generated from its argument spec; do not edit.

# Prints the subcommand being completed and how many of its arguments precede the cursor.
function __xmpp_login_position
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
                case -a --account --server --ca-file --pin --timeout --resource --password-file --password-command --session
                    set skip 1
            end
        else if test -z "$cmd"
            if contains -- $token login status list switch forget-settings logout
                set cmd $token
            else
                set cmd login
                set count 1
            end
        else
            set count (math $count + 1)
        end
    end
    printf '%s\n' "$cmd" $count
end

# Succeeds when completing argument INDEX (from 0) of subcommand CMD ('' before any);
# INDEX +N means N or later.
function __xmpp_login_at --argument-names cmd index
    set -l position (__xmpp_login_position)
    test "$position[1]" = "$cmd"; or return 1
    if string match -q -- '+*' $index
        test $position[2] -ge (string sub -s 2 -- $index)
    else
        test $position[2] -eq $index
    end
end

# Files ending in one of the given extensions, and directories.
function __xmpp_login_files
    set -l token (commandline -ct)
    for path in $token*
        if test -d $path
            printf '%s/\n' $path
        else if string match -q -r -- '\.('(string join '|' $argv)')$' $path
            printf '%s\n' $path
        end
    end
end

# Candidates the tool lists offline: 'xmpp-login __complete KIND', one per line.
function __xmpp_login_dynamic --argument-names kind
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
    command xmpp-login $request 2>/dev/null
end

complete -c xmpp-login -f
complete -c xmpp-login -s a -l account -x -a '(__xmpp_login_dynamic accounts)' -d 'Act as this account instead of the active one.'
complete -c xmpp-login -l json -d 'Print one JSON document for scripts instead of text for people.'
complete -c xmpp-login -l server -x -d 'Connect to this host and port instead of looking up the domain\'s SRV records; given more than once, try them in order (a batch spreads its streams over all of them).'
complete -c xmpp-login -l direct-tls -d 'Start TLS with the first byte (XEP-0368) instead of STARTTLS.'
complete -c xmpp-login -l ca-file -x -a '(__xmpp_login_files pem PEM crt CRT)' -d 'Trust the certificate authorities in this PEM file instead of the system\'s.'
complete -c xmpp-login -l pin -x -d 'Accept only a server whose public key has this SHA-256; without --ca-file, the pin replaces certificate verification.'
complete -c xmpp-login -l insecure -d 'Do not verify the server\'s certificate: anyone on the network path can read the session. Warns on every use, even with -q; never remembered, and not allowed with --pin or --ca-file.'
complete -c xmpp-login -l timeout -x -d 'Give up on a network step (connect, TLS, a request) that takes longer than this many seconds.'
complete -c xmpp-login -l resource -x -d 'Bind this resource instead of xmpp-tools.RANDOM; checked as a JID\'s resource is (exit status 9).'
complete -c xmpp-login -l trace -d 'Print the XML exchanged with the server on standard error, credentials redacted.'
complete -c xmpp-login -s q -l quiet -d 'Print no notes and no warnings, only data and errors.'
complete -c xmpp-login -s h -l help -d 'Show this help and exit.'
complete -c xmpp-login -l version -d 'Print the version and exit.'
complete -c xmpp-login -n '__xmpp_login_at login +0; or __xmpp_login_at "" 0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-login -n '__xmpp_login_at login +0; or __xmpp_login_at "" 0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-login -n '__xmpp_login_at login +0; or __xmpp_login_at "" 0' -l password-command -x -d 'Get the password from the first line COMMAND prints (run by /bin/sh), and keep the command where the server\'s SCRAM keys cannot be cached.'
complete -c xmpp-login -n '__xmpp_login_at login +0; or __xmpp_login_at "" 0' -l allow-plain -d 'Accept PLAIN (over TLS) for this account from now on, after its server really stopped offering SCRAM.'
complete -c xmpp-login -n '__xmpp_login_at login +0; or __xmpp_login_at "" 0' -l session -x -a 'auto fast scram-keys' -d 'What to cache: auto (a FAST token where the server offers one, else SCRAM keys), fast or scram-keys.'
complete -c xmpp-login -n '__xmpp_login_at "" 0' -x -a '(__xmpp_login_dynamic accounts)'
complete -c xmpp-login -n '__xmpp_login_at login 0' -x -a '(__xmpp_login_dynamic accounts)'
complete -c xmpp-login -n '__xmpp_login_at status 0' -x -a '(__xmpp_login_dynamic accounts)'
complete -c xmpp-login -n '__xmpp_login_at switch 0' -x -a '(__xmpp_login_dynamic accounts)'
complete -c xmpp-login -n '__xmpp_login_at forget-settings 0' -x -a '(__xmpp_login_dynamic accounts)'
complete -c xmpp-login -n '__xmpp_login_at logout +0' -l all -d 'Log out of every account.'
complete -c xmpp-login -n '__xmpp_login_at logout 0' -x -a '(__xmpp_login_dynamic accounts)'
complete -c xmpp-login -n '__xmpp_login_at "" 0' -a status -d 'Check the cached session by authenticating with it, and show how it went.'
complete -c xmpp-login -n '__xmpp_login_at "" 0' -a list -d 'List the known accounts; * marks the active one.'
complete -c xmpp-login -n '__xmpp_login_at "" 0' -a switch -d 'Make another logged-in account the active one.'
complete -c xmpp-login -n '__xmpp_login_at "" 0' -a forget-settings -d 'Forget the remembered --server, --direct-tls, --ca-file and --pin of an account (default: the active one).'
complete -c xmpp-login -n '__xmpp_login_at "" 0' -a logout -d 'Forget the cached session of an account (default: the active one).'
