# fish completion for xmpp-vcard. Generated from its argument spec; do not edit.

# Prints the subcommand being completed and how many of its arguments precede the cursor.
function __xmpp_vcard_position
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
                case -a --account --server --ca-file --pin --timeout --resource --field --format --photo-out --store --password-file --fullname --given --family --middle --prefix --suffix --nickname --birthday --org --org-unit --title --role --email --phone --address --url --note --jabber-id --photo --clear --access
                    set skip 1
            end
        else if test -z "$cmd"
            if contains -- $token get set import
                set cmd $token
            else
                set cmd get
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
function __xmpp_vcard_at --argument-names cmd index
    set -l position (__xmpp_vcard_position)
    test "$position[1]" = "$cmd"; or return 1
    if string match -q -- '+*' $index
        test $position[2] -ge (string sub -s 2 -- $index)
    else
        test $position[2] -eq $index
    end
end

# Files ending in one of the given extensions, and directories.
function __xmpp_vcard_files
    set -l token (commandline -ct)
    for path in $token*
        if test -d $path
            printf '%s/\n' $path
        else if string match -q -r -- '\.('(string join '|' $argv)')$' $path
            printf '%s\n' $path
        end
    end
end

# Candidates the tool lists offline: 'xmpp-vcard __complete KIND', one per line.
function __xmpp_vcard_dynamic --argument-names kind
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
    command xmpp-vcard $request 2>/dev/null
end

complete -c xmpp-vcard -f
complete -c xmpp-vcard -s a -l account -x -a '(__xmpp_vcard_dynamic accounts)' -d 'Act as this account instead of the active one.'
complete -c xmpp-vcard -l json -d 'Print one JSON document for scripts instead of text for people.'
complete -c xmpp-vcard -l server -x -d 'Connect to this host and port instead of looking up the domain\'s SRV records; given more than once, try them in order (a batch spreads its streams over all of them).'
complete -c xmpp-vcard -l direct-tls -d 'Start TLS with the first byte (XEP-0368) instead of STARTTLS.'
complete -c xmpp-vcard -l ca-file -x -a '(__xmpp_vcard_files pem PEM crt CRT)' -d 'Trust the certificate authorities in this PEM file instead of the system\'s.'
complete -c xmpp-vcard -l pin -x -d 'Accept only a server whose public key has this SHA-256; without --ca-file, the pin replaces certificate verification.'
complete -c xmpp-vcard -l insecure -d 'Do not verify the server\'s certificate: anyone on the network path can read the session. Warns on every use, even with -q; never remembered, and not allowed with --pin or --ca-file.'
complete -c xmpp-vcard -l timeout -x -d 'Give up on a network step (connect, TLS, a request) that takes longer than this many seconds.'
complete -c xmpp-vcard -l resource -x -d 'Bind this resource instead of xmpp-tools.RANDOM; checked as a JID\'s resource is (exit status 9).'
complete -c xmpp-vcard -l trace -d 'Print the XML exchanged with the server on standard error, credentials redacted.'
complete -c xmpp-vcard -s q -l quiet -d 'Print no notes and no warnings, only data and errors.'
complete -c xmpp-vcard -s h -l help -d 'Show this help and exit.'
complete -c xmpp-vcard -l version -d 'Print the version and exit.'
complete -c xmpp-vcard -n '__xmpp_vcard_at get +0; or __xmpp_vcard_at "" 0' -l cached -d 'Answer from the cache only, without connecting (works offline).'
complete -c xmpp-vcard -n '__xmpp_vcard_at get +0; or __xmpp_vcard_at "" 0' -l refresh -d 'Always ask the server; never fall back to the cache.'
complete -c xmpp-vcard -n '__xmpp_vcard_at get +0; or __xmpp_vcard_at "" 0' -l field -x -a 'fullname given family middle prefix suffix nickname birthday org org_unit title role email phone address url note jabber_id photo photo_type photo_size photo_url' -d 'Print only this field\'s value: fullname, given, family, middle, prefix, suffix, nickname, birthday, org, org_unit, title, role, email, phone, address, url, note, jabber_id, photo, photo_type, photo_size, photo_url. Lists print one value a line.'
complete -c xmpp-vcard -n '__xmpp_vcard_at get +0; or __xmpp_vcard_at "" 0' -l format -x -a 'text json vcf vcf4' -d 'text (default), json, vcf (vCard 3.0) or vcf4 (vCard 4.0).'
complete -c xmpp-vcard -n '__xmpp_vcard_at get +0; or __xmpp_vcard_at "" 0' -l photo-out -r -F -d 'Also write the embedded photo\'s bytes to FILE (\'-\': to stdout, instead of the card).'
complete -c xmpp-vcard -n '__xmpp_vcard_at get +0; or __xmpp_vcard_at "" 0' -l store -x -a 'all vcard-temp vcard4 nick' -d 'Read only this store: vcard-temp, vcard4, nick, or all (default: all, merged).'
complete -c xmpp-vcard -n '__xmpp_vcard_at get +0; or __xmpp_vcard_at "" 0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-vcard -n '__xmpp_vcard_at get +0; or __xmpp_vcard_at "" 0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-vcard -n '__xmpp_vcard_at "" 0' -x -a '(__xmpp_vcard_dynamic vcards)'
complete -c xmpp-vcard -n '__xmpp_vcard_at get +0' -x -a '(__xmpp_vcard_dynamic vcards)'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l fullname -x -d 'Full name (FN).'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l given -x -d 'Given name.'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l family -x -d 'Family name.'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l middle -x -d 'Middle name.'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l prefix -x -d 'Honorific prefix, e.g. Dr.'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l suffix -x -d 'Honorific suffix, e.g. Jr.'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l nickname -x -d 'Nickname.'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l birthday -x -d 'Birthday, a valid date.'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l org -x -d 'Organisation name.'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l org-unit -x -d 'Organisational unit; replaces the units.'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l title -x -d 'Job title.'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l role -x -d 'Role.'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l email -x -d 'Email address; replaces the emails.'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l phone -x -d 'Phone number; replaces the phones.'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l address -x -d 'Postal address; replaces the addresses (syntax above).'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l url -x -d 'Web page.'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l note -x -d 'Free text; may span several lines.'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l jabber-id -x -d 'The XMPP address shown on the card (JABBERID).'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l photo -x -a '(__xmpp_vcard_files png PNG jpg JPG jpeg JPEG gif GIF webp WEBP)' -d 'Embed this image as the photo.'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l clear -x -a 'fullname given family middle prefix suffix nickname birthday org org_unit title role email phone address url note jabber_id photo' -d 'Remove a field.'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l store -x -a 'all vcard-temp vcard4 nick' -d 'Write only this store: vcard-temp, vcard4, nick, or all (the default).'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l access -x -a 'open presence roster' -d 'Who may read the vCard4 and nickname nodes: open, presence (the default) or roster.'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-vcard -n '__xmpp_vcard_at set +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-vcard -n '__xmpp_vcard_at import +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-vcard -n '__xmpp_vcard_at import +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-vcard -n '__xmpp_vcard_at import 0' -x -a '(__xmpp_vcard_files vcf VCF vcard VCARD)'
complete -c xmpp-vcard -n '__xmpp_vcard_at "" 0' -a set -d 'Change fields of the account\'s own vCard, keeping every other field.'
complete -c xmpp-vcard -n '__xmpp_vcard_at "" 0' -a import -d 'Replace the account\'s own vCard with a .vcf file (vCard 3.0 or 4.0).'
