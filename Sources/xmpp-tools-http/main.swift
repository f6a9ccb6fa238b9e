import Glibc
import HTTPHelper

// xmpp-tools-http: HTTPS for the tools' admin interfaces (HTTPHelperLoop), run by them through a
// pipe from ../libexec/xmpp-tools/ or beside them; not a command for people.
exit(HTTPHelperLoop.run())
