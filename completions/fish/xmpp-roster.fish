# fish completion for xmpp-roster. Generated from its argument spec; do not edit.

# Prints the subcommand being completed and how many of its arguments precede the cursor.
function __xmpp_roster_position
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
                case -a --account --server --ca-file --pin --timeout --resource --group --subscription --password-file --name --format --domain --show --status --priority
                    set skip 1
            end
        else if test -z "$cmd"
            if contains -- $token list add remove rename group pending approve deny groups export import watch
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
function __xmpp_roster_at --argument-names cmd index
    set -l position (__xmpp_roster_position)
    test "$position[1]" = "$cmd"; or return 1
    if string match -q -- '+*' $index
        test $position[2] -ge (string sub -s 2 -- $index)
    else
        test $position[2] -eq $index
    end
end

# Files ending in one of the given extensions, and directories.
function __xmpp_roster_files
    set -l token (commandline -ct)
    for path in $token*
        if test -d $path
            printf '%s/\n' $path
        else if string match -q -r -- '\.('(string join '|' $argv)')$' $path
            printf '%s\n' $path
        end
    end
end

# Candidates the tool lists offline: 'xmpp-roster __complete KIND', one per line.
function __xmpp_roster_dynamic --argument-names kind
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
    command xmpp-roster $request 2>/dev/null
end

