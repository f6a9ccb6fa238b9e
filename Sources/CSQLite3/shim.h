#ifndef XMPP_TOOLS_CSQLITE3_SHIM_H
#define XMPP_TOOLS_CSQLITE3_SHIM_H
#include <sqlite3.h>
/// SQLITE_TRANSIENT is a macro cast Swift cannot see.
static inline sqlite3_destructor_type xt_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
