#ifndef XMPP_TOOLS_CRESOLV_SHIM_H
#define XMPP_TOOLS_CRESOLV_SHIM_H
#include <netinet/in.h>
#include <arpa/nameser.h>
#include <resolv.h>
#include <netdb.h>
/// h_errno is a macro over a thread-local; Swift cannot see it.
static inline int xt_h_errno(void) { return h_errno; }

/* prctl(2) is variadic, which Swift cannot call. Used to keep passwords and keys out of core
 * dumps and away from other processes of the same user (PR_SET_DUMPABLE: no core file, no
 * ptrace attach, /proc/PID/mem readable by root only). */
#include <sys/prctl.h>
static inline int xt_set_dumpable(int on) { return prctl(PR_SET_DUMPABLE, (unsigned long)on, 0UL, 0UL, 0UL); }
static inline int xt_get_dumpable(void) { return prctl(PR_GET_DUMPABLE, 0UL, 0UL, 0UL, 0UL); }
#endif
