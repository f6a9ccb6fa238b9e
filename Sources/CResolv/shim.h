#ifndef XMPP_TOOLS_CRESOLV_SHIM_H
#define XMPP_TOOLS_CRESOLV_SHIM_H
#include <netinet/in.h>
#include <arpa/nameser.h>
#include <resolv.h>
#include <netdb.h>
/// h_errno is a macro over a thread-local; Swift cannot see it.
static inline int xt_h_errno(void) { return h_errno; }
#endif
