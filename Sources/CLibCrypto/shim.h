#ifndef XMPP_TOOLS_CLIBCRYPTO_SHIM_H
#define XMPP_TOOLS_CLIBCRYPTO_SHIM_H
/* libcrypto's digests, HMAC, PBKDF2 and random bytes: all CryptoPrimitives uses. */
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#endif
