# fish completion for xmpp-register. Generated from its argument spec; do not edit.

# Prints the subcommand being completed and how many of its arguments precede the cursor.
function __xmpp_register_position
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
                case -a --account --server --ca-file --pin --timeout --resource --password-file --invite --field --nickname --fullname --email --avatar --report --jobs --window --max-stream-age --on-exists --report-by-group --domain --shard --format --map --adopt-report --prune --max-removals --rosters --for --api --ejabberdctl --groups-file --prosodyctl -o --output --group --paper --sign-in
                    set skip 1
            end
        else if test -z "$cmd"
            if contains -- $token create form passwd delete disable enable batch sync shared-groups handout invite
                set cmd $token
            else
                set cmd create
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
function __xmpp_register_at --argument-names cmd index
    set -l position (__xmpp_register_position)
    test "$position[1]" = "$cmd"; or return 1
    if string match -q -- '+*' $index
        test $position[2] -ge (string sub -s 2 -- $index)
    else
        test $position[2] -eq $index
    end
end

# Files ending in one of the given extensions, and directories.
function __xmpp_register_files
    set -l token (commandline -ct)
    for path in $token*
        if test -d $path
            printf '%s/\n' $path
        else if string match -q -r -- '\.('(string join '|' $argv)')$' $path
            printf '%s\n' $path
        end
    end
end

# Candidates the tool lists offline: 'xmpp-register __complete KIND', one per line.
function __xmpp_register_dynamic --argument-names kind
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
    command xmpp-register $request 2>/dev/null
end