complete -c xmpp-roster -f
complete -c xmpp-roster -s a -l account -x -a '(__xmpp_roster_dynamic accounts)' -d 'Act as this account instead of the active one.'
complete -c xmpp-roster -l json -d 'Print one JSON document for scripts instead of text for people.'
complete -c xmpp-roster -l server -x -d 'Connect to this host and port instead of looking up the domain\'s SRV records; given more than once, try them in order (a batch spreads its streams over all of them).'
complete -c xmpp-roster -l direct-tls -d 'Start TLS with the first byte (XEP-0368) instead of STARTTLS.'
complete -c xmpp-roster -l ca-file -x -a '(__xmpp_roster_files pem PEM crt CRT)' -d 'Trust the certificate authorities in this PEM file instead of the system\'s.'
complete -c xmpp-roster -l pin -x -d 'Accept only a server whose public key has this SHA-256; without --ca-file, the pin replaces certificate verification.'
complete -c xmpp-roster -l insecure -d 'Do not verify the server\'s certificate: anyone on the network path can read the session. Warns on every use, even with -q; never remembered, and not allowed with --pin or --ca-file.'
complete -c xmpp-roster -l timeout -x -d 'Give up on a network step (connect, TLS, a request) that takes longer than this many seconds.'
complete -c xmpp-roster -l resource -x -d 'Bind this resource instead of xmpp-tools.RANDOM; checked as a JID\'s resource is (exit status 9).'
complete -c xmpp-roster -l trace -d 'Print the XML exchanged with the server on standard error, credentials redacted.'
complete -c xmpp-roster -s q -l quiet -d 'Print no notes and no warnings, only data and errors.'
complete -c xmpp-roster -s h -l help -d 'Show this help and exit.'
complete -c xmpp-roster -l version -d 'Print the version and exit.'
complete -c xmpp-roster -n '__xmpp_roster_at list +0' -l online -d 'Only contacts that are available now.'
complete -c xmpp-roster -n '__xmpp_roster_at list +0' -l group -x -a '(__xmpp_roster_dynamic groups)' -d 'Only contacts in GROUP (repeat for any of several).'
complete -c xmpp-roster -n '__xmpp_roster_at list +0' -l subscription -x -a 'none to from both ask' -d 'Only contacts in this subscription state (ask: a request of yours is pending).'
complete -c xmpp-roster -n '__xmpp_roster_at list +0' -l cached -d 'Answer from the local cache without touching the network.'
complete -c xmpp-roster -n '__xmpp_roster_at list +0' -l no-presence -d 'Do not ask for contacts\' presence.'
complete -c xmpp-roster -n '__xmpp_roster_at list +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-roster -n '__xmpp_roster_at list +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-roster -n '__xmpp_roster_at add +0' -l name -x -d 'The name to show for the contact.'
complete -c xmpp-roster -n '__xmpp_roster_at add +0' -l group -x -a '(__xmpp_roster_dynamic groups)' -d 'Put the contact in GROUP (repeat for several).'
complete -c xmpp-roster -n '__xmpp_roster_at add +0' -l no-subscribe -d 'Only add the roster item; send no subscription request.'
complete -c xmpp-roster -n '__xmpp_roster_at add +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-roster -n '__xmpp_roster_at add +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-roster -n '__xmpp_roster_at add +0' -x -a '(__xmpp_roster_dynamic contacts)'
complete -c xmpp-roster -n '__xmpp_roster_at remove +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-roster -n '__xmpp_roster_at remove +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-roster -n '__xmpp_roster_at remove 0' -x -a '(__xmpp_roster_dynamic contacts)'
complete -c xmpp-roster -n '__xmpp_roster_at rename +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-roster -n '__xmpp_roster_at rename +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-roster -n '__xmpp_roster_at rename 0' -x -a '(__xmpp_roster_dynamic contacts)'
complete -c xmpp-roster -n '__xmpp_roster_at group +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-roster -n '__xmpp_roster_at group +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-roster -n '__xmpp_roster_at group 0' -x -a '(__xmpp_roster_dynamic contacts)'
complete -c xmpp-roster -n '__xmpp_roster_at group +1' -x -a '(__xmpp_roster_dynamic groups)'
complete -c xmpp-roster -n '__xmpp_roster_at pending +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-roster -n '__xmpp_roster_at pending +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-roster -n '__xmpp_roster_at approve +0' -l all -d 'Approve every pending request.'
complete -c xmpp-roster -n '__xmpp_roster_at approve +0' -l add-back -d 'Also ask to see their presence in return, as auto-accepting clients do.'
complete -c xmpp-roster -n '__xmpp_roster_at approve +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-roster -n '__xmpp_roster_at approve +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-roster -n '__xmpp_roster_at approve 0' -x -a '(__xmpp_roster_dynamic contacts)'
complete -c xmpp-roster -n '__xmpp_roster_at deny +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-roster -n '__xmpp_roster_at deny +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-roster -n '__xmpp_roster_at deny 0' -x -a '(__xmpp_roster_dynamic contacts)'
complete -c xmpp-roster -n '__xmpp_roster_at groups +0' -l cached -d 'Answer from the local cache without touching the network.'
complete -c xmpp-roster -n '__xmpp_roster_at groups +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-roster -n '__xmpp_roster_at groups +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-roster -n '__xmpp_roster_at export +0' -l format -x -a 'json csv vcf' -d 'json (default), csv, or vcf (vCard 4.0 cards for an address book).'
complete -c xmpp-roster -n '__xmpp_roster_at export +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-roster -n '__xmpp_roster_at export +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-roster -n '__xmpp_roster_at import +0' -l dry-run -d 'Only show what would change.'
complete -c xmpp-roster -n '__xmpp_roster_at import +0' -l no-subscribe -d 'Send no subscription requests for added contacts.'
complete -c xmpp-roster -n '__xmpp_roster_at import +0' -l domain -x -d 'The domain of a CSV username column (default: the account\'s domain).'
complete -c xmpp-roster -n '__xmpp_roster_at import +0' -l group -x -d 'Also put every contact of the file in GROUP (repeat for several).'
complete -c xmpp-roster -n '__xmpp_roster_at import +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-roster -n '__xmpp_roster_at import +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-roster -n '__xmpp_roster_at import 0' -x -a '(__xmpp_roster_files json JSON csv CSV)'
complete -c xmpp-roster -n '__xmpp_roster_at watch +0' -l auto-approve -d 'Approve every subscription request and subscribe back (for bots).'
complete -c xmpp-roster -n '__xmpp_roster_at watch +0' -l show -x -a 'online chat away xa dnd' -d 'Presence to show while watching.'
complete -c xmpp-roster -n '__xmpp_roster_at watch +0' -l status -x -d 'Status text to show while watching.'
complete -c xmpp-roster -n '__xmpp_roster_at watch +0' -l priority -x -d 'Resource priority, -128 to 127 (negative: no messages routed here).'
complete -c xmpp-roster -n '__xmpp_roster_at watch +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-roster -n '__xmpp_roster_at watch +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-roster -n '__xmpp_roster_at "" 0' -a list -d 'List contacts with subscription and presence.'
complete -c xmpp-roster -n '__xmpp_roster_at "" 0' -a add -d 'Add a contact and ask to see their presence.'
complete -c xmpp-roster -n '__xmpp_roster_at "" 0' -a remove -d 'Remove a contact (and the subscriptions both ways); exit 4 if not in the roster.'
complete -c xmpp-roster -n '__xmpp_roster_at "" 0' -a rename -d 'Change the name shown for a contact (\'\' removes it).'
complete -c xmpp-roster -n '__xmpp_roster_at "" 0' -a group -d 'Set the groups of a contact (none given: no groups).'
complete -c xmpp-roster -n '__xmpp_roster_at "" 0' -a pending -d 'List subscription requests waiting for an answer.'
complete -c xmpp-roster -n '__xmpp_roster_at "" 0' -a approve -d 'Let a contact (or everyone waiting, with --all) see your presence.'
complete -c xmpp-roster -n '__xmpp_roster_at "" 0' -a deny -d 'Refuse a subscription request, or revoke an approval.'
complete -c xmpp-roster -n '__xmpp_roster_at "" 0' -a groups -d 'List the roster\'s groups and how many contacts each holds.'
complete -c xmpp-roster -n '__xmpp_roster_at "" 0' -a export -d 'Print the roster (JID, name, groups, subscription) as JSON, CSV or vCard.'
complete -c xmpp-roster -n '__xmpp_roster_at "" 0' -a import -d 'Merge an exported roster: add missing contacts, update names and groups.'
complete -c xmpp-roster -n '__xmpp_roster_at "" 0' -a watch -d 'Stay online and print roster pushes, subscription requests and presence changes.'