complete -c xmpp-register -f
complete -c xmpp-register -s a -l account -x -a '(__xmpp_register_dynamic accounts)' -d 'Act as this account instead of the active one.'
complete -c xmpp-register -l json -d 'Print one JSON document for scripts instead of text for people.'
complete -c xmpp-register -l server -x -d 'Connect to this host and port instead of looking up the domain\'s SRV records; given more than once, try them in order (a batch spreads its streams over all of them).'
complete -c xmpp-register -l direct-tls -d 'Start TLS with the first byte (XEP-0368) instead of STARTTLS.'
complete -c xmpp-register -l ca-file -x -a '(__xmpp_register_files pem PEM crt CRT)' -d 'Trust the certificate authorities in this PEM file instead of the system\'s.'
complete -c xmpp-register -l pin -x -d 'Accept only a server whose public key has this SHA-256; without --ca-file, the pin replaces certificate verification.'
complete -c xmpp-register -l insecure -d 'Do not verify the server\'s certificate: anyone on the network path can read the session. Warns on every use, even with -q; never remembered, and not allowed with --pin or --ca-file.'
complete -c xmpp-register -l timeout -x -d 'Give up on a network step (connect, TLS, a request) that takes longer than this many seconds.'
complete -c xmpp-register -l resource -x -d 'Bind this resource instead of xmpp-tools.RANDOM; checked as a JID\'s resource is (exit status 9).'
complete -c xmpp-register -l trace -d 'Print the XML exchanged with the server on standard error, credentials redacted.'
complete -c xmpp-register -s q -l quiet -d 'Print no notes and no warnings, only data and errors.'
complete -c xmpp-register -s h -l help -d 'Show this help and exit.'
complete -c xmpp-register -l version -d 'Print the version and exit.'
complete -c xmpp-register -n '__xmpp_register_at create +0; or __xmpp_register_at "" 0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-register -n '__xmpp_register_at create +0; or __xmpp_register_at "" 0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-register -n '__xmpp_register_at create +0; or __xmpp_register_at "" 0' -l login -d 'Also log in and cache a session, making the account active.'
complete -c xmpp-register -n '__xmpp_register_at create +0; or __xmpp_register_at "" 0' -l admin -d 'Create it as the server\'s administrator (XEP-0133 add-user, with the logged-in admin\'s session), where registration is closed.'
complete -c xmpp-register -n '__xmpp_register_at create +0; or __xmpp_register_at "" 0' -l invite -x -d 'Redeem this invite (xmpp:DOMAIN?register;preauth=TOKEN) to create the account where registration is by invitation.'
complete -c xmpp-register -n '__xmpp_register_at create +0; or __xmpp_register_at "" 0' -l field -x -d 'Answer one more field the server asks for, such as email=alice@example.org.'
complete -c xmpp-register -n '__xmpp_register_at create +0; or __xmpp_register_at "" 0' -l nickname -x -d 'Set the nickname right after creating the account (vCard, vCard4 and the XEP-0172 nickname node).'
complete -c xmpp-register -n '__xmpp_register_at create +0; or __xmpp_register_at "" 0' -l fullname -x -d 'Set the vCard full name right after creating the account.'
complete -c xmpp-register -n '__xmpp_register_at create +0; or __xmpp_register_at "" 0' -l email -x -d 'Add this email to the vCard, and answer the form\'s email field if it has one.'
complete -c xmpp-register -n '__xmpp_register_at create +0; or __xmpp_register_at "" 0' -l avatar -x -a '(__xmpp_register_files png PNG jpg JPG jpeg JPEG)' -d 'Publish this PNG, JPEG or WebP image, resized to 100x100, as the avatar (XEP-0084 and XEP-0153). On a server without PEP (jabberd2) it is the vCard PHOTO only: a warning says so and lists what the vCard holds, and the command succeeds.'
complete -c xmpp-register -n '__xmpp_register_at passwd +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-register -n '__xmpp_register_at passwd +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-register -n '__xmpp_register_at passwd +0' -l admin -d 'Set the password of JID as the server\'s administrator (XEP-0133 change-user-password).'
complete -c xmpp-register -n '__xmpp_register_at passwd +0' -l report -x -a '(__xmpp_register_files csv CSV)' -d 'With --admin: also put the new password into JID\'s row of this batch report (xmpp-register batch --report), so the batch\'s next run logs in with it.'
complete -c xmpp-register -n '__xmpp_register_at delete +0' -l yes -d 'Confirm: deleting cannot be undone.'
complete -c xmpp-register -n '__xmpp_register_at delete +0' -l admin -d 'Delete JID as the server\'s administrator (XEP-0133 delete-user).'
complete -c xmpp-register -n '__xmpp_register_at delete +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-register -n '__xmpp_register_at delete +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-register -n '__xmpp_register_at disable +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-register -n '__xmpp_register_at disable +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-register -n '__xmpp_register_at enable +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-register -n '__xmpp_register_at enable +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-register -n '__xmpp_register_at batch +0' -l jobs -x -d 'Streams at once (default 4): registration streams each pipeline several requests (one at a time once a server answers a later request first, as jabberd2 does, which drops the answers to the others; the skipped rows are sent again and confirmed by logging in); log-ins (profiles, update, --delete, --passwd) run one account per stream.'
complete -c xmpp-register -n '__xmpp_register_at batch +0' -l resume -d 'Continue the interrupted run of this CSV recorded in its journal.'
complete -c xmpp-register -n '__xmpp_register_at batch +0' -l dry-run -d 'Check every row and stop; nothing is sent.'
complete -c xmpp-register -n '__xmpp_register_at batch +0' -l strict -d 'Refuse the whole file when any row is invalid.'
complete -c xmpp-register -n '__xmpp_register_at batch +0' -l on-exists -x -a 'skip fail update' -d 'When an account exists: skip (default), fail, or update (log in, apply the profile).'
complete -c xmpp-register -n '__xmpp_register_at batch +0' -l report -x -a '(__xmpp_register_files csv CSV)' -d 'Write every row\'s outcome to FILE as CSV (mode 0600, atomic).'
complete -c xmpp-register -n '__xmpp_register_at batch +0' -l report-by-group -x -a '(__fish_complete_directories)' -d 'Also write the report split by the groups column: DIR/group-NAME.csv per group, DIR/ungrouped.csv (mode 0600; DIR made 0700).'
complete -c xmpp-register -n '__xmpp_register_at batch +0' -l domain -x -d 'Domain for a username column and for JIDs written without @.'
complete -c xmpp-register -n '__xmpp_register_at batch +0' -l shard -x -d 'Take only shard K of N (by a hash of the JID), so N machines split one CSV.'
complete -c xmpp-register -n '__xmpp_register_at batch +0' -l generate-passwords -d 'Generate passwords for rows without one, as each is created (kept only in --report). Each is 24 letters and digits without the look-alikes O, 0, l, I and 1, so a printed slip reads back.'
complete -c xmpp-register -n '__xmpp_register_at batch +0' -l delete -d 'Delete the listed accounts instead (logs in with each row\'s password).'
complete -c xmpp-register -n '__xmpp_register_at batch +0' -l passwd -d 'Change each account\'s password from password to new_password.'
complete -c xmpp-register -n '__xmpp_register_at batch +0' -l admin -d 'Use the logged-in administrator\'s XEP-0133 commands (add, delete, change password), where registration is closed.'
complete -c xmpp-register -n '__xmpp_register_at batch +0' -l invite -d 'Create one account invite (XEP-0401) per row as the administrator, and write its URI to --report instead of a password.'
complete -c xmpp-register -n '__xmpp_register_at batch +0' -l shared-groups -d 'Set no per-account rosters: the server\'s shared roster groups give them (xmpp-register shared-groups).'
complete -c xmpp-register -n '__xmpp_register_at batch +0' -l format -x -a 'csv ldif' -d 'The input\'s format: csv or ldif (default: ldif when FILE ends in .ldif or its first line, comments aside, starts with dn: or version:; else csv).'
complete -c xmpp-register -n '__xmpp_register_at batch +0' -l map -x -d 'Which LDIF attribute fills which column: without it, inetOrgPerson\'s uid=username, displayName=fullname, cn=fullname, mail=email, jpegPhoto=avatar, ou=groups.'
complete -c xmpp-register -n '__xmpp_register_at batch 0' -x -a '(__xmpp_register_files csv CSV ldif LDIF)'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l admin -d 'Use the logged-in administrator\'s XEP-0133 commands (required: sync creates, disables and deletes with them).'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l report -x -a '(__xmpp_register_files csv CSV)' -d 'The report of the managed accounts and their passwords (mode 0600, atomic); required to apply.'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l report-by-group -x -a '(__fish_complete_directories)' -d 'Also write the report split by the groups column: DIR/group-NAME.csv per group, DIR/ungrouped.csv (mode 0600; DIR made 0700).'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l invite -d 'Hand new accounts out as invites (Prosody 13), not passwords.'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l dry-run -d 'Print the plan and stop; nothing is changed or written.'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l no-refresh -d 'Plan from sync\'s state only, without reading the server first (no connection when nothing changed).'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l adopt -d 'Put the file\'s accounts that exist but that sync did not create under management (no account re-created, no password changed).'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l adopt-report -x -a '(__xmpp_register_files csv CSV)' -d 'A batch report holding the passwords of the accounts --adopt adopts (default: those in --report).'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l prune -x -a 'disable delete' -d 'What happens to accounts that left the file (default disable, where the server offers it).'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l yes -d 'Apply a plan that removes more accounts than --max-removals.'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l max-removals -x -d 'Accounts a plan may disable or delete without --yes (default: 10% of the managed ones, at least 5).'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l domain -x -d 'Domain for a username column and for JIDs written without @.'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l jobs -x -d 'Streams at once (default 4).'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l format -x -a 'csv ldif' -d 'The input\'s format: csv or ldif (default: ldif when FILE ends in .ldif or its first line, comments aside, starts with dn: or version:; else csv).'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l map -x -d 'Which LDIF attribute fills which column: without it, inetOrgPerson\'s uid=username, displayName=fullname, cn=fullname, mail=email, jpegPhoto=avatar, ou=groups.'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l rosters -x -a 'per-account shared' -d 'Class rosters per account (the default) or as the server\'s shared groups.'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l for -x -a 'prosody ejabberd' -d 'The server of --rosters shared.'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l api -x -d 'ejabberd\'s API (default https://DOMAIN:5443/api).'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l ejabberdctl -x -d 'Use this ejabberdctl instead of ejabberd\'s API.'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l groups-file -x -a '(__xmpp_register_files txt TXT)' -d 'Prosody\'s groups_file (rewritten, then reloaded).'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l prosodyctl -x -d 'How to run prosodyctl (default prosodyctl).'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-register -n '__xmpp_register_at sync +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-register -n '__xmpp_register_at sync 0' -x -a '(__xmpp_register_files csv CSV ldif LDIF)'
complete -c xmpp-register -n '__xmpp_register_at shared-groups +0' -l for -x -a 'prosody ejabberd' -d 'prosody (a groups file for mod_groups) or ejabberd (an ejabberdctl script for mod_shared_roster).'
complete -c xmpp-register -n '__xmpp_register_at shared-groups +0' -l format -x -a 'csv ldif' -d 'The input\'s format: csv or ldif (default: ldif when FILE ends in .ldif or its first line, comments aside, starts with dn: or version:; else csv).'
complete -c xmpp-register -n '__xmpp_register_at shared-groups +0' -l domain -x -d 'Domain for a username column and for JIDs written without @.'
complete -c xmpp-register -n '__xmpp_register_at shared-groups +0' -l map -x -d 'For an LDIF input (FILE ending in .ldif, or starting with dn:), which attribute fills which column, as for batch --map.'
complete -c xmpp-register -n '__xmpp_register_at shared-groups +0' -l apply -d 'Change the server\'s groups to match, through its admin interface, sending only what differs.'
complete -c xmpp-register -n '__xmpp_register_at shared-groups +0' -l dry-run -d 'With --apply: print the changes and stop.'
complete -c xmpp-register -n '__xmpp_register_at shared-groups +0' -l api -x -d 'ejabberd\'s API (default https://DOMAIN:5443/api).'
complete -c xmpp-register -n '__xmpp_register_at shared-groups +0' -l ejabberdctl -x -d 'Use this ejabberdctl instead of ejabberd\'s API.'
complete -c xmpp-register -n '__xmpp_register_at shared-groups +0' -l groups-file -x -a '(__xmpp_register_files txt TXT)' -d 'Prosody\'s groups_file (rewritten, then reloaded).'
complete -c xmpp-register -n '__xmpp_register_at shared-groups +0' -l prosodyctl -x -d 'How to run prosodyctl (default prosodyctl).'
complete -c xmpp-register -n '__xmpp_register_at shared-groups +0' -l password-file -r -F -d 'Read the password from the first line of FILE.'
complete -c xmpp-register -n '__xmpp_register_at shared-groups +0' -l password-stdin -d 'Read the password from the first line of standard input.'
complete -c xmpp-register -n '__xmpp_register_at shared-groups 0' -x -a '(__xmpp_register_files csv CSV)'
complete -c xmpp-register -n '__xmpp_register_at handout +0' -s o -l output -x -a '(__xmpp_register_files pdf PDF)' -d 'Write the PDF to FILE (mode 0600), or - for standard output when it is not a terminal.'
complete -c xmpp-register -n '__xmpp_register_at handout +0' -l group -x -d 'Only the rows of this group (the report\'s groups column).'
complete -c xmpp-register -n '__xmpp_register_at handout +0' -l all -d 'Print every row\'s slip, also those printed before.'
complete -c xmpp-register -n '__xmpp_register_at handout +0' -l paper -x -a 'a4 letter' -d 'a4 (default) or letter.'
complete -c xmpp-register -n '__xmpp_register_at handout +0' -l sign-in -x -d 'The short text under each slip saying how to sign in (replaces the default).'
complete -c xmpp-register -n '__xmpp_register_at handout 0' -x -a '(__xmpp_register_files csv CSV)'
complete -c xmpp-register -n '__xmpp_register_at "" 0' -a form -d 'Show the fields a server asks for before it creates an account.'
complete -c xmpp-register -n '__xmpp_register_at "" 0' -a passwd -d 'Change the password of the account and refresh its cached session.'
complete -c xmpp-register -n '__xmpp_register_at "" 0' -a delete -d 'Delete the account from the server and forget its session.'
complete -c xmpp-register -n '__xmpp_register_at "" 0' -a disable -d 'Disable an account as the server\'s administrator: it can no longer log in (XEP-0133 disable-user).'
complete -c xmpp-register -n '__xmpp_register_at "" 0' -a enable -d 'Re-enable an account that was disabled, as the server\'s administrator (XEP-0133 reenable-user).'
complete -c xmpp-register -n '__xmpp_register_at "" 0' -a batch -d 'Create, delete or re-password many accounts listed in a CSV or LDIF file.'
complete -c xmpp-register -n '__xmpp_register_at "" 0' -a sync -d 'Make the server\'s managed accounts, profiles and rosters what a CSV file says: plan, then apply.'
complete -c xmpp-register -n '__xmpp_register_at "" 0' -a shared-groups -d 'Write a batch CSV\'s rosters as the server\'s shared roster groups.'
complete -c xmpp-register -n '__xmpp_register_at "" 0' -a handout -d 'Print a report\'s accounts as slips to hand out (PDF).'
complete -c xmpp-register -n '__xmpp_register_at "" 0' -a invite -d 'Make an account invite (its QR code on a terminal).'
